package io.protobench.apiserver.measure

import org.HdrHistogram.Histogram
import org.HdrHistogram.Recorder
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.LongAdder
import kotlin.time.Duration
import kotlin.time.TimeMark

/**
 * What the requests of one measurement window recorded. Thread-safe and lock-free:
 * every request records into the window that was open when it arrived.
 */
class WindowRecording(start: TimeMark) {
    /** Completions per second since the window opened. */
    val timeline = Timeline(start)

    /** Hop latency of successful requests, microseconds (auto-resizing, 3 significant digits). */
    private val latencyMicros = Recorder(3)
    private val successes = LongAdder()

    /** Failed requests by what went wrong (a [io.protobench.apiserver.client.HopFailure]'s error, or "invalid request"). */
    private val failures = ConcurrentHashMap<String, LongAdder>()

    /** Response bytes received on the hop by successful requests (HTTP body bytes; gRPC serialized message bytes). */
    private val responseBytes = LongAdder()

    fun recordSuccess(latency: Duration, wireBytes: Long) {
        latencyMicros.recordValue(latency.inWholeMicroseconds.coerceAtLeast(0))
        responseBytes.add(wireBytes)
        successes.increment()
        timeline.recordCompletion()
    }

    fun recordFailure(kind: String) {
        failures.computeIfAbsent(kind) { LongAdder() }.increment()
        timeline.recordCompletion()
    }

    /** The counts so far; the histogram is the one recorded since the previous call (call once, at the end). */
    fun drain(): WindowCounts = WindowCounts(
        successes = successes.sum(),
        failuresByKind = failures.mapValues { it.value.sum() }.toSortedMap(),
        responseBytes = responseBytes.sum(),
        latencyMicros = latencyMicros.intervalHistogram,
    )
}

data class WindowCounts(
    val successes: Long,
    val failuresByKind: Map<String, Long>,
    val responseBytes: Long,
    val latencyMicros: Histogram,
) {
    val failures: Long get() = failuresByKind.values.sum()
    val total: Long get() = successes + failures
}
