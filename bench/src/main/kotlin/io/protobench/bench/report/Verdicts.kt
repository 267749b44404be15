package io.protobench.bench.report

import io.protobench.bench.stats.Comparison
import java.util.Locale

/** Words and numbers as the report prints them. */
object Verdicts {
    fun sentence(c: Comparison): String {
        val interval = interval(c)
        val floor = c.noiseFloorPercent?.let { "; noise floor ±${pct(it)}" } ?: ""
        val withinFloor = c.noiseFloorPercent != null && kotlin.math.abs(c.differencePercent) <= c.noiseFloorPercent
        return when {
            c.undecidedReason != null -> "${c.a} vs ${c.b}: ${signed(c.differencePercent)} throughput (${c.undecidedReason}$floor)"
            c.significant -> "${c.a} faster than ${c.b} by ${pct(c.differencePercent)}$interval$floor"
            withinFloor -> "${c.a} vs ${c.b}: within the noise floor, no difference claimed (${signed(c.differencePercent)}$interval$floor)"
            else -> "${c.a} vs ${c.b}: no significant difference (${signed(c.differencePercent)}$interval$floor)"
        }
    }

    private fun interval(c: Comparison) =
        if (c.ciLowPercent != null && c.ciHighPercent != null) ", 95% CI ${pct(c.ciLowPercent)} to ${pct(c.ciHighPercent)}" else ""

    fun pct(value: Double) = String.format(Locale.ROOT, "%.1f%%", value)
    fun signed(value: Double) = String.format(Locale.ROOT, "%+.1f%%", value)

    /** A number with a precision that suits its size: 12345, 123.4, 1.23, 0.123. */
    fun number(value: Double?): String = when {
        value == null || value.isNaN() -> "–"
        value == Math.rint(value) && kotlin.math.abs(value) < 1e15 -> String.format(Locale.ROOT, "%,.0f", value)
        kotlin.math.abs(value) >= 1000 -> String.format(Locale.ROOT, "%,.0f", value)
        kotlin.math.abs(value) >= 100 -> String.format(Locale.ROOT, "%.1f", value)
        kotlin.math.abs(value) >= 1 -> String.format(Locale.ROOT, "%.2f", value)
        else -> String.format(Locale.ROOT, "%.3f", value)
    }
}
