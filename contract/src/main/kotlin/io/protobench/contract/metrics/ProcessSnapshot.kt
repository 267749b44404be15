package io.protobench.contract.metrics

import com.sun.management.HotSpotDiagnosticMXBean
import java.lang.management.ManagementFactory
import java.lang.management.MemoryType

/**
 * Cumulative resource counters of one JVM at one instant. Two snapshots taken at the
 * start and end of a measurement window give that process's cost over the window
 * (see [ProcessUsage.between]). Both servers produce them; the data-server serves
 * its own at `GET /internal/metrics`.
 */
data class ProcessSnapshot(
    /** Wall clock of the snapshot, epoch milliseconds. */
    val epochMs: Long,
    /** Monotonic clock of the snapshot, nanoseconds (only differences are meaningful). */
    val monotonicNs: Long,
    /** CPU time used by the whole process since it started, nanoseconds (user + system). */
    val cpuTimeNs: Long,
    /** Heap bytes allocated by all threads since the JVM started (approximate, from the JVM's TLAB accounting). */
    val allocatedBytes: Long,
    /**
     * Every `GarbageCollectorMXBean`'s count since the JVM started, summed. Kept for older readers:
     * on ZGC and Shenandoah it counts each concurrent cycle beside its pauses, so it means
     * something else per collector; [gc] holds pauses and cycles apart.
     */
    val gcCount: Long,
    /**
     * Every `GarbageCollectorMXBean`'s time since the JVM started, milliseconds, summed. Kept for
     * older readers: on ZGC and Shenandoah it adds the cycles' wall time to the pauses'; see [gc].
     */
    val gcTimeMs: Long,
    /** Heap in use now, bytes. */
    val heapUsedBytes: Long,
    /** Highest heap in use since the last [ProcessMetrics.resetPeakHeap], bytes (sum of each pool's peak). */
    val peakHeapUsedBytes: Long,
    /** Processors available to this JVM. */
    val availableProcessors: Int,
    /** Time the JIT compilers spent compiling since the JVM started, milliseconds (all compiler threads); 0 when unknown. */
    val jitCompileTimeMs: Long = 0,
    /** What this JVM is (its release, collectors, heap limit); null from servers that predate it. */
    val jvm: JvmFacts? = null,
    /**
     * The collector's pauses, cycles, concurrent CPU and heap after collection, from its notifications; null from servers that predate it.
     */
    val gc: GcTotals? = null,
)

/**
 * The facts of a JVM that a run's settings choose and a report must be able to trust:
 * read from the running JVM, so that a variant asking for ZGC or a 2 GB heap can be
 * checked to have got it. No command line or system properties (they may hold secrets).
 */
data class JvmFacts(
    /** `java.version`, e.g. "25.0.3". */
    val javaVersion: String,
    /** The garbage collector beans, e.g. ["G1 Young Generation", "G1 Old Generation"]. */
    val collectors: List<String>,
    /** The heap's maximum, bytes (-Xmx as the collector counts it); -1 when undefined. */
    val maxHeapBytes: Long,
    /**
     * The collector, by the VM option that chose it: "Serial", "Parallel", "G1", "ZGC", "ZGC
     * generational", "Shenandoah" or "Epsilon"; null when none reads as on (and in facts that predate it).
     */
    val collector: String? = null,
) {
    companion object {
        fun current() = JvmFacts(
            javaVersion = System.getProperty("java.version"),
            collectors = ManagementFactory.getGarbageCollectorMXBeans().map { it.name },
            maxHeapBytes = ManagementFactory.getMemoryMXBean().heapMemoryUsage.max,
            collector = collector(),
        )

        /** The VM option that chooses each collector, and the name [collector] gives it. */
        private val COLLECTOR_OPTIONS = linkedMapOf(
            "UseSerialGC" to "Serial",
            "UseParallelGC" to "Parallel",
            "UseG1GC" to "G1",
            "UseZGC" to "ZGC",
            "UseShenandoahGC" to "Shenandoah",
            "UseEpsilonGC" to "Epsilon",
        )

        private fun collector(): String? {
            val hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean::class.java) ?: return null

            // A JVM without an option (Shenandoah's on some builds, Epsilon's while locked) answers IllegalArgumentException.
            fun option(name: String): String? = runCatching { hotspot.getVMOption(name).value }.getOrNull()
            val chosen = COLLECTOR_OPTIONS.entries.firstOrNull { option(it.key) == "true" }?.value ?: return null
            if (chosen != "ZGC") return chosen
            // JDK 21–23 choose generational ZGC with -XX:+ZGenerational; from 24 on it is the only ZGC and the option is gone.
            val generational = option("ZGenerational")?.let { it == "true" } ?: (Runtime.version().feature() >= 24)
            return if (generational) "ZGC generational" else "ZGC"
        }
    }
}

/** Reads [ProcessSnapshot]s of the current JVM from its management beans. */
object ProcessMetrics {
    private val os = ManagementFactory.getOperatingSystemMXBean() as com.sun.management.OperatingSystemMXBean
    private val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
    private val heapPools = ManagementFactory.getMemoryPoolMXBeans().filter { it.type == MemoryType.HEAP }
    private val compiler = ManagementFactory.getCompilationMXBean()?.takeIf { it.isCompilationTimeMonitoringSupported }
    private val jvm = JvmFacts.current()

