package io.protobench.driver

import org.HdrHistogram.Histogram
import org.HdrHistogram.Recorder
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.LongAdder

/**
 * The outcomes of one phase: counts, failure reasons and latency in microseconds. The timed
 * phase ([timesLatency]) keeps it overall, by [Place] and, for server streams, to the first
 * message; both phases keep it by the call's finer place on its connection ([Outcome.step]),
 * since a warm-up is where connections make their first calls. Recorders let the log writer
 * take an interval's histogram while calls keep completing.
 */
class Tally(private val timesLatency: Boolean) {
    private val correct = AtomicLong()
    private val wrong = AtomicLong()
    private val dropped = AtomicLong()
    private val reasons = ConcurrentHashMap<String, LongAdder>()

    /** The first wrong answer's body (its start) for each reason that has one. */
    private val samples = ConcurrentHashMap<String, String>()
    val all = Recorder(SIGNIFICANT_DIGITS)
    private val byPlace = Place.entries.associateWith { Recorder(SIGNIFICANT_DIGITS) }
    private val byStep = Outcome.STEPS.associateWith { Recorder(SIGNIFICANT_DIGITS) }
    private val firstMessage = Recorder(SIGNIFICANT_DIGITS)

    /** [outcome] of a call due at [dueNs] and ended at [endNs] (System.nanoTime). */
    fun record(outcome: Outcome, dueNs: Long, endNs: Long) {
        when {
            outcome.dropped -> dropped.incrementAndGet()
            outcome.problem == null -> correct.incrementAndGet()
            else -> wrong.incrementAndGet()
        }
        outcome.problem?.let { reason(it, outcome.sample) }
        if (outcome.dropped) return
        val micros = micros(endNs - dueNs)
        byStep.getValue(outcome.step).recordValue(micros)
        if (!timesLatency) return
        all.recordValue(micros)
        byPlace.getValue(outcome.place).recordValue(micros)
        outcome.firstMessageNanos?.let { firstMessage.recordValue(micros(it - dueNs)) }
    }

    private fun micros(nanos: Long) = (nanos / 1000).coerceAtLeast(1)

    /** Calls that never answered before the run gave up on them. */
    fun unanswered(count: Long, reason: String) {
        if (count <= 0) return
        wrong.addAndGet(count)
        reasons.computeIfAbsent(reason) { LongAdder() }.add(count)
    }

    private fun reason(text: String, sample: String?) {
        val adder = reasons[text] ?: if (reasons.size < Summary.MAX_REASONS) reasons.computeIfAbsent(text) { LongAdder() } else return
        adder.increment()
        if (sample != null) samples.putIfAbsent(text, sample)
    }

    fun counts() = Counts(correct.get(), wrong.get(), dropped.get())

    fun reasons(): Map<String, Long> = reasons.mapValues { it.value.sum() }

    /** For each reason, the start of the first wrong answer's body that had one. */
    fun samples(): Map<String, String> = HashMap(samples)

    /** Latency by place, from what the recorders hold now (take it once, at the end). */
    fun latencyByPlace(): Map<String, Latency> = byPlace.mapNotNull { (place, recorder) ->
        Latency.of(recorder.intervalHistogram)?.let {
            place.label to
                it
        }
    }.toMap()

    /** Server streams' time to their first message (take it once, at the end); null when none. */
    fun firstMessage(): Latency? = Latency.of(firstMessage.intervalHistogram)

    /** Latency by [Outcome.step] over this tally and [other] together (take it once, at the end). */
    fun latencyBySteps(other: Tally): Map<String, Latency> = Outcome.STEPS.mapNotNull { step ->
        val both = byStep.getValue(step).intervalHistogram.also { it.add(other.byStep.getValue(step).intervalHistogram) }
        Latency.of(both)?.let { step to it }
    }.toMap()

    companion object {
        const val SIGNIFICANT_DIGITS = 3

        /** An empty histogram of the same precision, to add intervals into. */
        fun histogram() = Histogram(SIGNIFICANT_DIGITS)
    }
}
