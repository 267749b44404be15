package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import java.util.Locale

/** cells.csv: one row per arm, condition and kind of trial; mean over forks and 95% interval of every figure. */
object CsvReport {
    fun render(record: RunRecord): String = buildString {
        val columns = Figure.entries.flatMap { listOf("${it.key}_mean", "${it.key}_ci_low", "${it.key}_ci_high") }
        appendLine((listOf("condition", "kind", "arm", "forks") + columns).joinToString(","))
        for (analysis in Analysis.of(record)) {
            for ((kind, arms) in listOf("cost" to analysis.cost, "capacity" to analysis.capacity)) for (arm in arms) {
                val values = Figure.entries.flatMap { f ->
                    val e = arm.estimates[f]
                    listOf(e?.mean, e?.ciLow, e?.ciHigh).map { it?.let { v -> String.format(Locale.ROOT, "%.6g", v) } ?: "" }
                }
                appendLine((listOf("\"${analysis.condition}\"", kind, arm.arm, arm.forks.toString()) + values).joinToString(","))
            }
        }
    }
}
