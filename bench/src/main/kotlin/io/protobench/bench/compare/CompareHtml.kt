package io.protobench.bench.compare

import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.Numbers
import io.protobench.bench.report.html.ChangeRow
import io.protobench.bench.report.html.Html
import io.protobench.bench.report.html.MarkdownHtml
import io.protobench.bench.report.html.Svg
import io.protobench.bench.text.Texts

/**
 * compare.html: compare.md's words, and per condition one chart of every change B against
 * A with its Holm-adjusted interval over the shaded margin, coloured by outcome. Self-contained
 * like report.html (see [Html]).
 */
object CompareHtml {
    const val FILE_NAME = "compare.html"

    private val colors = mapOf(
        "regression" to "#c0392b",
        "worse" to "#e67e22",
        "improvement" to "#1b9e77",
        "equivalent" to "#1f4e9c",
        "inconclusive" to "#999999",
    )

    fun render(c: Comparison, t: Texts = Texts.EN): String {
        val charts = c.conditions.associate { it.condition to chart(it, c, t) }
        val body = CompareMarkdown.render(c, t).split(Regex("(?m)^(?=## )")).joinToString("") { section ->
            val heading = section.lineSequence().first()
            val chart = charts[heading.removePrefix("## ").trim()]
            if (chart == null) {
                MarkdownHtml.toHtml(section)
            } else {
                MarkdownHtml.toHtml(heading) + """<div class="charts">$chart</div>""" + MarkdownHtml.toHtml(section.substringAfter("\n"))
            }
        }
        return Html.page(t("compare.title", c.a.runId, c.b.runId).removePrefix("# "), t.lang.id, body)
    }

    private fun chart(condition: ConditionChanges, c: Comparison, t: Texts): String? {
        val rows = condition.changes.filter { !it.estimate.meanLog.isNaN() }.map { f ->
            val outcome = key(f.change)
            ChangeRow(
                "${f.arm} · ${MarkdownReport.figureTitle(f.figure.key, t)}",
                f.estimate.percent,
                f.interval?.lowPercent,
                f.interval?.highPercent,
                colors.getValue(outcome),
                "${CompareMarkdown.change(f)} ${t("compare.chart.$outcome")}",
            )
        }
        if (rows.isEmpty()) return null
        val legend = colors.keys.filter { k -> condition.changes.any { key(it.change) == k } }
            .map { t("compare.chart.$it") to colors.getValue(it) }
        return Svg.changes("changes", t("compare.chart", Numbers.percentText(c.margin)), c.margin * 100, rows, legend)
    }

    private fun key(change: Change) = when (change) {
        Change.Regression -> "regression"
        Change.Worse -> "worse"
        Change.Improvement -> "improvement"
        Change.Equivalent -> "equivalent"
        is Change.Inconclusive -> "inconclusive"
    }
}
