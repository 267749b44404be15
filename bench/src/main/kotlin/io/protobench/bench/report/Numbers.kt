package io.protobench.bench.report

import java.util.Locale

/** Numbers as the report prints them. */
object Numbers {
    const val MAX_FORKS = io.protobench.bench.verdict.Verdicts.MAX_FORKS

    fun pct(value: Double) = String.format(Locale.ROOT, "%.1f%%", value)
    fun signed(value: Double) = String.format(Locale.ROOT, "%+.1f%%", value)

    /** A share as a percentage: 0.05 → "5%", 0.125 → "12.5%". */
    fun percentText(share: Double?): String {
        if (share == null) return "–"
        val p = share * 100
        return if (kotlin.math.abs(p - Math.rint(p)) < 1e-9) "${Math.rint(p).toLong()}%" else String.format(Locale.ROOT, "%.1f%%", p)
    }

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
