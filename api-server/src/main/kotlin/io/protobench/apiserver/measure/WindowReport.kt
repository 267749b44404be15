package io.protobench.apiserver.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.metrics.ProcessUsage
import java.time.Instant
import kotlin.time.Duration
import kotlin.time.DurationUnit

/** The answer to `POST /benchmark/start`. */
data class WindowStarted(
    val status: String,
    val protocol: String?,
    val testName: String?,
    val startedAt: Instant,
)

/**
 * The answer to `POST /benchmark/end`: what the gateway measured over one window. Field
 * names are those the seed project's scripts read; more were added, none removed.
 */
data class WindowReport(
    val protocol: String?,
    val testName: String?,
    val startedAt: Instant,
    val endedAt: Instant,
    /** Window length on the monotonic clock, ms. */
    val durationMs: Long,
    /** Requests that arrived while the window was open and completed: successes + failures. */
    val totalRequests: Long,
    val successRequests: Long,
    val failedRequests: Long,
    /** totalRequests per second of window. */
    val throughputRps: Double,
    /** Hop latency of the successful requests (gateway → data-server → decoded), ms. */
    val latency: LatencyStats,
    /** The gateway JVM over the window. */
    val serverMetrics: ServerMetrics,
    val dataTransfer: DataTransfer,
    val processes: Processes,
    /** The gateway's effective client settings (protobench.gateway.*). */
    val clientSettings: Any,
    /** The data-server's `/internal/settings`, or null if it could not be read. */
    val dataServerSettings: JsonNode?,
    /** Completed requests per second of the window, for steady-state checks. */
    val timeline: TimelineReport,
)

/**
 * The gateway JVM over the window, as the seeds reported it: heap and GC from snapshots
 * at start and end; CPU from samples every 100 ms (system = whole machine, process =
 * this JVM as a share of the whole machine; both percent).
 */
data class ServerMetrics(
    val startHeapMb: Double,
    val endHeapMb: Double,
    val peakHeapMb: Double,
    val gcCount: Long,
    val gcTimeMs: Long,
    val avgCpuUsagePercent: Double,
    val peakCpuUsagePercent: Double,
    val avgProcessCpuPercent: Double,
    val peakProcessCpuPercent: Double,
) {
    companion object {
        private const val MB = 1024.0 * 1024.0

        fun of(start: ProcessSnapshot, end: ProcessSnapshot, samples: SampleAggregate) = ServerMetrics(
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
    }
}

/** Response bytes received on the hop (HTTP body bytes; gRPC serialized message bytes) by successful requests. */
data class DataTransfer(val totalBytes: Long, val avgResponseBytes: Double)

/**
 * Each server process's cost over the window (CPU time, allocation, GC, heap),
 * per request dividing by totalRequests. [dataServer] is null when its metrics could
 * not be read; [dataServerError] then says why.
 */
data class Processes(
    val apiServer: ProcessUsage,
    val dataServer: ProcessUsage?,
    val dataServerError: String? = null,
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
