package io.protobench.apiserver.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.metrics.HeapCollected
import io.protobench.contract.metrics.ProcessMetrics
import io.protobench.contract.metrics.ProcessSnapshot
import java.lang.management.ManagementFactory

/** The gateway's own JVM, as the measurement window reads it. */
interface LocalProbe {
    fun snapshot(): ProcessSnapshot

    fun resetPeakHeap()

    fun sample(): ResourceSample
}

/** One reading of the gateway JVM taken by the sampler. */
data class ResourceSample(
    /** Whole-machine CPU load, percent (0..100), or null when the JVM cannot tell. */
    val systemCpuPercent: Double?,
    /** This process's CPU load as a share of the whole machine, percent (0..100), or null when unknown. */
    val processCpuPercent: Double?,
    /** Heap in use, bytes. */
    val heapUsedBytes: Long,
)

/** The data-server's side of a measurement window, read over its /internal endpoints. */
interface DataServerProbe {
    suspend fun snapshot(): ProcessSnapshot

    suspend fun resetPeakHeap()

    /** The data-server's effective settings (its `/internal/settings` as it sends them). */
    suspend fun settings(): JsonNode

    /** A full collection of the data-server's heap (its `POST /internal/gc`). */
    suspend fun collectGarbage(): HeapCollected
}

/** [LocalProbe] over the contract's [ProcessMetrics]. */
object JvmProbe : LocalProbe {
    private val memory = ManagementFactory.getMemoryMXBean()

    override fun snapshot() = ProcessMetrics.snapshot()

    override fun resetPeakHeap() = ProcessMetrics.resetPeakHeap()

    override fun sample() = ResourceSample(
        systemCpuPercent = ProcessMetrics.systemCpuLoad()?.times(100),
        processCpuPercent = ProcessMetrics.processCpuLoad()?.times(100),
        heapUsedBytes = memory.heapMemoryUsage.used,
    )
}
