package io.protobench.bench.measure

import kotlin.math.roundToLong

/** The parts of a fork's wall time that the runner times on its own clock ([ForkTime]). */
enum class ForkPart {
    /** Starting the fork's load driver and servers until both servers answer. */
    START,

    /** The fork's soak: every endpoint in one mix until steady. */
    SOAK,

    /** Each arm's warm-up at its trial's load, the full collection before it included. */
    WARM_UPS,

    /** Capacity probes (closed model) in cost mode, where they only set the rates. */
    PROBES,

    /** The compared trials of the protocols and the null hop (capacity trials in capacity mode). */
    TRIALS,

    /** The trials of the A/A copy, the calibration check. */
    AA_TRIALS,

    /** Seed 003's own tools. */
    TOOLS,
}

/**
 * Where one server pair's fork spent its wall time, in seconds of the runner's clock. Each
 * part is the sum of the calls the runner timed; [runner] is what is left of the fork's wall
 * time: checking a variant's settings, saving the record after every trial, closing the
 * servers. Null in records from before it was kept.
 */
data class ForkTime(
    val start: Double = 0.0,
    val soak: Double = 0.0,
    val warmUps: Double = 0.0,
    val probes: Double = 0.0,
    val trials: Double = 0.0,
    val aaTrials: Double = 0.0,
    val tools: Double = 0.0,
    val runner: Double = 0.0,
) {
    fun plus(part: ForkPart, seconds: Double): ForkTime = when (part) {
        ForkPart.START -> copy(start = rounded(start + seconds))
        ForkPart.SOAK -> copy(soak = rounded(soak + seconds))
        ForkPart.WARM_UPS -> copy(warmUps = rounded(warmUps + seconds))
        ForkPart.PROBES -> copy(probes = rounded(probes + seconds))
        ForkPart.TRIALS -> copy(trials = rounded(trials + seconds))
        ForkPart.AA_TRIALS -> copy(aaTrials = rounded(aaTrials + seconds))
        ForkPart.TOOLS -> copy(tools = rounded(tools + seconds))
    }

    /** Seconds of [part]. */
    fun of(part: ForkPart): Double = when (part) {
        ForkPart.START -> start
        ForkPart.SOAK -> soak
        ForkPart.WARM_UPS -> warmUps
        ForkPart.PROBES -> probes
        ForkPart.TRIALS -> trials
        ForkPart.AA_TRIALS -> aaTrials
        ForkPart.TOOLS -> tools
    }

    /** The timed parts together. */
    fun timed(): Double = ForkPart.entries.sumOf(::of)

    /** The whole fork: the timed parts and the runner's share. */
    fun total(): Double = timed() + runner

    /** With the runner's share set from the fork's whole wall time of [wallSeconds]. */
    fun closed(wallSeconds: Double): ForkTime = copy(runner = rounded((wallSeconds - timed()).coerceAtLeast(0.0)))

    /** The sum of several forks' times, part by part. */
    operator fun plus(other: ForkTime): ForkTime =
        ForkPart.entries.fold(copy(runner = rounded(runner + other.runner))) { sum, part -> sum.plus(part, other.of(part)) }

    private companion object {
        /** Milliseconds are the clock's resolution in the record. */
        fun rounded(seconds: Double) = (seconds * 1000).roundToLong() / 1000.0
    }
}
