package io.protobench.bench.report

import io.protobench.bench.stats.Comparison
import io.protobench.bench.measure.Figure
import java.util.Locale

/** Words and numbers as the report prints them. */
object Verdicts {
    /** One comparison in words; [figure] decides how a significant difference is said. */
    fun sentence(c: Comparison, figure: Figure = Figure.THROUGHPUT): String {
        val interval = interval(c)
        val floor = c.noiseFloorPercent?.let { "; noise floor ±${pct(it)}" } ?: ""
        val withinFloor = c.noiseFloorPercent != null && kotlin.math.abs(c.differencePercent) <= c.noiseFloorPercent
        val what = phrase(figure)
        return when {
            c.undecidedReason != null -> "${c.a} vs ${c.b}: ${signed(c.differencePercent)} $what (${c.undecidedReason}$floor)"
            c.significant -> "${better(c, figure)}${magnitudeInterval(c)}$floor"
            withinFloor -> "${c.a} vs ${c.b}: $what within the noise floor, no difference claimed (${signed(c.differencePercent)}$interval$floor)"
            else -> "${c.a} vs ${c.b}: no significant difference in $what (${signed(c.differencePercent)}$interval$floor)"
        }
    }

    private fun phrase(figure: Figure) = when (figure) {
        Figure.THROUGHPUT -> "throughput"
        Figure.TOTAL_CPU_US -> "CPU per request (both servers)"
        Figure.HOP_P50 -> "hop latency (p50)"
        else -> figure.title
    }

    private fun better(c: Comparison, figure: Figure): String {
        val size = pct(kotlin.math.abs(c.differencePercent))
        return when (figure) {
            Figure.THROUGHPUT -> "${c.a} faster than ${c.b} by $size"
            Figure.TOTAL_CPU_US -> "${c.a} uses $size less CPU per request (both servers) than ${c.b}"
            Figure.HOP_P50 -> "${c.a} has a $size lower hop latency (p50) than ${c.b}"
            else -> "${c.a} better than ${c.b} in ${figure.title.lowercase()} by $size"
        }
    }

    /** The interval of a significant difference as sizes of the advantage: "95% CI 9.5% to 19.6%". */
    private fun magnitudeInterval(c: Comparison): String {
        val low = c.ciLowPercent ?: return ""
        val high = c.ciHighPercent ?: return ""
        val (from, to) = if (c.differencePercent < 0) -high to -low else low to high
        return ", 95% CI ${pct(from)} to ${pct(to)}"
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
