package io.protobench.apiserver.measure

import io.protobench.contract.window.TimelineReport
import java.util.concurrent.atomic.AtomicLongArray
import kotlin.time.TimeMark

/**
 * Requests completed in each second of a window (successes and failures), so a
 * reader can tell whether throughput was steady or still climbing (JIT warm-up) or
 * disturbed. Seconds beyond [MAX_SECONDS] are counted in the last slot.
 */
class Timeline(private val start: TimeMark) {
    private val perSecond = AtomicLongArray(MAX_SECONDS)

    fun recordCompletion() {
        val second = start.elapsedNow().inWholeSeconds.toInt().coerceIn(0, MAX_SECONDS - 1)
        perSecond.incrementAndGet(second)
    }

    /** Counts of the whole seconds elapsed so far; the partial current second is left out. */
    fun completedSeconds(): TimelineReport {
        val whole = start.elapsedNow().inWholeSeconds.toInt().coerceIn(0, MAX_SECONDS)
        return TimelineReport(INTERVAL_MS, List(whole) { perSecond.get(it) })
    }

    companion object {
        const val INTERVAL_MS = 1000L
        const val MAX_SECONDS = 3600
    }
}
