package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.formatMargin
import java.util.Locale

/**
 * Does the gap between protocols [Case.x] and [Case.y] depend on a setting? [decision]
 * weighs, fork by fork, x over y under [Case.variant] against x over y under
 * [Case.baseline] (the scenario's first variant): a ratio of ratios. Above 1 the gap is
 * wider under the variant; equivalent means the setting leaves the choice between the two
 * protocols as it was, even where it makes both of them dearer.
 */
data class Interaction(val case: Case, val decision: Decision) {
    data class Case(val x: String, val y: String, val baseline: String, val variant: String) {
        /** The four arms the ratio reads: x and y under the variant, then under the baseline. */
        val arms get() = listOf(
            Variant.label(x, variant),
            Variant.label(y, variant),
            Variant.label(x, baseline),
            Variant.label(y, baseline),
        )

        /** "gRPC/Unary ÷ HTTP/JSON" under [variant], as a decision's arm name. */
        fun gapLabel(variant: String) = Variant.label("$x ÷ $y", variant)
    }

    /**
     * One line: both gaps as the forks' geometric means, then the verdict on their ratio,
     * e.g. "gRPC/Unary over HTTP/JSON ×0.45 under g1-256m, ×0.52 under g1-4g: the gap
     * depends on the variant, ×1.16 [1.05, 1.28] (Holm-adjusted …)".
     */
    fun sentence(a: ConditionAnalysis, kind: TrialKind, t: Texts): String {
        val figure = Figure.byKey(decision.figure)!!
        fun gap(variant: String) = a.paired(kind, figure, Variant.label(case.x, variant), Variant.label(case.y, variant)).ratio
        val gaps = t(
            "interaction.gaps",
            MarkdownReport.figureTitle(decision.figure, t),
            case.x,
            case.y,
            factor(gap(case.baseline)),
            case.baseline,
            factor(gap(case.variant)),
            case.variant,
        )
        val ci = decision.interval
        val estimate = estimateText()
        val verdict = when (decision.outcome) {
            is Outcome.Better -> t("interaction.depends", case.variant, case.baseline, estimate)
            is Outcome.Equivalent -> t("interaction.same", case.variant, case.baseline, estimate, formatMargin(decision.margin))
            is Outcome.Inconclusive -> if (ci == null) t("interaction.too-few", decision.estimate.n) else t("interaction.open", estimate)
        }
        return "$gaps; $verdict" + decision.tail(t) + decision.moreForksText(t)
    }

    /** The ratio of the gaps as a factor with its interval: "×1.16 [×1.05, ×1.28]" (no interval below 2 forks). */
    fun estimateText(): String =
        factor(decision.estimate.ratio) + (decision.interval?.let { " [${factor(it.low)}, ${factor(it.high)}]" } ?: "")

    companion object {
        /** A ratio as a factor: ×0.45, ×1.16. */
        fun factor(ratio: Double): String = if (ratio.isFinite()) String.format(Locale.ROOT, "×%.2f", ratio) else "–"
    }
}
