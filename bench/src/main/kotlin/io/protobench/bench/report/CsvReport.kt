package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import java.util.Locale

/** cells.csv: one row per cell, median and interval of every figure. */
object CsvReport {
    fun render(record: RunRecord): String = buildString {
        val columns = Figure.entries.flatMap { listOf("${it.key}_median", "${it.key}_ci_low", "${it.key}_ci_high") }
        appendLine((listOf("condition", "protocol", "trials", "failed_trials") + columns).joinToString(","))
        for (analysis in Analysis.of(record)) for (cell in analysis.cells) {
            val values = Figure.entries.flatMap { f ->
                val e = cell.estimates[f]
                listOf(e?.median, e?.ciLow, e?.ciHigh).map { it?.let { v -> String.format(Locale.ROOT, "%.6g", v) } ?: "" }
            }
            appendLine((listOf("\"${cell.condition}\"", cell.protocol, cell.trials.toString(), cell.failedTrials.toString()) + values).joinToString(","))
        }
    }
}
