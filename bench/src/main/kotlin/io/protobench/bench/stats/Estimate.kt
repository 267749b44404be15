package io.protobench.bench.stats

import org.apache.commons.statistics.descriptive.Mean
import org.apache.commons.statistics.descriptive.Median
import org.apache.commons.statistics.descriptive.Variance
import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.sqrt

/**
 * One figure of one cell across its trials. [median] is the headline; [ciLow]..[ciHigh]
 * is the 95% confidence interval of the mean from Student's t distribution
 * (mean ± t(0.975, n-1) · s/√n). With one trial there is no interval.
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

        /** Null when there are no values. */
        fun of(values: List<Double>): Estimate? {
            if (values.isEmpty()) return null
            val array = values.toDoubleArray()
            val mean = Mean.of(*array).getAsDouble()
            val median = Median.withDefaults().evaluate(array.copyOf())
            if (values.size < 2) return Estimate(1, median, mean, null, null, null)
            val sd = sqrt(Variance.of(*array).getAsDouble())
            val halfWidth = tQuantile(values.size - 1.0) * sd / sqrt(values.size.toDouble())
            return Estimate(values.size, median, mean, sd, mean - halfWidth, mean + halfWidth)
        }

        /** Two-sided critical value of Student's t for [CONFIDENCE] at [degreesOfFreedom]. */
        fun tQuantile(degreesOfFreedom: Double): Double =
            TDistribution.of(degreesOfFreedom).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2)
    }
}
