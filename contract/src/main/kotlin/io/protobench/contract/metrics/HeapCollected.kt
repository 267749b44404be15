package io.protobench.contract.metrics

/**
 * One JVM's heap after a full collection asked for between trials ([ProcessMetrics.collectGarbage]):
 * the data-server answers it at `POST /internal/gc`.
 */
data class HeapCollected(
    /** Heap in use after the collection, bytes: what the JVM holds alive (and what a collector ignoring the request left). */
    val heapUsedBytes: Long,
    /** How long the request took, milliseconds. */
    val tookMs: Long,
)

/**
 * `POST /benchmark/gc` on the gateway: both servers' heaps after a full collection each.
 * [dataServer] is null when the data-server could not be asked (down, or a version without
 * `/internal/gc`), with [dataServerProblem] saying why; [gateway] is null only where the
 * runner asked the data-server alone (topology direct: there is no gateway).
 */
data class HeapsCollected(val gateway: HeapCollected?, val dataServer: HeapCollected?, val dataServerProblem: String? = null)
