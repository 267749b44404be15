package io.protobench.bench.verdict

import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.abs
import kotlin.math.sqrt

/**
 * Student's one-sample t machinery on [values] (here: one value per fork), with
 * df = n − 1. Used by [PairedRatio] on log ratios; a paired t-test is exactly this
 * applied to the per-block differences.
 *
 * Needs at least 2 values. [sdFloor] is the least standard deviation the values can
 * have, when their measurement is known to be that coarse: the sample's own is used only
 * when it is larger. A sample with zero standard deviation (and no floor) is handled
 * without dividing by zero: the mean is then exact (its interval has zero width),
 * the two-sided p-value is 0 when the mean differs from the hypothesised value and
 * 1 when it equals it, and a TOST p-value is 0 strictly inside the bounds, 1 otherwise.
 */
internal class OneSampleT(values: DoubleArray, sdFloor: Double = 0.0) {
    init {
        require(values.size >= 2) { "need at least 2 values, got ${values.size}" }
        require(values.all { it.isFinite() }) { "values must be finite" }
        require(sdFloor >= 0 && sdFloor.isFinite()) { "the sd floor must be finite and not negative, got $sdFloor" }
    }

    val n: Int = values.size
    val mean: Double = values.average()

    /** Sample standard deviation (divisor n − 1). */
    val sampleSd: Double = sqrt(values.sumOf { (it - mean) * (it - mean) } / (n - 1))

    /** The standard deviation the inference uses: the sample's, or the floor when that is larger. */
    val sd: Double = maxOf(sampleSd, sdFloor)

    /** Standard error of the mean, sd / √n. */
    val se: Double = sd / sqrt(n.toDouble())

    val df: Int = n - 1

    private val t: TDistribution = TDistribution.of(df.toDouble())

    /** t statistic for H0: mean = [mu]; infinite (signed) or NaN (0/0) when sd = 0. */
    fun statistic(mu: Double = 0.0): Double = (mean - mu) / se

    /** Two-sided p-value for H0: mean = [mu]. */
    fun pValue(mu: Double = 0.0): Double {
        if (se == 0.0) return if (mean == mu) 1.0 else 0.0
        return (2 * t.survivalProbability(abs(statistic(mu)))).coerceAtMost(1.0)
    }

    /** Two-sided critical value t(1 − (1 − confidence)/2, df). */
    fun quantile(confidence: Double): Double {
        require(confidence > 0 && confidence < 1) { "confidence must be in (0, 1), got $confidence" }
        return t.inverseSurvivalProbability((1 - confidence) / 2)
    }

    /** Two-sided interval of the mean: mean ± t(1 − (1 − confidence)/2, df) · se. */
    fun interval(confidence: Double): Pair<Double, Double> {
        val half = if (se == 0.0) 0.0 else quantile(confidence) * se
        return (mean - half) to (mean + half)
    }

    /**
     * TOST (two one-sided tests) p-value for equivalence, H0: mean ≤ [lower] or mean ≥ [upper]:
     * the larger of p(mean > lower) = P(T ≥ (mean − lower)/se) and p(mean < upper) = P(T ≤ (mean − upper)/se).
     * Rejecting at level α is the same as the 1 − 2α two-sided interval lying inside (lower, upper).
     */
    fun tostPValue(lower: Double, upper: Double): Double {
        require(lower < upper) { "lower bound must be below the upper bound" }
        if (se == 0.0) return if (mean > lower && mean < upper) 0.0 else 1.0
        val pLower = t.survivalProbability((mean - lower) / se)
        val pUpper = t.cumulativeProbability((mean - upper) / se)
        return maxOf(pLower, pUpper)
    }
}
