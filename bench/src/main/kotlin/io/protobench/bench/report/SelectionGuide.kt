package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/**
 * The protocol-selection guide, derived from the decisions only: a protocol is named
 * where it is better than every other protocol after Holm, equivalence is said where it
 * was shown, and flips are reported along every axis that varies (size, complexity, vus).
 */
object SelectionGuide {
    fun lines(analyses: List<ConditionAnalysis>, t: Texts = Texts.EN): List<String> {
        val lines = analyses.map { a -> "- **${a.condition}**: " + perCondition(a, t) }.toMutableList()
        analyses.filter { !it.untrustworthy }.forEach { a -> settings(a, t)?.let { lines += t("guide.setting-mattered", a.condition, it) } }
        analyses.filter { !it.untrustworthy }.forEach { a -> gaps(a, t)?.let { lines += t("guide.gaps", a.condition, it) } }
        val parsed = analyses.map { parse(it.condition) to it }
        val axes = variedAxes(parsed.map { it.first })
        val variants = analyses.flatMap(::variantsOf).distinct()
        for (axis in axes) for (variant in variants) lines += flips(axis, parsed, variant, t)
        return lines
    }

    /** The variants whose protocols a condition compared; a single null without variants. */
    private fun variantsOf(a: ConditionAnalysis): List<String?> =
        a.families.flatMap { f -> f.protocolDecisions.map { Variant.split(it.a).second } }.distinct()

    private fun perCondition(a: ConditionAnalysis, t: Texts): String {
        if (a.untrustworthy) return t("guide.untrusted")
        val perVariant = variantsOf(a).map { v ->
            fun under(decisions: List<Decision>) = decisions.filter { Variant.split(it.a).second == v }
            val parts = listOfNotNull(
                a.family(TrialKind.COST)?.let { figureText(under(it.protocolDecisions), Figure.HOP_CPU_US, t("guide.cheapest-hop"), t) },
                a.family(TrialKind.COST)?.let { figureText(under(it.protocolDecisions), Figure.HOP_P50, t("guide.lowest-latency"), t) },
                a.family(TrialKind.CAPACITY)?.let {
                    figureText(under(it.protocolDecisions), Figure.THROUGHPUT, t("guide.highest-capacity"), t)
                },
            )
            (v?.let { t("guide.under", it) } ?: "") + parts.joinToString("; ")
        }
        return perVariant.ifEmpty { listOf(t("guide.nothing")) }.joinToString(" — ")
    }

    /**
     * What the variants changed in the primary figures (hop CPU and latency; throughput in
     * capacity mode): each decided difference in words with its interval, the protocols on
     * which a setting was shown not to matter, and how many comparisons stayed open. Null
     * without variants.
     */
    private fun settings(a: ConditionAnalysis, t: Texts): String? {
        val decisions = a.families.flatMap { it.variantDecisions }
            .filter {
                it.figure in listOf(Figure.TOTAL_CPU_US.key, Figure.HOP_P50.key) ||
                    (a.family(TrialKind.COST) == null && it.figure == Figure.THROUGHPUT.key)
            }
        if (decisions.isEmpty()) return null
        val differences = decisions.filter { it.isBetter }.map { settingEffect(it, t) }
        val equivalent = decisions.filter { it.outcome is Outcome.Equivalent }
            .map { t("guide.figure-on", MarkdownReport.figureTitle(it.figure, t), Variant.split(it.a).first) }
        val open = decisions.count { it.outcome is Outcome.Inconclusive }
        return (
            differences.ifEmpty { listOf(t("guide.no-difference")) } +
                listOfNotNull(
                    equivalent.takeIf { it.isNotEmpty() }?.let { t("guide.equivalent", it.joinToString(", ")) },
                    open.takeIf { it > 0 }?.let { t("guide.undecided", it) },
                )
            ).joinToString("; ")
    }

    /**
     * Whether a setting moved the gap between two protocols, on the primary figures (the
     * hop's CPU and latency; throughput in capacity mode): each gap shown to depend on a
     * variant with its factor and interval, those shown not to, and how many stayed open.
     * Null without interactions.
     */
    private fun gaps(a: ConditionAnalysis, t: Texts): String? {
        val primary = a.family(TrialKind.COST)?.interactions
            ?.filter { it.decision.figure in listOf(Figure.HOP_CPU_US.key, Figure.HOP_P50.key) }
            ?: a.family(TrialKind.CAPACITY)?.interactions.orEmpty()
        if (primary.isEmpty()) return null
        fun what(i: Interaction) = MarkdownReport.figureTitle(i.decision.figure, t)
        val depends = primary.filter { it.decision.isBetter }.map { i ->
            t("guide.gap-depends", i.case.x, i.case.y, what(i), i.estimateText(), i.case.variant, i.case.baseline)
        }
        val same = primary.filter { it.decision.outcome is Outcome.Equivalent }
            .map { "${it.case.x} ÷ ${it.case.y}, ${what(it)}, ${it.case.variant}" }
        val open = primary.count { it.decision.outcome is Outcome.Inconclusive }
        return (
            depends.ifEmpty { listOf(t("guide.no-difference")) } +
                listOfNotNull(
                    same.takeIf { it.isNotEmpty() }?.let { t("guide.equivalent", it.joinToString(", ")) },
                    open.takeIf { it > 0 }?.let { t("guide.undecided", it) },
                )
            ).joinToString("; ")
    }

