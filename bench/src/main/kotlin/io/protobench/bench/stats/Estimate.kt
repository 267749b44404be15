package io.protobench.bench.stats

import org.apache.commons.statistics.descriptive.Mean
import org.apache.commons.statistics.descriptive.Median
import org.apache.commons.statistics.descriptive.Variance
import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * One figure of one cell across its trials. [median] is the headline; [ciLow]..[ciHigh]
 * is the 95% confidence interval of the mean from Student's t distribution
 * (mean ± t(0.975, n-1) · s/√n). With one trial there is no interval. s is at least the
 * scatter the figure's rounding alone gives ([of]'s sdFloor).
 */
data class Estimate(
    val n: Int,
    val median: Double,
    val mean: Double,
    val standardDeviation: Double?,
    val ciLow: Double?,
    val ciHigh: Double?,
) {
    /** Half-width of the interval relative to the mean, e.g. 0.03 = ±3%. */
    val relativeHalfWidth: Double?
        get() = if (ciHigh != null && ciLow != null && mean != 0.0) (ciHigh - ciLow) / 2 / kotlin.math.abs(mean) else null

    companion object {
        const val CONFIDENCE = 0.95

        /** Null when there are no values. [sdFloor]: the least standard deviation the values can have (their rounding). */
        fun of(values: List<Double>, sdFloor: Double = 0.0): Estimate? {
            if (values.isEmpty()) return null
            val array = values.toDoubleArray()
            val mean = Mean.of(*array).getAsDouble()
            val median = Median.withDefaults().evaluate(array.copyOf())
            if (values.size < 2) return Estimate(1, median, mean, null, null, null)
            val sd = maxOf(sqrt(Variance.of(*array).getAsDouble()), sdFloor)
            val halfWidth = tQuantile(values.size - 1.0) * sd / sqrt(values.size.toDouble())
            return Estimate(values.size, median, mean, sd, mean - halfWidth, mean + halfWidth)
        }

        /**
         * For positive figures that vary by factors, such as one tool's requests per second
         * over runs of 20 ms to 1 s: the t interval is taken on the logarithms, so [mean] is
         * the geometric mean and the bounds stay positive, spread as ratios. [median] and
         * [standardDeviation] stay on the figure's own scale. Null when there are no values
         * or one is not positive.
         */
        fun ofRates(values: List<Double>): Estimate? {
            if (values.isEmpty() || values.any { it <= 0.0 }) return null
            val plain = of(values)!!
            val logs = of(values.map { ln(it) })!!
            return plain.copy(mean = exp(logs.mean), ciLow = logs.ciLow?.let(::exp), ciHigh = logs.ciHigh?.let(::exp))
        }

        /** Two-sided critical value of Student's t for [CONFIDENCE] at [degreesOfFreedom]. */
        fun tQuantile(degreesOfFreedom: Double): Double =
            TDistribution.of(degreesOfFreedom).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2)
    }
}
