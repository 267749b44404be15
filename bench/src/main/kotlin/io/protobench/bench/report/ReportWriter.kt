package io.protobench.bench.report

import io.protobench.bench.measure.RunRecord
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.runner.RunStore
import java.nio.file.Path

/** Writes every rendering of a run beside its run.json, each atomically (a reader never sees half a file). */
object ReportWriter {
    fun write(dir: Path, record: RunRecord): Path {
        RunStore.writeAtomically(dir.resolve("cells.csv"), CsvReport.render(record).toByteArray())
        val report = dir.resolve("report.md")
        RunStore.writeAtomically(report, MarkdownReport.render(record).toByteArray())
        RunStore.writeAtomically(dir.resolve("report.html"), HtmlReport.render(record).toByteArray())
        return report
    }
}
