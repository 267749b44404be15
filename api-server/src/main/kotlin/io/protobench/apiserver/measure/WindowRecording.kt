package io.protobench.apiserver.measure

import org.HdrHistogram.Histogram
import org.HdrHistogram.Recorder
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
    private val failures = LongAdder()

    /** Response bytes received on the hop by successful requests (HTTP body bytes; gRPC serialized message bytes). */
    private val responseBytes = LongAdder()

    fun recordSuccess(latency: Duration, wireBytes: Long) {
        latencyMicros.recordValue(latency.inWholeMicroseconds.coerceAtLeast(0))
        responseBytes.add(wireBytes)
        successes.increment()
        timeline.recordCompletion()
    }

    fun recordFailure() {
        failures.increment()
        timeline.recordCompletion()
    }

    /** The counts so far; the histogram is the one recorded since the previous call (call once, at the end). */
    fun drain(): WindowCounts = WindowCounts(
        successes = successes.sum(),
        failures = failures.sum(),
        responseBytes = responseBytes.sum(),
        latencyMicros = latencyMicros.intervalHistogram,
    )
}

data class WindowCounts(
    val successes: Long,
    val failures: Long,
    val responseBytes: Long,
    val latencyMicros: Histogram,
) {
    val total: Long get() = successes + failures
}
