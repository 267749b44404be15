package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialRecord
import kotlin.math.sqrt

/**
 * How coarse the servers' CPU per request is. /proc (and the JVM's process CPU time on
 * Linux) counts in clock ticks of 10 ms, user and system time each rounded down, so a
 * process's CPU over a trial is off by up to two ticks either way: a variance of 1/3
 * tick² (four roundings, 1/12 each). Spread over the trial's requests that is nothing at
 * 1 KB and 1,500 requests a second (2 µs against a hop of about 350), but across a slow
 * link a trial has a few hundred requests and the tick is 30 µs of 800: two forks can
 * count the same ticks, and their paired interval then has zero width
 * (docs/journal/2026-11-26-cpu-clock-ticks.md). The rounding's scatter is the least a
 * fork's log ratio can scatter ([io.protobench.bench.verdict.PairedRatio.roundingSd]).
 *
 * The variances ride in the per-fork values ([ForkValue.rounding]); a fork's median of rounds
 * takes the median of theirs, which does not understate one round's.
 */
object Rounding {
    /** One clock tick (USER_HZ 100, Linux's) in µs. */
    const val TICK_US = 10_000.0

    /** Variance of one process's CPU over a trial, in ticks²: user and system time, each rounded at both ends. */
    const val TICKS_SQUARED_PER_PROCESS = 4.0 / 12

    /**
     * The rounding variance (µs²) of a trial's [Figure.TOTAL_CPU_US]: one process read for the
     * data-server, one more for the gateway unless [direct], one for a database server
     * when its CPU is counted; spread over the trial's answers. Null without that figure or answers.
     */
    fun ofTrial(trial: TrialRecord, direct: Boolean): Double? {
        val requests = trial.correctAnswers + trial.wrongAnswers
        if (trial.figures[Figure.TOTAL_CPU_US] == null || requests <= 0) return null
        val processes = (if (direct) 1 else 2) + (if (trial.figures[Figure.DB_CPU_US] != null) 1 else 0)
        val perRequest = TICK_US / requests
        return processes * TICKS_SQUARED_PER_PROCESS * perRequest * perRequest
    }

    /**
     * The standard deviation one fork's ln(a/b) has from rounding alone, given per fork the
     * values [a], [b] and their rounding variances: the root of the mean over forks with
     * all four of varA/a² + varB/b². 0 when no fork has them (figures not read in ticks).
     */
    fun logRatioSd(a: List<Double?>, b: List<Double?>, varianceA: List<Double?>, varianceB: List<Double?>): Double {
        val perFork = a.indices.mapNotNull { i ->
            val x = a[i]?.takeIf { it > 0 } ?: return@mapNotNull null
            val y = b[i]?.takeIf { it > 0 } ?: return@mapNotNull null
            val vx = varianceA[i] ?: return@mapNotNull null
            val vy = varianceB[i] ?: return@mapNotNull null
            vx / (x * x) + vy / (y * y)
        }
        return sd(perFork)
    }

    /** The root of the mean of [variances]: one fork's standard deviation from rounding; 0 without any. */
    fun sd(variances: List<Double>): Double = if (variances.isEmpty()) 0.0 else sqrt(variances.average())
}
