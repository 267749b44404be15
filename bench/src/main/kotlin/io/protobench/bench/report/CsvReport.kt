package io.protobench.bench.report

import com.fasterxml.jackson.dataformat.csv.CsvMapper
import com.fasterxml.jackson.dataformat.csv.CsvSchema
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import java.util.Locale

/**
 * cells.csv: one row per arm, condition and kind of trial; mean over forks and 95% interval
 * of every figure. Written by Jackson's CSV module, so a label with a comma or a quote
 * (a condition, a variant's name) stays one quoted field.
 */
object CsvReport {
    private val columns = listOf("condition", "kind", "arm", "forks") +
        Figure.entries.flatMap { listOf("${it.key}_mean", "${it.key}_ci_low", "${it.key}_ci_high") }

    private val writer = CsvMapper().writer(CsvSchema.builder().addColumns(columns, CsvSchema.ColumnType.STRING).build().withHeader())

    fun render(record: RunRecord): String = writer.writeValueAsString(rows(record))

    private fun rows(record: RunRecord): List<List<String>> = Analysis.of(record).flatMap { analysis ->
        listOf("cost" to analysis.cost, "capacity" to analysis.capacity).flatMap { (kind, arms) ->
            arms.map { arm ->
                val values = Figure.entries.flatMap { f ->
                    val e = arm.estimates[f]
                    listOf(e?.mean, e?.ciLow, e?.ciHigh).map { it?.let { v -> String.format(Locale.ROOT, "%.6g", v) } ?: "" }
                }
                listOf(analysis.condition, kind, arm.arm, arm.forks.toString()) + values
            }
        }
    }
}
