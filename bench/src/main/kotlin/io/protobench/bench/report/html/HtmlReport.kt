package io.protobench.bench.report.html

import io.protobench.bench.measure.RunRecord
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ConditionAnalysis
import io.protobench.bench.report.DecisionMap
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.MarkdownReport.Part
import io.protobench.bench.text.Texts

/**
 * report.html: the words of report.md with charts beside them, in one self-contained file
 * (see [Html]). The guide comes first, with the charts along each varied axis; then every
 * condition with its charts before its tables and verdicts; then seeds, forks and problems.
 */
object HtmlReport {
    fun render(record: RunRecord, t: Texts = Texts.EN, analyses: List<ConditionAnalysis> = Analysis.of(record)): String {
        val sections = MarkdownReport.sections(record, analyses, t)
        fun of(part: Part) = sections.filter { it.part == part }
        val conditions = analyses.associateBy { it.condition }
        val body = buildString {
            of(Part.HEADER).forEach { append(MarkdownHtml.toHtml(it.markdown)) }
            append(navigation(sections, t))
            of(Part.GUIDE).forEach { guide ->
                append("""<section class="glance" id="guide">""")
                append(MarkdownHtml.toHtml(guide.markdown))
                // The decision maps are drawn here in place of their Markdown tables.
                val axes = ReportCharts.decisionMaps(DecisionMap.of(analyses, record), t) + ReportCharts.axes(analyses, record, t)
                if (axes.isNotEmpty()) append("""<div class="charts">""").append(axes.joinToString("")).append("</div>")
                of(Part.FLIPS).forEach { append(MarkdownHtml.toHtml(it.markdown)) }
                append("</section>\n")
            }
            of(Part.VARIANTS).forEach { append(MarkdownHtml.toHtml(it.markdown)) }
            for (section in of(Part.CONDITION)) {
                val (heading, rest) = section.markdown.split("\n", limit = 2).let { it[0] to it.getOrElse(1) { "" } }
                append("""<section class="condition">""")
                append(MarkdownHtml.toHtml(heading))
                val charts = conditions[section.condition]?.let { ReportCharts.condition(it, record, t) }.orEmpty()
                if (charts.isNotEmpty()) append("""<div class="charts">""").append(charts.joinToString("")).append("</div>")
                append(MarkdownHtml.toHtml(rest))
                append("</section>\n")
            }
            listOf(Part.SEED_GUIDE, Part.SEEDS, Part.FORKS, Part.PLANNING, Part.PROBLEMS).flatMap(::of)
                .forEach { append(MarkdownHtml.toHtml(it.markdown)) }
        }
        return Html.page(t("header.title", record.scenario.name).removePrefix("# "), t.lang.id, body)
    }

    /** Links to the guide and to each condition. */
    private fun navigation(sections: List<MarkdownReport.Section>, t: Texts): String {
        val links = listOf(
            """<a href="#guide">${Html.escape(t("html.guide"))}</a>""",
        ) + sections.filter { it.part == Part.CONDITION }.map { s ->
            val heading = s.markdown.lineSequence().first().trimStart('#').trim()
            """<a href="#${MarkdownHtml.anchor(heading)}">${Html.escape(s.condition ?: heading)}</a>"""
        }
        return "<nav>${links.joinToString(" ")}</nav>\n"
    }
}
