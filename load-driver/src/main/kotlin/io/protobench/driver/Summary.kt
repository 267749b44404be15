package io.protobench.driver

import com.fasterxml.jackson.annotation.JsonIgnore
import com.fasterxml.jackson.annotation.JsonInclude
import org.HdrHistogram.Histogram

/**
 * What one run of a [Plan] did, for the runner to read as it is (no string paths). Build it
 * with named arguments: it has many fields of the same types, most with defaults. The
 * timed phase's [timed] counts, its [latency] measured from each arrival's intended start,
 * and the same split by the call's place among its connection's calls ([byPlace]: `new`
 * for a connection's first [Connections.COLD_CALLS] calls, `warm` after).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class Summary(
    val warmUp: Counts,
    val timed: Counts,
    /** The timed phase's length as scheduled (the throughput's denominator), ms. */
    val timedMs: Long,
    val latency: Latency?,
    val byPlace: Map<String, Latency>,
    /** Connections opened over the whole run (both phases). */
    val connectionsOpened: Long,
    /** Why calls failed, with how many (at most [MAX_REASONS] reasons kept). */
    val failures: Map<String, Long>,
    val histogramLog: String? = null,
    /** The latest an open-model arrival was sent after it was due, ms: the driver's own lag. */
    val maxLateMs: Double = 0.0,
    /** This driver process's CPU over the timed phase, ms (all its threads, from the JVM). */
    val cpuMs: Double? = null,
    /** Latency by the call's finer place on its connection ([Outcome.STEPS]), over both phases. */
    val bySteps: Map<String, Latency> = emptyMap(),
    /** Server streams of the timed phase: from the intended start to the first message. */
    val firstMessage: Latency? = null,
    /** Open model: arrivals (both phases) the driver sent more than [LATE_MS] after they were due. */
    val lateArrivals: Long = 0,
    /**
     * Open model: how late after its due time the driver sent each arrival of the timed phase.
     * Latency counts from the due time, so this part of each percentile is the driver's own.
     */
    val sendDelay: Latency? = null,
    /**
     * Context switches of this process's threads over the timed phase (voluntary and not), read
     * by the driver itself: its event loop lives for one run only, and a thread's counts leave
     * /proc when it ends, so a reading from outside would miss them. Null without /proc.
     */
    val contextSwitches: Long? = null,
    /** For each reason in [failures] that came with an answer, the start of the first such answer's body ([AnswerCheck.sample]). */
    val failureSamples: Map<String, String> = emptyMap(),
    /**
     * The voluntary part of [contextSwitches] (a thread slept: the event loop waiting for an
     * arrival or an answer). Last, with the next, so older summaries read and write as before.
     */
    val voluntaryContextSwitches: Long? = null,
    /** The rest of [contextSwitches]: the scheduler took a thread's core while it had work. */
    val nonvoluntaryContextSwitches: Long? = null,
) {
    /** This driver's CPU per answered call of the timed phase, µs. */
    @get:JsonIgnore
    val cpuUsPerCall: Double? get() = cpuMs?.takeIf { timed.answered > 0 }?.let { it * 1000 / timed.answered }

    /** Correct answers of the timed phase per second. */
    @get:JsonIgnore
    val throughput: Double get() = if (timedMs > 0) timed.correct * 1000.0 / timedMs else 0.0

    companion object {
        const val MAX_REASONS = 10

        /** How late after its due time an arrival may be sent before it counts in [lateArrivals], ms. */
        const val LATE_MS = 1L
    }
}

/**
 * Calls of one phase: [correct] and [wrong] answers (a wrong status or size, an error, or no
 * answer before the run ended), and [dropped] arrivals that could not be sent because every
 * connection was busy and the pool at its cap with its queue full.
 */
data class Counts(val correct: Long, val wrong: Long, val dropped: Long) {
    @get:JsonIgnore
    val answered get() = correct + wrong
}

/** Percentiles of a latency histogram, ms. */
data class Latency(
    val count: Long,
    val mean: Double,
    val p50: Double,
    val p90: Double,
    val p95: Double,
    val p99: Double,
    val p999: Double,
    val p9999: Double,
    val max: Double,
) {
    companion object {
        /** From a histogram of microseconds; null when it holds nothing. */
        fun of(micros: Histogram): Latency? {
            if (micros.totalCount == 0L) return null
            fun ms(percentile: Double) = micros.getValueAtPercentile(percentile) / 1000.0
            return Latency(
                micros.totalCount, micros.mean / 1000.0, ms(50.0), ms(90.0), ms(95.0),
                ms(99.0), ms(99.9), ms(99.99), micros.maxValue / 1000.0,
            )
        }
    }
}
