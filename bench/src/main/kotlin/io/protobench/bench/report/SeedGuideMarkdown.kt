package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.Verdicts
import io.protobench.bench.verdict.formatMargin
import io.protobench.bench.verdict.formatPercent

/**
 * The report's "The seed's guide, line by line": one table row per guide row and measure,
 * one per crossover and measure, each with what every condition decided and the label
 * ([SeedGuide]). Empty where the run judged no row.
 */
object SeedGuideMarkdown {
    fun render(analyses: List<ConditionAnalysis>, t: Texts): String = buildString {
        val rows = SeedGuide.claims.rows.map { it to SeedGuide.row(it, analyses) }
        val crossovers = SeedGuide.claims.crossovers.map { it to SeedGuide.crossover(it, analyses) }
        if ((rows + crossovers).all { it.second.isEmpty() }) return@buildString
        appendLine(t("seed-guide.title"))
        appendLine()
        appendLine(t("seed-guide.intro"))
        appendLine()
        appendLine(t("seed-guide.rows.columns"))
        appendLine("|---:|---|---|---|---|")
        for ((row, findings) in rows) {
            val claim = claimText(row.claim, row.original, t)
            if (row.than == null) {
                appendLine("| ${row.row} | $claim | – | ${t("seed-guide.need", row.better)} | ${t("seed-guide.label.need")} |")
                continue
            }
            if (findings.isEmpty()) appendLine("| ${row.row} | $claim | – | ${t("seed-guide.not-measured")} | – |")
            for (f in findings) {
                appendLine(
                    "| ${row.row} | $claim | ${measure(f.figure, t)} | " +
                        "${f.points.joinToString("; ") { point(it.condition, it.decision, t) }} | ${label(f, t)} |",
                )
            }
        }
        appendLine()
        appendLine(t("seed-guide.crossovers.columns"))
        appendLine("|---|---|---|---|---|---|")
        for ((c, findings) in crossovers) {
            val claim = claimText(c.claim, c.original, t)
            if (findings.isEmpty()) appendLine("| ${c.id} | $claim | – | ${t("seed-guide.not-measured")} | – | – |")
            for (f in findings) {
                val along = f.points.joinToString("; ") { "${it.condition}: ${side(it.decision, t)}" }
                val flip = f.flips.joinToString("; ") { t("seed-guide.flip", it.from, it.last, it.to, it.first) }
                    .ifEmpty { t("seed-guide.no-flip") }
                appendLine("| ${c.id} | $claim | ${measure(f.figure, t)} | $along | $flip | ${label(f, t)} |")
            }
        }
        appendLine()
    }

    /** The seed's words: in English with the Korean original beside it, or the original alone in Korean. */
    private fun claimText(english: String, original: String, t: Texts) = if (t.lang == Lang.EN) "$english 「$original」" else "「$original」"

    /** The measure a finding rests on: the seed's (throughput of the probes) or the lab's (the hop in cost trials). */
    private fun measure(figure: Figure, t: Texts) = t(
        if (figure == Figure.THROUGHPUT) "seed-guide.measure.seed" else "seed-guide.measure.lab",
        MarkdownReport.figureTitle(figure.key, t),
    )

    /** One condition's decision: who was better by how much, equivalent, or open with its estimate. */
    private fun point(condition: String, d: Decision, t: Texts): String = when (val o = d.outcome) {
        is Outcome.Better -> t(
            "seed-guide.point.better",
            condition,
            o.winner,
            MarkdownReport.betterWord(d.figure, t),
            formatPercent(o.sizePercent),
            formatPercent(o.lowPercent),
            formatPercent(o.highPercent),
        )

        is Outcome.Equivalent -> t("seed-guide.point.equivalent", condition, formatMargin(d.margin))

        is Outcome.Inconclusive -> t("seed-guide.point.open", condition, d.a, d.b, d.signedWithInterval())
    }

    /** A crossover point in a word: the better protocol, "≈" for equivalent, or open. */
    private fun side(d: Decision, t: Texts): String = when (val o = d.outcome) {
        is Outcome.Better -> o.winner
        is Outcome.Equivalent -> "≈"
        is Outcome.Inconclusive -> t("seed-guide.side.open")
    }

    private fun label(f: GuideFinding, t: Texts): String {
        val name = t("seed-guide.label.${f.label.name.lowercase()}")
        if (f.label != GuideLabel.OPEN) return "*$name*"
        val forks = f.moreForks?.let { t(if (it == 1) "seed-guide.one-more-fork" else "seed-guide.more-forks", it) }
            ?: t("seed-guide.forks-unknown", Verdicts.MAX_FORKS)
        return "*$name — $forks*"
    }
}
