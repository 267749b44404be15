package io.protobench.contract.window

import com.fasterxml.jackson.annotation.JsonSetter
import com.fasterxml.jackson.annotation.Nulls
import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.metrics.ProcessUsage
import java.time.Instant

// The gateway's answers to POST /benchmark/start and /benchmark/end, shared through the
// contract so the bench reads exactly what the gateway writes. Plain data: Jackson
// (Kotlin module, Java time module: see io.protobench.contract.Json) writes and reads
// them back equal. Field names are those the seed project's scripts read; more were
// added, none removed.

/** The answer to `POST /benchmark/start`. */
data class WindowStarted(val status: String, val protocol: String?, val testName: String?, val startedAt: Instant)

/** The answer to `POST /benchmark/end`: what the gateway measured over one window. */
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
    /**
     * The failed requests by what went wrong: the gateway's hop errors ("data-server
     * timeout", "data-server unavailable", …) and "invalid request". Empty in reports
     * written before it existed.
     */
    val failuresByKind: Map<String, Long> = emptyMap(),
    /** totalRequests per second of window. */
    val throughputRps: Double,
    /** Hop latency of the successful requests (gateway → data-server → decoded), ms. */
    val latency: LatencyStats,
    /** The gateway JVM over the window. */
    val serverMetrics: ServerMetrics,
    val dataTransfer: DataTransfer,
    val processes: Processes,
    /** The gateway's effective client settings (protobench.gateway.*), as JSON. */
    val clientSettings: JsonNode,
    /**
     * The data-server's `/internal/settings`, or null if it could not be read. (A JSON
     * null is skipped on reading, so it comes back as null rather than a NullNode.)
     */
    @JsonSetter(nulls = Nulls.SKIP)
    val dataServerSettings: JsonNode? = null,
    /** Completed requests per second of the window, for steady-state checks. */
    val timeline: TimelineReport,
)

/**
 * Hop latency of the successful requests of a window, milliseconds. Percentiles come
 * from an HdrHistogram (3 significant digits), so each is exact to within 0.1%.
 */
data class LatencyStats(
    val avgMs: Double,
    val minMs: Double,
    val maxMs: Double,
    val p50Ms: Double,
    val p90Ms: Double,
    val p95Ms: Double,
    val p99Ms: Double,
    val p999Ms: Double,
) {
    companion object {
        /** All zero: a window without successful requests. */
        val EMPTY = LatencyStats(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    }
}

/**
 * The gateway JVM over the window, as the seeds reported it: heap and GC from snapshots
 * at start and end; CPU from samples every 100 ms (system = whole machine, process =
 * this JVM as a share of the whole machine; both percent). [gcCount] and [gcTimeMs] sum
 * every collector bean, as the seeds did (on ZGC cycles and pauses alike); the pauses and
 * the concurrent work apart are in [Processes.apiServer]'s `gc`.
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
)

/** Response bytes received on the hop (HTTP body bytes; gRPC serialized message bytes) by successful requests. */
data class DataTransfer(val totalBytes: Long, val avgResponseBytes: Double)

/**
 * Each server process's cost over the window (CPU time, allocation, GC, heap),
 * per request dividing by totalRequests. [dataServer] is null when its metrics could
 * not be read; [dataServerError] then says why.
 */
data class Processes(val apiServer: ProcessUsage, val dataServer: ProcessUsage?, val dataServerError: String? = null)

/** Completed requests per [intervalMs] interval since the window opened. */
data class TimelineReport(val intervalMs: Long, val completed: List<Long>)
