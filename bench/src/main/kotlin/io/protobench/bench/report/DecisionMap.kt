package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Axis
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/** What one condition decided on its primary figure among the protocols of one setting. */
sealed class Call {
    /** [protocol] beat every other; the smallest of its Holm-adjusted lower bounds is [leastAdvantagePercent]. */
    data class Winner(val protocol: String, val leastAdvantagePercent: Double) : Call()

    /**
     * No protocol beat these by more than the margin: they were shown equivalent, or one beat
     * the others by less than the margin over its whole interval.
     */
    data class Equivalent(val protocols: List<String>) : Call()

    /** No protocol beat these, and not every comparison among them is decided. */
    data class Open(val leaders: List<String>) : Call()

    /** The condition's A/A control differed from itself: nothing there is called. */
    data object Untrusted : Call()

    companion object {
        /** The call from one figure's protocol decisions; null when there are none. */
        fun of(decisions: List<Decision>): Call? {
            if (decisions.isEmpty()) return null
            val protocols = decisions.flatMap { listOf(it.a, it.b) }.distinct()
            val losers = decisions.mapNotNull { (it.outcome as? Outcome.Better)?.loser }.toSet()
            val leaders = protocols.filter { it !in losers }
            SelectionGuide.best(decisions)?.let { winner ->
                // Only the winner's own comparisons are all decided; those among the others may be open.
                val won = decisions.filter { it.a == winner || it.b == winner }.map { it to it.outcome as Outcome.Better }
                // Beaten by less than the margin, even at the interval's far end: practically a tie.
                val tied = won.filter { (d, _) -> d.insideMargin }.map { (_, better) -> better.loser }
                if (tied.isNotEmpty()) return Equivalent(listOf(winner) + tied)
                return Winner(winner, won.minOf { (_, better) -> better.lowPercent })
            }
            val amongLeaders = decisions.filter { it.a in leaders && it.b in leaders }
            return if (leaders.size > 1 && amongLeaders.all { it.outcome is Outcome.Equivalent }) Equivalent(leaders) else Open(leaders)
        }
    }
}

/**
 * The decided winner across two axes at once: a size (or complexity) along, a concurrency
 * (or rate) down, one [Call] per measured condition. [variant] is the setting the protocols
 * ran under, null without variants.
 */
