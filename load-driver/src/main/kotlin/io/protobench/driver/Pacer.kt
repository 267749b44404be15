package io.protobench.driver

import org.HdrHistogram.Histogram
import java.util.concurrent.TimeUnit
import java.util.function.LongSupplier

/**
 * The open model's schedule: arrival i is due at [startNs] + i/[rate] seconds, for every i
 * due before [endNs] (times in `System.nanoTime` nanoseconds). It reads no clock: whoever
 * drives it says what time it is, so a test can replay a stall in numbers, with no server
 * and no sleep. Each due time is computed from i, never by adding up spacings, so rounding
 * cannot pile up over a long run. It also keeps how late each arrival was sent ([lateness]):
 * arrivals due before [timedStartNs] are the warm-up's and stay out of its send delay.
 *
 * Not thread-safe: one event loop drives it; others read [lateness] once it is done.
 */
internal class Pacer(val startNs: Long, val rate: Double, val endNs: Long, private val timedStartNs: Long = startNs) {
    init {
        require(rate > 0) { "a pacer needs a rate above 0, not $rate" }
    }

    private val spacingNs = 1e9 / rate

    /** Arrivals sent so far: the next one to send is arrival [sent]. */
    var sent = 0L
        private set

    val lateness = SendLateness()

    /** How many arrivals the schedule holds: those due before the end. */
    val arrivals: Long = dueBy(endNs - 1)

    /** When arrival [i] (from 0) is due: truncated to the nanosecond, so never after its exact time. */
    fun due(i: Long): Long = startNs + (i * spacingNs).toLong()

    /** How many arrivals of the schedule (sent or not) are due at [nowNs]: those due at or before it, and before the end. */
    fun dueAt(nowNs: Long): Long = minOf(dueBy(nowNs), arrivals)

    /** How many arrivals are due at or before [timeNs], the end aside: the inverse of [due], exact for its truncation. */
    private fun dueBy(timeNs: Long): Long {
        if (timeNs < startNs) return 0
        // The division gives the count to within one either way; the loops settle it on [due] itself.
        var count = ((timeNs - startNs) / spacingNs).toLong() + 1
        while (due(count) <= timeNs) count++
        while (count > 0 && due(count - 1) > timeNs) count--
        return count
    }

    /** Nanoseconds from [nowNs] until the next arrival is due: 0 when it is due already, null when the schedule is done. */
    fun waitNs(nowNs: Long): Long? {
        val due = due(sent)
        return when {
            due >= endNs -> null
            due > nowNs -> due - nowNs
            else -> 0
        }
    }

    /** Sends the next arrival at [nowNs], which must be due by then: counts how late it left, and gives its due time. */
    fun send(nowNs: Long): Long {
        val due = due(sent)
        check(due <= nowNs && due < endNs) { "arrival $sent is due at $due (the end at $endNs), not by $nowNs" }
        lateness.record(nowNs - due, timed = due >= timedStartNs)
        sent++
        return due
    }
}

/**
 * How late after its due time the driver sent each arrival: the driver's own delay, which
 * the latency (counted from the due time) includes, kept apart so a report can tell it from
 * the servers'.
 */
internal class SendLateness {
    /** The latest any arrival (both phases) was sent after it was due, ns. */
    var maxLateNs = 0L
        private set

    /** Arrivals (both phases) sent more than [LATE_NS] after they were due. */
    var lateArrivals = 0L
        private set

    /** How late each arrival of the timed phase was sent, µs. */
    val sendDelay: Histogram = Tally.histogram()

    /** An arrival sent [lateNs] after it was due; [timed] when it was due in the timed phase. */
    fun record(lateNs: Long, timed: Boolean) {
        maxLateNs = maxOf(maxLateNs, lateNs)
        if (lateNs > LATE_NS) lateArrivals++
        if (timed) sendDelay.recordValue(lateNs / 1000)
    }

    companion object {
        /** An arrival sent later than this after it was due counts as late: the driver, not the servers, delayed it. */
        val LATE_NS = TimeUnit.MILLISECONDS.toNanos(Summary.LATE_MS)
    }
}

/**
 * Open model's event-loop task: each time it runs it sends every arrival [pacer] says is
 * due by [clock], then sets a timer ([schedule]) to run again when the next is due, until
 * the schedule ends or [stopped]; then [done]. Arrivals already due when it runs (after a
 * pause) are sent at once; their latency still counts from when they were due, and the
 * pacer keeps how late they left. The clock and the timer are given, not taken, so a test
 * can drive it with numbers.
 */
internal class OpenArrivals(
    private val pacer: Pacer,
    private val clock: LongSupplier,
    private val schedule: (next: Runnable, waitNs: Long) -> Unit,
    private val stopped: () -> Boolean,
    private val send: (dueNs: Long) -> Unit,
    private val done: () -> Unit,
) : Runnable {
    override fun run() {
        val now = clock.asLong
        val due = pacer.dueAt(now)
        while (!stopped() && pacer.sent < due) send(pacer.send(now))
        val wait = pacer.waitNs(now)
        if (stopped() || wait == null) done() else schedule(this, wait)
    }
}
