package io.protobench.bench.verdict

import kotlin.math.exp
import kotlin.math.ln

/**
 * A against B on one figure, fork by fork.
 *
 * Input: `a[i]` and `b[i]` are the values of the same figure measured for arms A and B
 * in fork `i` (a fork is a fresh pair of server JVMs in which every arm is measured once,
 * so the two values of a fork share that fork's JVM luck). Each usable fork gives one
 * log ratio `ln(a[i] / b[i])`; forks are the independent unit.
 *
 * - Estimate: [meanLog], the mean of the log ratios; [ratio] = exp(meanLog) is the
 *   geometric-mean ratio A/B; [percent] = (ratio − 1) · 100, so +10 means A's value is
 *   10% above B's, −10 means 10% below (whether that is good depends on the figure).
 * - Inference: Student's t over forks with df = n − 1 on the log scale, back-transformed
 *   with exp (so ratio intervals are asymmetric around the ratio, and percent bounds are
 *   (exp(bound) − 1) · 100).
 * - Dropped forks: a fork whose `a` or `b` is null, NaN, infinite or ≤ 0 has no log ratio;
 *   it is left out and counted in [dropped].
 * - With fewer than 2 usable forks there is an estimate (NaN with none) but no standard
 *   deviation, p-value or interval: such a comparison can never be decided.
 * - Rounding: a figure read in coarse units (CPU in /proc clock ticks) scatters by at least
 *   its rounding; [roundingSd] is that scatter of one fork's log ratio, and the inference
 *   uses it when the forks' own spread is smaller. Without it, two forks that happened to
 *   count the same number of ticks would make an interval of zero width.
 * - With zero spread (all log ratios equal) and no rounding given, the ratio is exact: the
 *   interval has zero width, [pValue] is 0 when the ratio ≠ 1 and 1 when it is exactly 1.
 */
class PairedRatio private constructor(
    /** The usable per-fork log ratios ln(a/b), in fork order. */
    val logRatios: List<Double>,
    /** Forks left out because a value was missing, non-finite or ≤ 0. */
    val dropped: Int,
    /** The standard deviation one fork's log ratio has from the figure's rounding alone (0: none known). */
    val roundingSd: Double = 0.0,
) {
    private val t: OneSampleT? = if (logRatios.size >= 2) OneSampleT(logRatios.toDoubleArray(), roundingSd) else null

    /** Number of usable forks (pairs). */
    val n: Int get() = logRatios.size

    /** True when there are at least 2 usable forks, i.e. a t interval and p-values exist. */
    val testable: Boolean get() = t != null

    /** Mean of the log ratios; NaN when no fork is usable. */
    val meanLog: Double = if (logRatios.isEmpty()) Double.NaN else logRatios.average()

    /** Standard deviation of the log ratios (divisor n − 1; at least [roundingSd]); null with fewer than 2 forks. */
    val sdLog: Double? get() = t?.sd

    /** Geometric-mean ratio A/B = exp(meanLog). */
    val ratio: Double get() = exp(meanLog)

    /** (ratio − 1) · 100: how many percent A's value is above (+) or below (−) B's. */
    val percent: Double get() = (ratio - 1) * 100

    /** Two-sided p-value of Student's t over forks for H0: ratio = 1 (mean log ratio = 0); null below 2 forks. */
    val pValue: Double? get() = t?.pValue(0.0)

    /**
     * Two-sided t interval at [confidence] for the ratio A/B: exp(meanLog ± t(1 − (1 − c)/2, n − 1) · sdLog/√n).
     * Null below 2 forks.
     */
    fun interval(confidence: Double = 0.95): RatioInterval? = t?.interval(confidence)?.let { (lo, hi) ->
        RatioInterval(confidence, exp(lo), exp(hi))
    }

    /**
     * TOST p-value for "A and B are equivalent within ±[margin]", null below 2 forks.
     *
     * The margin is symmetric on the log scale: the equivalence bounds are
     * meanLog ∈ (−ln(1 + margin), +ln(1 + margin)), i.e. the ratio A/B lies in
     * (1/(1 + margin), 1 + margin). For margin 0.05 that is (−4.76%, +5%) in [percent] terms,
     * and the same ±5% whichever arm is called A.
     * The p-value is below α exactly when the 1 − 2α interval lies inside those bounds.
     */
    fun tostPValue(margin: Double): Double? {
        require(margin > 0) { "margin must be positive, got $margin" }
        val bound = ln(1 + margin)
        return t?.tostPValue(-bound, bound)
    }

    override fun toString(): String {
        val ci = interval()
        val range = if (ci == null) "no interval" else "[${formatPercent(ci.lowPercent)}, ${formatPercent(ci.highPercent)}] 95%"
        return "${formatPercent(percent, signed = true)} $range, n=$n" + if (dropped > 0) ", dropped=$dropped" else ""
    }

    companion object {
        /**
         * Pairs `a[i]` with `b[i]` (index = fork). The lists must have the same length.
         * Forks with a missing, non-finite or non-positive value are dropped and counted.
         */
        fun of(a: List<Double?>, b: List<Double?>, roundingSd: Double = 0.0): PairedRatio {
            require(a.size == b.size) { "a and b must have one value per fork: ${a.size} vs ${b.size}" }
            val logs = ArrayList<Double>(a.size)
            var dropped = 0
            for (i in a.indices) {
                val x = a[i]
                val y = b[i]
                if (x == null || y == null || !x.isFinite() || !y.isFinite() || x <= 0 || y <= 0) {
                    dropped++
                } else {
                    logs += ln(x / y)
                }
            }
            return PairedRatio(logs, dropped, roundingSd)
        }

        /** From per-fork log ratios directly (all must be finite); nothing is dropped. */
        fun ofLogRatios(logRatios: List<Double>): PairedRatio {
            require(logRatios.all { it.isFinite() }) { "log ratios must be finite" }
            return PairedRatio(logRatios.toList(), 0)
        }
    }
}

/**
 * A two-sided interval for a ratio A/B at [confidence], [low] ≤ [high].
 * [lowPercent]/[highPercent] are (bound − 1) · 100, on the same scale as [PairedRatio.percent].
 */
data class RatioInterval(val confidence: Double, val low: Double, val high: Double) {
    val lowPercent: Double get() = (low - 1) * 100
    val highPercent: Double get() = (high - 1) * 100

    /** True when the whole interval is above 1 or below 1. */
    val excludesOne: Boolean get() = low > 1 || high < 1
}

/** One decimal, Unicode minus for negatives; a leading + for non-negatives when [signed]. */
internal fun formatPercent(value: Double, signed: Boolean = false): String {
    if (value.isNaN()) return "n/a"
    val rounded = String.format(java.util.Locale.ROOT, "%.1f", kotlin.math.abs(value))
    val negative = value < 0 && rounded.any { it in '1'..'9' }
    return when {
        negative -> "−$rounded%"
        signed -> "+$rounded%"
        else -> "$rounded%"
    }
}
