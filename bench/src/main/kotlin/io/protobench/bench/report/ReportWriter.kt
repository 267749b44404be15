package io.protobench.bench.report

import io.protobench.bench.measure.RunRecord
import java.nio.file.Files
import java.nio.file.Path

/** Writes every rendering of a run beside its run.json. */
object ReportWriter {
    fun write(dir: Path, record: RunRecord): Path {
        Files.writeString(dir.resolve("cells.csv"), CsvReport.render(record))
        val report = dir.resolve("report.md")
        Files.writeString(report, MarkdownReport.render(record))
        return report
    }
}
