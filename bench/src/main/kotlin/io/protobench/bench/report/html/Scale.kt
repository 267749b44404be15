package io.protobench.bench.report.html

import kotlin.math.abs
import kotlin.math.ceil
import kotlin.math.floor
import kotlin.math.ln
import kotlin.math.log10
import kotlin.math.pow

/**
 * Maps data values in [[low], [high]] to pixels in [[from], [to]], linearly or on a log
 * scale, and picks tick values a reader can name (1, 2, 5 × 10ⁿ).
 */
class Scale private constructor(val low: Double, val high: Double, private val from: Double, private val to: Double, val log: Boolean) {

    fun at(value: Double): Double {
        val share = if (log) (ln(value) - ln(low)) / (ln(high) - ln(low)) else (value - low) / (high - low)
        return from + share.coerceIn(-0.05, 1.05) * (to - from)
    }

    /** About [wanted] ticks inside the domain. */
    fun ticks(wanted: Int = 5): List<Double> = if (log) logTicks() else linearTicks(wanted)

    private fun linearTicks(wanted: Int): List<Double> {
        val step = niceStep((high - low) / wanted)
        val first = ceil(low / step) * step
        return generateSequence(first) { it + step }.takeWhile { it <= high + step * 1e-9 }.map { clean(it) }.toList()
    }

    /** Powers of ten, with 2 and 5 between them when the domain spans under two decades. */
    private fun logTicks(): List<Double> {
        val decades = floor(log10(low)).toInt()..ceil(log10(high)).toInt()
        val steps = if (log10(high / low) < 2) listOf(1.0, 2.0, 5.0) else listOf(1.0)
        return decades.flatMap { d -> steps.map { it * 10.0.pow(d) } }.filter { it >= low * 0.999 && it <= high * 1.001 }
    }

    companion object {
        /** A linear scale from zero (or the smallest value, when negative) to a little above the largest. */
        fun linear(values: List<Double>, from: Double, to: Double): Scale {
            val finite = values.filter { it.isFinite() }
            val low = minOf(0.0, finite.minOrNull() ?: 0.0)
            val high = (finite.maxOrNull() ?: 1.0).let { if (it <= low) low + 1 else it }
            val step = niceStep((high - low) / 5)
            return Scale(low, ceil(high / step) * step, from, to, log = false)
        }

        /** A log scale that holds every positive value, widened to whole 1-2-5 steps. */
        fun log(values: List<Double>, from: Double, to: Double): Scale {
            val positive = values.filter { it.isFinite() && it > 0 }
            val low = positive.minOrNull() ?: 1.0
            val high = (positive.maxOrNull() ?: 10.0).let { if (it <= low) low * 10 else it }
            return Scale(roundDown(low), roundUp(high), from, to, log = true)
        }

        /** Positions for named categories, evenly spaced with half a step of margin at each end. */
        fun categories(count: Int, from: Double, to: Double): Scale = Scale(-0.5, count - 0.5, from, to, log = false)

        private fun niceStep(raw: Double): Double {
            if (raw <= 0 || !raw.isFinite()) return 1.0
            val magnitude = 10.0.pow(floor(log10(raw)))
            val fraction = raw / magnitude
            return magnitude * listOf(1.0, 2.0, 5.0, 10.0).first { it >= fraction - 1e-9 }
        }

        private fun roundDown(v: Double): Double {
            val m = 10.0.pow(floor(log10(v)))
            return listOf(5.0, 2.0, 1.0).map { it * m }.first { it <= v * 1.0000001 }
        }

        private fun roundUp(v: Double): Double {
            val m = 10.0.pow(floor(log10(v)))
            return listOf(1.0, 2.0, 5.0, 10.0).map { it * m }.first { it >= v * 0.9999999 }
        }

        /** Removes floating-point dust from a tick (0.30000000000000004 → 0.3). */
        private fun clean(v: Double): Double = if (abs(v) < 1e-12) 0.0 else "%.10g".format(java.util.Locale.ROOT, v).toDouble()
    }
}
