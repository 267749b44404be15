package io.protobench.bench.report

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.text.Texts
import java.nio.file.Path

/** Writes every rendering of a run beside its run.json, each atomically (a reader never sees half a file). */
object ReportWriter {
    fun write(dir: Path, record: RunRecord, t: Texts = Texts.EN): Path {
        JsonFiles.writeAtomically(dir.resolve("cells.csv"), CsvReport.render(record).toByteArray())
        val report = dir.resolve("report.md")
        JsonFiles.writeAtomically(report, MarkdownReport.render(record, t).toByteArray())
        JsonFiles.writeAtomically(dir.resolve("report.html"), HtmlReport.render(record, t).toByteArray())
        return report
    }
}
