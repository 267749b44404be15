package io.protobench.bench.report

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.report.html.ReportCharts
import io.protobench.bench.report.html.Svg
import io.protobench.bench.text.Texts
import java.nio.file.Path

/**
 * Writes every rendering of a run beside its run.json, each atomically (a reader never sees half a file):
 * cells.csv, report.md, report.html, and each decision map as a picture of its own (`decision-map-*.svg`).
 */
object ReportWriter {
    fun write(dir: Path, record: RunRecord, t: Texts = Texts.EN): Path {
        JsonFiles.writeAtomically(dir.resolve("cells.csv"), CsvReport.render(record).toByteArray())
        val analyses = Analysis.of(record)
        val report = dir.resolve("report.md")
        JsonFiles.writeAtomically(report, MarkdownReport.render(record, t, analyses).toByteArray())
        JsonFiles.writeAtomically(dir.resolve("report.html"), HtmlReport.render(record, t, analyses).toByteArray())
        val maps = DecisionMap.of(analyses, record)
        maps.zip(ReportCharts.decisionMaps(maps, t)).forEach { (map, chart) ->
            JsonFiles.writeAtomically(dir.resolve(map.pictureName), Svg.standalone(chart).toByteArray())
        }
        return report
    }
}
