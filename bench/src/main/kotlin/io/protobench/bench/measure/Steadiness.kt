package io.protobench.bench.measure

import io.protobench.contract.window.WindowReport
import kotlin.math.abs
import kotlin.math.sqrt

/**
 * Whether throughput held steady over a window, judged from the gateway's
 * completions per second. The first and last second are dropped (the load driver's run
 * starting and stopping); the rest must vary little (coefficient of variation at most [MAX_COV])
 * and not drift (the last third's mean within [MAX_DRIFT] of the first third's).
 * Fewer than [MIN_SECONDS] usable seconds: no verdict.
 */
data class Steadiness(
    val seconds: Int,
    val coefficientOfVariation: Double?,
    /** (mean of last third / mean of first third − 1), e.g. 0.12 = still climbing by 12%. */
    val drift: Double?,
    /** null when there were too few seconds to judge. */
    val steady: Boolean?,
) {
    /** The flag for an unsteady window, or null when steady or not judged. */
    fun flag(): Flag? = if (steady == false) Flag.Unsteady(coefficientOfVariation ?: 0.0, drift ?: 0.0, seconds) else null

    fun describe(): String = String.format(
        java.util.Locale.ROOT,
        "throughput varied %.0f%% (CoV) and drifted %+.0f%% over %d s",
        (coefficientOfVariation ?: 0.0) * 100,
        (drift ?: 0.0) * 100,
        seconds,
    )

    companion object {
        const val MAX_COV = 0.15
        const val MAX_DRIFT = 0.10
        const val MIN_SECONDS = 4

        fun of(perSecond: List<Long>): Steadiness {
            val usable = perSecond.drop(1).dropLast(1).map { it.toDouble() }
            if (usable.size < MIN_SECONDS) return Steadiness(usable.size, null, null, null)
            val mean = usable.average()
            if (mean == 0.0) return Steadiness(usable.size, null, null, false)
            val cov = sqrt(usable.sumOf { (it - mean) * (it - mean) } / (usable.size - 1)) / mean
            val third = usable.size / 3
            val first = usable.take(maxOf(1, third)).average()
            val last = usable.takeLast(maxOf(1, third)).average()
            val drift = if (first > 0) last / first - 1 else 0.0
            return Steadiness(usable.size, cov, drift, cov <= MAX_COV && abs(drift) <= MAX_DRIFT)
        }

        /** From a gateway `/benchmark/end` answer. */
        fun ofGateway(end: WindowReport): Steadiness = of(end.timeline.completed)
    }
}
