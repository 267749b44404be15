package io.protobench.contract.metrics

import com.sun.management.GarbageCollectionNotificationInfo
import java.lang.management.ManagementFactory
import java.lang.management.MemoryType
import javax.management.NotificationEmitter
import javax.management.NotificationListener
import javax.management.openmbean.CompositeData

/**
 * What a collector's notification ends: a stop-the-world pause, or a concurrent cycle (ZGC's and
 * Shenandoah's, which run beside the application; the pauses inside a cycle are notified apart).
 */
enum class GcEventKind {
    PAUSE,
    CYCLE,
    ;

    companion object {
        /**
         * The `gcAction` of a concurrent cycle's notification; every other action ends a pause.
         * `GarbageCollectionNotificationInfo` on JDK 17.0.15 and 25.0.3 (bean: action):
         * - G1: "G1 Young Generation": "end of minor GC", "G1 Old Generation" (a full collection):
         *   "end of major GC"; on 25 also "G1 Concurrent GC": "end of concurrent GC pause" (the
         *   Remark and Cleanup pauses of its concurrent cycle, cause "No GC"; JDK 17 notifies
         *   those two pauses nowhere, so its G1 pause figures leave them out);
         * - Parallel: "PS Scavenge": "end of minor GC", "PS MarkSweep": "end of major GC"; Serial
         *   the same on "Copy" and "MarkSweepCompact";
         * - ZGC on 17: "ZGC Pauses": "end of GC pause", "ZGC Cycles": "end of GC cycle"; generational
         *   ZGC on 25: "ZGC Minor Pauses" and "ZGC Major Pauses": "end of GC pause", "ZGC Minor
         *   Cycles" and "ZGC Major Cycles": "end of GC cycle";
         * - Shenandoah: "Shenandoah Pauses": the pause's name ("Init Mark", "Final Mark", "Init Update
         *   Refs", "Final Update Refs"), "Shenandoah Cycles": "end of GC cycle".
         */
        const val CYCLE_ACTION = "end of GC cycle"

        fun of(gcAction: String): GcEventKind = if (gcAction == CYCLE_ACTION) CYCLE else PAUSE
    }
}

/** One collector notification, as counted: its kind, its length (ms) and the heap in use after it (bytes). */
data class GcEvent(val kind: GcEventKind, val durationMs: Long, val heapAfterBytes: Long)

/**
 * A JVM's collections since it started, from the collector's notifications (one per pause, one per
 * concurrent cycle), never from the `GarbageCollectorMXBean` totals: on ZGC and Shenandoah those
 * beans count cycles beside pauses, and a cycle's time is its wall length, pauses inside.
 */
data class GcTotals(
    /** Stop-the-world pauses notified. */
    val pauses: Long,
    /**
     * Their summed length, milliseconds: each pause's `GcInfo` end − start, both whole milliseconds
     * of the JVM's uptime, so a pause under 1 ms (ZGC's, Shenandoah's) counts 0 or 1 ms. The sum is
     * right on average over many pauses, not to the microsecond.
     */
    val pauseTimeMs: Long,
    /** Concurrent cycles notified (ZGC, Shenandoah; 0 for G1, Parallel, Serial). */
    val cycles: Long,
    /** CPU time of the collector's concurrent threads ([GcThreads.CONCURRENT]), nanoseconds; null where /proc cannot tell. */
    val concurrentCpuNs: Long?,
    /**
     * Heap in use right after the latest collection, bytes (the heap pools of its `GcInfo`'s usage
     * after): the latest concurrent cycle's where the collector has cycles (their pauses free
     * nothing), else the latest pause's; null before the first.
     */
    val heapAfterGcBytes: Long?,
)

/**
 * The collector's work over a window, from two [GcTotals]: pauses and their time, concurrent
 * cycles, the concurrent threads' CPU, and the heap after the latest collection at the window's end.
 */
data class GcUsage(
    val pauses: Long,
    /** Summed pause length over the window, milliseconds (see [GcTotals.pauseTimeMs]). */
    val pauseTimeMs: Long,
    val cycles: Long,
    /** CPU the collector's concurrent threads used over the window, milliseconds; null when unknown. */
    val concurrentCpuMs: Double?,
    /** Heap in use after the latest collection as the window ended (it may predate the window), MB. */
    val heapAfterGcMb: Double?,
) {
    companion object {
        private const val MB = 1024.0 * 1024.0

        fun between(start: GcTotals, end: GcTotals) = GcUsage(
            pauses = end.pauses - start.pauses,
            pauseTimeMs = end.pauseTimeMs - start.pauseTimeMs,
            cycles = end.cycles - start.cycles,
            concurrentCpuMs = start.concurrentCpuNs?.let { from -> end.concurrentCpuNs?.let { (it - from).coerceAtLeast(0) / 1e6 } },
            heapAfterGcMb = end.heapAfterGcBytes?.let { it / MB },
        )
    }
}

/** Adds up [GcEvent]s as they come; safe to record from one thread and read from others. */
class GcCounter {
    private var pauses = 0L
    private var pauseTimeMs = 0L
    private var cycles = 0L
    private var heapAfterPause: Long? = null
    private var heapAfterCycle: Long? = null

    @Synchronized
    fun record(event: GcEvent) {
        when (event.kind) {
            GcEventKind.PAUSE -> {
                pauses++
                pauseTimeMs += event.durationMs.coerceAtLeast(0)
                heapAfterPause = event.heapAfterBytes
            }

            GcEventKind.CYCLE -> {
                cycles++
                heapAfterCycle = event.heapAfterBytes
            }
        }
    }

    @Synchronized
    fun totals(concurrentCpuNs: Long?) = GcTotals(pauses, pauseTimeMs, cycles, concurrentCpuNs, heapAfterCycle ?: heapAfterPause)
}

/**
 * This JVM's [GcCounter], fed by a listener on every `GarbageCollectorMXBean` from the first use of
 * this object on. The JVM delivers notifications on a thread of its own shortly after each
 * collection, so one that ends a few milliseconds before a snapshot may count in the next window.
 */
object GcNotifications {
    private val counter = GcCounter()
    private val heapPools: Set<String> =
        ManagementFactory.getMemoryPoolMXBeans().filter { it.type == MemoryType.HEAP }.map { it.name }.toSet()

    init {
        val listener = NotificationListener { notification, _ ->
            if (notification.type == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
                counter.record(eventOf(GarbageCollectionNotificationInfo.from(notification.userData as CompositeData)))
            }
        }
        ManagementFactory.getGarbageCollectorMXBeans().forEach {
            (it as? NotificationEmitter)?.addNotificationListener(listener, null, null)
        }
    }

    /** Starts listening, once per JVM (later calls do nothing): a server calls it first in `main`, so that every collection counts. */
    fun listen() = Unit

    /** The totals now, with the concurrent threads' CPU read from /proc. */
    fun totals(): GcTotals = counter.totals(GcThreads.concurrentCpuNs())

    private fun eventOf(info: GarbageCollectionNotificationInfo) = GcEvent(
        kind = GcEventKind.of(info.gcAction),
        durationMs = info.gcInfo.duration,
        heapAfterBytes = info.gcInfo.memoryUsageAfterGc.filterKeys { it in heapPools }.values.sumOf { it.used },
    )
}
