package io.protobench.apiserver.measure

import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.window.DataTransfer
import io.protobench.contract.window.ServerMetrics
import kotlin.time.Duration
import kotlin.time.DurationUnit

// How the gateway computes the figures of the contract's WindowReport.

private const val MB = 1024.0 * 1024.0

/** The gateway JVM's [ServerMetrics] from snapshots at start and end and the sampler's aggregate. */
fun serverMetricsOf(start: ProcessSnapshot, end: ProcessSnapshot, samples: SampleAggregate) = ServerMetrics(
    startHeapMb = start.heapUsedBytes / MB,
    endHeapMb = end.heapUsedBytes / MB,
    peakHeapMb = maxOf(samples.peakHeapBytes, end.peakHeapUsedBytes, start.heapUsedBytes, end.heapUsedBytes) / MB,
    gcCount = end.gcCount - start.gcCount,
    gcTimeMs = end.gcTimeMs - start.gcTimeMs,
    avgCpuUsagePercent = samples.avgSystemCpuPercent,
    peakCpuUsagePercent = samples.peakSystemCpuPercent,
    avgProcessCpuPercent = samples.avgProcessCpuPercent,
    peakProcessCpuPercent = samples.peakProcessCpuPercent,
)

/** Pure arithmetic of a closed window: counts and durations in, report figures out. */
object WindowMath {
    /** Requests per second over [duration]; 0 for an empty or zero-length window. */
    fun throughputRps(requests: Long, duration: Duration): Double {
        val seconds = duration.toDouble(DurationUnit.SECONDS)
        return if (seconds > 0) requests / seconds else 0.0
    }

    fun dataTransfer(counts: WindowCounts) = DataTransfer(
        totalBytes = counts.responseBytes,
        avgResponseBytes = if (counts.successes > 0) counts.responseBytes.toDouble() / counts.successes else 0.0,
    )
}