data class DecisionMap(
    val figure: Figure,
    val across: String,
    val down: String?,
    val columns: List<String>,
    val rows: List<String>,
    /** (column, row) → the condition and its call. */
    val cells: Map<Pair<Int, Int>, Pair<String, Call>>,
    val variant: String?,
) {
    companion object {
        /**
         * One map per axis a run varies its payload along (size, complexity, your message's count) and per variant,
         * with the concurrency or rate those conditions vary as its rows. Nothing for a run of
         * a single condition.
         */
        fun of(analyses: List<ConditionAnalysis>, record: RunRecord): List<DecisionMap> {
            if (analyses.size < 2) return emptyList()
            val capacityMode = record.scenario.mode == Mode.CAPACITY
            val figure = if (capacityMode) Figure.THROUGHPUT else Figure.HOP_CPU_US
            val kind = if (capacityMode) TrialKind.CAPACITY else TrialKind.COST
            val parsed = analyses.map { SelectionGuide.parse(it.condition) to it }
            val variants = record.scenario.variants.map { it.name }.ifEmpty { listOf(null) }
            return listOf("size", "complexity", "count").flatMap { across ->
                val members = parsed.filter { (labels, _) -> across in labels }
                val down = listOf("vus", "rate").firstOrNull { key -> members.mapNotNull { it.first[key] }.distinct().size > 1 }
                val columns = members.map { it.first.getValue(across) }.distinct().sortedBy { position(across, it) }
                val rows = down?.let { key -> members.mapNotNull { it.first[key] }.distinct().sortedBy { position(key, it) } } ?: listOf("")
                if (members.size < 2) return@flatMap emptyList()
                variants.map { variant ->
                    val cells = members.mapNotNull { (labels, a) ->
                        val decisions = a.family(kind)?.protocolDecisions.orEmpty()
                            .filter { it.figure == figure.key && Variant.split(it.a).second == variant }
                        val call = if (a.untrustworthy) Call.Untrusted else Call.of(decisions) ?: return@mapNotNull null
                        val at = columns.indexOf(labels.getValue(across)) to (down?.let { rows.indexOf(labels[it]) } ?: 0)
                        at to (a.condition to call)
                    }.toMap()
                    DecisionMap(figure, across, down, columns, rows, cells, variant)
                }
            }
        }

        /** Where a condition's value sits on its axis ([Axis.parse]: bytes, the level's rank, the number); NaN when it is not on one. */
        fun position(axis: String, value: String): Double =
            Axis.entries.firstOrNull { it.id == axis }?.parse(value.removeSuffix("/s"))?.toDouble() ?: Double.NaN

        /** The most columns whose chart boxes are wide enough for two protocols' names. */
        private const val NAMED_COLUMNS = 5

        /** "gRPC/Unary" → "Unary": short enough for a map cell. */
        fun short(protocol: String) = Variant.split(protocol).first.substringAfter('/')
    }

    /**
     * The words of one cell: the winner with its least advantage, "≈" for equivalence, "?"
     * for open; [compact] (a chart's box) counts open leaders instead of naming them when there
     * are more than two, or more than one where the map has too many columns for two names in a box.
     */
    fun word(call: Call, t: Texts = Texts.EN, compact: Boolean = false): String = when (call) {
        is Call.Winner -> "${short(call.protocol)} ≥${Numbers.percentText(call.leastAdvantagePercent.coerceAtLeast(0.0) / 100)}"

        is Call.Equivalent -> "≈ " + call.protocols.joinToString("/") { short(it) }

        is Call.Open -> if (compact && call.leaders.size > (if (columns.size > NAMED_COLUMNS) 1 else 2)) {
            t("map.open-count", call.leaders.size)
        } else {
            "? " + call.leaders.joinToString("/") { short(it) }
        }

        Call.Untrusted -> t("map.untrusted")
    }

    /** The name of the map's picture beside the report: `decision-map-size.svg`, with the variant's name when there is one. */
    val pictureName: String
        get() = "decision-map-$across" + (variant?.let { "-" + it.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-') } ?: "") + ".svg"

    /** The map as a Markdown table, for report.md and the guide. */
    fun markdown(t: Texts = Texts.EN): String = buildString {
        appendLine("| ${down?.let { "$it \\ $across" } ?: across} | ${columns.joinToString(" | ")} |")
        appendLine("|---|" + "---|".repeat(columns.size))
        rows.forEachIndexed { r, row ->
            appendLine(
                "| $row | " + columns.indices.joinToString(" | ") { c -> cells[c to r]?.second?.let { word(it, t) } ?: "–" } + " |",
            )
        }
    }
}

/**
 * Conditions of a run that differ only along [axis], the others' labels [fixed], in axis order
 * ([DecisionMap.position]): what a chart along an axis draws and where a pair's flips are looked for.
 */
data class AxisLine(val axis: String, val fixed: Map<String, String>, val members: List<Pair<Map<String, String>, ConditionAnalysis>>) {
    companion object {
        /** Every line of two conditions or more along every axis the [analyses] vary. */
        fun of(analyses: List<ConditionAnalysis>): List<AxisLine> {
            val parsed = analyses.map { SelectionGuide.parse(it.condition) to it }
            return SelectionGuide.variedAxes(parsed.map { it.first }).flatMap { axis ->
                parsed.filter { (labels, _) ->
                    axis in labels && DecisionMap.position(axis, labels.getValue(axis)).let { it.isFinite() && it >= 0 }
                }.groupBy { (labels, _) -> labels - axis }
                    .filterValues { it.size > 1 }
                    .map { (fixed, members) ->
                        AxisLine(axis, fixed, members.sortedBy { DecisionMap.position(axis, it.first.getValue(axis)) })
                    }
            }
        }
    }
}