    init {
        GcNotifications.listen()
    }

    fun snapshot(): ProcessSnapshot {
        val collectors = ManagementFactory.getGarbageCollectorMXBeans()
        return ProcessSnapshot(
            epochMs = System.currentTimeMillis(),
            monotonicNs = System.nanoTime(),
            cpuTimeNs = os.processCpuTime,
            allocatedBytes = threads.totalThreadAllocatedBytes,
            gcCount = collectors.sumOf { it.collectionCount.coerceAtLeast(0) },
            gcTimeMs = collectors.sumOf { it.collectionTime.coerceAtLeast(0) },
            heapUsedBytes = ManagementFactory.getMemoryMXBean().heapMemoryUsage.used,
            peakHeapUsedBytes = heapPools.sumOf { it.peakUsage?.used ?: 0 },
            availableProcessors = Runtime.getRuntime().availableProcessors(),
            jitCompileTimeMs = compiler?.totalCompilationTime ?: 0,
            jvm = jvm,
            gc = GcNotifications.totals(),
        )
    }

    /** Starts a new peak-heap period: peaks reported after this are reached after this. */
    fun resetPeakHeap() = heapPools.forEach { it.resetPeakUsage() }

    /**
     * A full collection now (`System.gc()`; a JVM run with -XX:+DisableExplicitGC ignores it)
     * and the heap it left. The runner asks for one between trials, never inside a window.
     */
    fun collectGarbage(): HeapCollected {
        val started = System.nanoTime()
        System.gc()
        return HeapCollected(ManagementFactory.getMemoryMXBean().heapMemoryUsage.used, (System.nanoTime() - started) / 1_000_000)
    }

    /** Whole-machine CPU load in [0, 1] as the JVM sees it, or null when unknown. */
    fun systemCpuLoad(): Double? = os.cpuLoad.takeIf { it >= 0 }

    /** This process's CPU load in [0, 1] of the whole machine, or null when unknown. */
    fun processCpuLoad(): Double? = os.processCpuLoad.takeIf { it >= 0 }
}

/**
 * One process's cost over a measurement window, from two [ProcessSnapshot]s.
 * Per-request figures divide by the requests the gateway completed in the window.
 */
data class ProcessUsage(
    val cpuTimeMs: Double,
    /** CPU time per completed request, microseconds. */
    val cpuUsPerRequest: Double?,
    val allocatedBytes: Long,
    val allocatedBytesPerRequest: Double?,
    /** Every collector bean's count over the window, summed: pauses and (ZGC, Shenandoah) cycles alike; see [gc]. */
    val gcCount: Long,
    /** Every collector bean's time over the window, ms, summed: pause time plus (ZGC, Shenandoah) cycles' wall time; see [gc]. */
    val gcTimeMs: Long,
    val startHeapMb: Double,
    val endHeapMb: Double,
    val peakHeapMb: Double,
    /** Average share of one core this process used over the window, percent (100 = one full core). */
    val avgCoreUsagePercent: Double,
    /**
     * Time its JIT compilers spent compiling during the window, milliseconds. Near zero once
     * the JIT has settled: the soak waits for it, because throughput alone can plateau between
     * two waves of compilation.
     */
    val jitCompileTimeMs: Long = 0,
    /** The JVM's facts at the window's end. */
    val jvm: JvmFacts? = null,
    /** Pauses, their time, concurrent cycles and CPU, heap after collection; null when a snapshot predates them. */
    val gc: GcUsage? = null,
) {
    companion object {
        private const val MB = 1024.0 * 1024.0

        fun between(start: ProcessSnapshot, end: ProcessSnapshot, requests: Long): ProcessUsage {
            val cpuNs = (end.cpuTimeNs - start.cpuTimeNs).coerceAtLeast(0)
            val allocated = (end.allocatedBytes - start.allocatedBytes).coerceAtLeast(0)
            val wallNs = (end.monotonicNs - start.monotonicNs).coerceAtLeast(1)
            return ProcessUsage(
                cpuTimeMs = cpuNs / 1e6,
                cpuUsPerRequest = if (requests > 0) cpuNs / 1e3 / requests else null,
                allocatedBytes = allocated,
                allocatedBytesPerRequest = if (requests > 0) allocated.toDouble() / requests else null,
                gcCount = end.gcCount - start.gcCount,
                gcTimeMs = end.gcTimeMs - start.gcTimeMs,
                startHeapMb = start.heapUsedBytes / MB,
                endHeapMb = end.heapUsedBytes / MB,
                peakHeapMb = maxOf(end.peakHeapUsedBytes, start.heapUsedBytes, end.heapUsedBytes) / MB,
                avgCoreUsagePercent = 100.0 * cpuNs / wallNs,
                jitCompileTimeMs = (end.jitCompileTimeMs - start.jitCompileTimeMs).coerceAtLeast(0),
                jvm = end.jvm,
                gc = start.gc?.let { from -> end.gc?.let { GcUsage.between(from, it) } },
            )
        }
    }
}
