package io.protobench.bench.stats

import org.apache.commons.statistics.inference.DataDispersion
import org.apache.commons.statistics.inference.TTest
import kotlin.math.sqrt

/**
 * Protocol [a] against protocol [b] on one figure under one condition.
 * [differencePercent] = (mean a − mean b) / mean b × 100, with a 95% interval from
 * Welch's t (unequal variances; Welch–Satterthwaite degrees of freedom) scaled by
 * mean b. [significant] when the interval excludes 0 (equivalently Welch p < 0.05)
 * AND the difference is larger than the noise floor, when one is known.
 */
data class Comparison(
    val a: String,
    val b: String,
    val differencePercent: Double,
    val ciLowPercent: Double?,
    val ciHighPercent: Double?,
    val pValue: Double?,
    /** Smallest difference (percent) this setup can tell from noise; null when not measured. */
    val noiseFloorPercent: Double?,
    val significant: Boolean,
    /** Why there is no verdict (too few trials), when there is none. */
    val undecidedReason: String?,
) {
    companion object {
        fun of(a: String, aValues: List<Double>, b: String, bValues: List<Double>, noiseFloorPercent: Double? = null): Comparison? {
            if (aValues.isEmpty() || bValues.isEmpty()) return null
            val meanA = aValues.average()
            val meanB = bValues.average()
            if (meanB == 0.0) return null
            val difference = (meanA - meanB) / meanB * 100
            if (aValues.size < 2 || bValues.size < 2) {
                return Comparison(a, b, difference, null, null, null, noiseFloorPercent, false,
                    "fewer than 2 trials per protocol: no interval, no verdict")
            }
            val sampleVarA = aValues.sampleVariance()
            val sampleVarB = bValues.sampleVariance()
            val standardError = sqrt(sampleVarA / aValues.size + sampleVarB / bValues.size)
            if (standardError == 0.0) {
                // Identical trials on both sides: the difference is exact.
                return Comparison(a, b, difference, difference, difference, if (difference == 0.0) 1.0 else 0.0,
                    noiseFloorPercent, difference != 0.0 && aboveFloor(difference, noiseFloorPercent), null)
            }
            val test = TTest.withDefaults().with(DataDispersion.HETEROSCEDASTIC)
                .test(aValues.toDoubleArray(), bValues.toDoubleArray())
            val halfWidth = Estimate.tQuantile(test.degreesOfFreedom) * standardError / meanB * 100
            val low = difference - halfWidth
            val high = difference + halfWidth
            val excludesZero = low > 0 || high < 0
            return Comparison(a, b, difference, low, high, test.pValue, noiseFloorPercent,
                excludesZero && aboveFloor(difference, noiseFloorPercent), null)
        }

        private fun aboveFloor(difference: Double, floor: Double?) = floor == null || kotlin.math.abs(difference) > floor

        private fun List<Double>.sampleVariance(): Double {
            val mean = average()
            return sumOf { (it - mean) * (it - mean) } / (size - 1)
        }
    }
}
