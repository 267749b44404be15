package io.protobench.bench.verdict

import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.abs
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * A against B on one figure when the two samples are independent: the forks of two
 * different runs (nothing pairs fork 1 of one run with fork 1 of the other).
 *
 * Input: one value per fork of A and one per fork of B, of the same figure. Every usable
 * value is taken on the log scale, so the comparison is of geometric means.
 *
 * - Estimate: [meanLog] = mean(ln a) − mean(ln b); [ratio] = exp(meanLog) is the ratio of
 *   the geometric means A/B; [percent] = (ratio − 1) · 100, as in [PairedRatio].
 * - Inference: Welch's unequal-variance t on the logs. With sample variances s²ₐ, s²ᵦ:
 *   se = √(s²ₐ/nₐ + s²ᵦ/nᵦ) and the Welch–Satterthwaite degrees of freedom
 *   df = se⁴ / ((s²ₐ/nₐ)²/(nₐ − 1) + (s²ᵦ/nᵦ)²/(nᵦ − 1)), usually fractional;
 *   intervals are meanLog ± t(df) · se, back-transformed with exp.
 * - Dropped values: null, NaN, infinite or ≤ 0 (no logarithm) are left out and counted in
 *   [droppedA] and [droppedB].
 * - With fewer than 2 usable values on either side there is an estimate but no test.
 * - With zero spread on both sides the difference is exact: [pValue] is 0 when the ratio ≠ 1
 *   and 1 when it is exactly 1, the interval has zero width, and TOST is 0 strictly inside
 *   the bounds and 1 otherwise (as [OneSampleT] does for one sample).
 */
class WelchRatio private constructor(
    /** The usable ln(a) per fork, in fork order. */
    val logsA: List<Double>,
    /** The usable ln(b) per fork, in fork order. */
    val logsB: List<Double>,
    val droppedA: Int,
    val droppedB: Int,
) {
    val nA: Int get() = logsA.size
    val nB: Int get() = logsB.size

    /** True when both sides have at least 2 usable values: a test and an interval exist. */
    val testable: Boolean get() = nA >= 2 && nB >= 2

    /** mean(ln a) − mean(ln b); NaN when a side has no usable value. */
    val meanLog: Double = if (logsA.isEmpty() || logsB.isEmpty()) Double.NaN else logsA.average() - logsB.average()

    /** Sample variances of the logs (divisor n − 1); null below 2 values. */
    val varianceA: Double? = variance(logsA)
    val varianceB: Double? = variance(logsB)

    /** Standard error of [meanLog]; null when not [testable]. */
    val se: Double? = if (testable) sqrt(varianceA!! / nA + varianceB!! / nB) else null

    /** Welch–Satterthwaite degrees of freedom; null when not [testable] or when both sides have zero spread. */
    val df: Double? = if (se == null || se == 0.0) null else welchDf(varianceA!!, nA, varianceB!!, nB)

    private val t: TDistribution? = df?.let { TDistribution.of(it) }

    /** Ratio of the geometric means A/B. */
    val ratio: Double get() = exp(meanLog)

    /** (ratio − 1) · 100. */
    val percent: Double get() = (ratio - 1) * 100

    /** t statistic for H0: ratio = 1; null when not [testable] or exact (zero spread). */
    val statistic: Double? get() = if (t == null) null else meanLog / se!!

    /** Two-sided p-value of H0: ratio = 1; null when not [testable]. */
    val pValue: Double? get() = when {
        !testable -> null
        t == null -> if (meanLog == 0.0) 1.0 else 0.0
        else -> (2 * t.survivalProbability(abs(statistic!!))).coerceAtMost(1.0)
    }

    /** Two-sided interval at [confidence] for the ratio A/B: exp(meanLog ± t(1 − (1 − c)/2, df) · se). Null when not [testable]. */
    fun interval(confidence: Double = 0.95): RatioInterval? {
        require(confidence > 0 && confidence < 1) { "confidence must be in (0, 1), got $confidence" }
        if (!testable) return null
        val half = if (t == null) 0.0 else t.inverseSurvivalProbability((1 - confidence) / 2) * se!!
        return RatioInterval(confidence, exp(meanLog - half), exp(meanLog + half))
    }

    /**
     * TOST p-value for "A and B are equivalent within ±[margin]" with the log-symmetric bounds
     * ±ln(1 + margin) of [PairedRatio.tostPValue]; null when not [testable]. Below α exactly when
     * the 1 − 2α interval lies inside the bounds.
     */
    fun tostPValue(margin: Double): Double? {
        require(margin > 0) { "margin must be positive, got $margin" }
        if (!testable) return null
        val bound = ln(1 + margin)
        if (t == null) return if (abs(meanLog) < bound) 0.0 else 1.0
        val pLower = t.survivalProbability((meanLog + bound) / se!!)
        val pUpper = t.cumulativeProbability((meanLog - bound) / se)
        return maxOf(pLower, pUpper)
    }

    /**
     * Smallest number of forks per run n (each run with n, up to [maxForks]) at which, if the
     * observed mean and variances held, the difference test at [diffLevel] (two-sided) or TOST
     * at [eqLevel] with bounds ±ln(1 + [margin]) would succeed. Null when not [testable], when
     * the spread is zero (nothing more to learn) or when no n up to [maxForks] would do.
     */
    fun forksPerRunToDecide(diffLevel: Double, eqLevel: Double, margin: Double, maxForks: Int = Verdicts.MAX_FORKS): Int? {
        if (!testable || se == 0.0) return null
        val bound = ln(1 + margin)
        val va = varianceA!!
        val vb = varianceB!!
        for (n in (maxOf(nA, nB) + 1)..maxForks) {
            val seN = sqrt((va + vb) / n)
            val dist = TDistribution.of(welchDf(va, n, vb, n))
            val difference = abs(meanLog) / seN > dist.inverseSurvivalProbability(diffLevel / 2)
            val equivalence = (bound - abs(meanLog)) / seN > dist.inverseSurvivalProbability(eqLevel)
            if (difference || equivalence) return n
        }
        return null
    }

    override fun toString(): String {
        val ci = interval()
        val range = if (ci == null) "no interval" else "[${formatPercent(ci.lowPercent)}, ${formatPercent(ci.highPercent)}] 95%"
        return "${formatPercent(percent, signed = true)} $range, n=$nA+$nB"
    }

    companion object {
        /** Forks of A ([a]) against forks of B ([b]); the lists need not have the same length. */
        fun of(a: List<Double?>, b: List<Double?>): WelchRatio {
            val (logsA, droppedA) = logs(a)
            val (logsB, droppedB) = logs(b)
            return WelchRatio(logsA, logsB, droppedA, droppedB)
        }

        private fun logs(values: List<Double?>): Pair<List<Double>, Int> {
            val usable = values.filter { it != null && it.isFinite() && it > 0 }.map { ln(it!!) }
            return usable to values.size - usable.size
        }

        private fun variance(logs: List<Double>): Double? {
            if (logs.size < 2) return null
            val mean = logs.average()
            return logs.sumOf { (it - mean) * (it - mean) } / (logs.size - 1)
        }

        /** Welch–Satterthwaite df for sample variances [va], [vb] of [na], [nb] values; not both variances zero. */
        private fun welchDf(va: Double, na: Int, vb: Double, nb: Int): Double {
            val qa = va / na
            val qb = vb / nb
            return (qa + qb) * (qa + qb) / (qa * qa / (na - 1) + qb * qb / (nb - 1))
        }
    }
}