    /**
     * A decided difference between two variants as the price of the worse one: "on
     * gRPC/Unary, copyFrom: +54.0% CPU per request of both servers against zero-copy [+31.2%, +80.9%]"
     * (Holm-adjusted interval; for throughput the worse variant's change is negative).
     */
    private fun settingEffect(d: Decision, t: Texts): String {
        val (protocol, variantA) = Variant.split(d.a)
        val variantB = Variant.split(d.b).second
        val aWorse = !(d.outcome as Outcome.Better).aBetter
        val ci = d.interval!!
        val (ratio, low, high) =
            if (aWorse) Triple(d.estimate.ratio, ci.low, ci.high) else Triple(1 / d.estimate.ratio, 1 / ci.high, 1 / ci.low)
        val (worse, better) = if (aWorse) variantA to variantB else variantB to variantA
        val what = if (t.has("effect.${d.figure}")) t("effect.${d.figure}") else MarkdownReport.figureTitle(d.figure, t)
        fun percent(r: Double) = Numbers.signed((r - 1) * 100)
        return t("guide.effect", protocol, worse, percent(ratio), what, better, percent(low), percent(high))
    }

    private fun figureText(decisions: List<Decision>, figure: Figure, what: String, t: Texts): String {
        val onFigure = decisions.filter { it.figure == figure.key }
        if (onFigure.isEmpty()) return t("guide.not-measured", what)
        best(onFigure)?.let { return t("guide.winner", what, Variant.split(it).first) }
        val equivalent = onFigure.filter { it.outcome is Outcome.Equivalent }
            .map { "${Variant.split(it.a).first} ≈ ${Variant.split(it.b).first}" }
        val open = onFigure.count { it.outcome is Outcome.Inconclusive }
        return t("guide.no-winner", what) +
            (if (equivalent.isNotEmpty()) "; " + t("guide.equivalent", equivalent.joinToString(", ")) else "") +
            (if (open > 0) "; " + t("guide.undecided", open) else "")
    }

    /** The protocol that won every comparison it took part in on one figure, if one did. */
    fun best(decisions: List<Decision>): String? {
        val protocols = decisions.flatMap { listOf(it.a, it.b) }.distinct()
        return protocols.firstOrNull { p ->
            decisions.filter { it.a == p || it.b == p }.all { (it.outcome as? Outcome.Better)?.winner == p }
        }
    }

    private fun flips(axis: String, parsed: List<Pair<Map<String, String>, ConditionAnalysis>>, variant: String?, t: Texts): List<String> {
        // Only conditions that vary along this axis: a run may mix sizes and complexity levels.
        val groups = parsed.filter { (labels, _) -> axis in labels }.groupBy { (labels, _) -> labels - axis }
        return groups.flatMap { (fixed, members) ->
            val values = members.map { (labels, a) ->
                labels.getValue(axis) to a.family(TrialKind.COST)?.protocolDecisions
                    ?.filter { it.figure == Figure.HOP_CPU_US.key && Variant.split(it.a).second == variant }
                    ?.let(::best)?.let { Variant.split(it).first }
            }
            val decided = values.withIndex().filter { it.value.second != null }
            decided.zipWithNext().filter { (x, y) -> x.value.second != y.value.second }.map { (x, y) ->
                val context = fixed.entries.joinToString(" ") { "${it.key}=${it.value}" } +
                    (variant?.let { t("guide.of-variant", it) } ?: "")
                t("guide.flip", axis, context, x.value.second, "$axis=${x.value.first}", y.value.second, "$axis=${y.value.first}")
            }
        }
    }

    /** The axes (size, complexity, vus, rate) that take more than one value among conditions' [labels]. */
    fun variedAxes(labels: List<Map<String, String>>): List<String> = labels.flatMap { it.keys }.distinct().filter { key ->
        labels.mapNotNull { it[key] }.distinct().size >
            1
    }

    fun parse(condition: String): Map<String, String> = condition.split(" ").filter { "=" in it }
        .associate { it.substringBefore("=") to it.substringAfter("=") }
}
