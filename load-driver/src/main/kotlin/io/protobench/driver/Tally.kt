package io.protobench.driver

import org.HdrHistogram.Histogram
import org.HdrHistogram.Recorder
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.atomic.LongAdder

/**
 * The outcomes of one phase: counts, failure reasons and (for the timed phase) latency in
 * microseconds, overall and by [Place]. Recorders let the log writer take an interval's
 * histogram while calls keep completing.
 */
class Tally(private val timesLatency: Boolean) {
    private val correct = AtomicLong()
    private val wrong = AtomicLong()
    private val dropped = AtomicLong()
    private val reasons = ConcurrentHashMap<String, LongAdder>()
    val all = Recorder(SIGNIFICANT_DIGITS)
    private val byPlace = Place.entries.associateWith { Recorder(SIGNIFICANT_DIGITS) }

    fun record(outcome: Outcome, latencyNanos: Long) {
        when {
            outcome.dropped -> dropped.incrementAndGet()
            outcome.problem == null -> correct.incrementAndGet()
            else -> wrong.incrementAndGet()
        }
        outcome.problem?.let(::reason)
        if (timesLatency && !outcome.dropped) {
            val micros = (latencyNanos / 1000).coerceAtLeast(1)
            all.recordValue(micros)
            byPlace.getValue(outcome.place).recordValue(micros)
        }
    }

    /** Calls that never answered before the run gave up on them. */
    fun unanswered(count: Long, reason: String) {
        if (count <= 0) return
        wrong.addAndGet(count)
        reasons.computeIfAbsent(reason) { LongAdder() }.add(count)
    }

    private fun reason(text: String) {
        val adder = reasons[text] ?: if (reasons.size < Summary.MAX_REASONS) reasons.computeIfAbsent(text) { LongAdder() } else return
        adder.increment()
    }

    fun counts() = Counts(correct.get(), wrong.get(), dropped.get())

    fun reasons(): Map<String, Long> = reasons.mapValues { it.value.sum() }

    /** Latency by place, from what the recorders hold now (take it once, at the end). */
    fun latencyByPlace(): Map<String, Latency> =
        byPlace.mapNotNull { (place, recorder) -> Latency.of(recorder.intervalHistogram)?.let { place.label to it } }.toMap()

    companion object {
        const val SIGNIFICANT_DIGITS = 3

        /** An empty histogram of the same precision, to add intervals into. */
        fun histogram() = Histogram(SIGNIFICANT_DIGITS)
    }
}
