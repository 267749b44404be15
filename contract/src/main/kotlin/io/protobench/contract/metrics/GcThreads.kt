package io.protobench.contract.metrics

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ConcurrentHashMap

/**
 * HotSpot's garbage collector threads by name, as the kernel shows them (`/proc/<pid>/task/<tid>/comm`,
 * a name's first 15 characters), and the CPU time of the concurrent ones.
 *
 * Names seen on JDK 17.0.15 and 25.0.3:
 * - G1: "GC Thread#0" (the workers of its pauses), "G1 Conc#0", "G1 Main Marker", "G1 Refine#0", "G1 Service";
 * - Parallel: "GC Thread#0" only (every collection is a pause); Serial: none (it collects in the "VM Thread");
 * - ZGC on 17: "ZDirector", "ZDriver", "ZStat", "ZUncommitter", "ZUnmapper", "ZWorker#0";
 *   generational ZGC on 25: "ZDirector", "ZDriverMajor", "ZDriverMinor", "ZStat", "ZUncommitter#0",
 *   "ZWorkerOld#0", "ZWorkerYoung#0";
 * - Shenandoah: "Shenandoah Cont" (its control thread), "Shenandoah GC T" (its workers).
 *
 * "RuntimeWorker#0" (beside ZGC) runs the VM's own work inside safepoints, not the collector's,
 * and is left out.
 */
object GcThreads {
    /**
     * The threads that collect while the application runs: G1's marking, refinement and service
     * threads, every ZGC and Shenandoah thread. G1's pauses run on "GC Thread#*" instead, so its
     * concurrent figure holds no pause work. ZGC's and Shenandoah's workers also help inside their
     * own pauses: that share (at most the pauses' time × the workers) is in the figure too; ZGC's
     * pauses last tens of microseconds.
     */
    val CONCURRENT = Regex("""G1 .*|Z(Director|Driver|Stat|Worker|Unmapper|Uncommitter).*|Shenandoah.*""")

    /** Every collector thread: the pause workers of G1 and Parallel ("GC Thread#0") and the [CONCURRENT] ones. */
    val ALL = Regex("""GC Thread#.*|""" + CONCURRENT.pattern)

    private val self = ConcurrentTasks(Path.of("/proc/self/task"))

    /**
     * CPU time of this JVM's [CONCURRENT] threads since they started, nanoseconds; null where
     * /proc cannot be read. See [ConcurrentTasks.cpuNs].
     */
    fun concurrentCpuNs(): Long? = self.cpuNs()

    /**
     * The [CONCURRENT] threads of one process, read under [tasks] (`/proc/<pid>/task`); their CPU
     * time from `schedstat` (the kernel's time on a CPU, nanoseconds, user and system), not `stat`'s
     * 10 ms ticks. The sum holds the threads alive now: collector threads live as long as the JVM,
     * so the total only grows.
     *
     * A thread's name is read when its id first appears, and once more at the next reading if it
     * was no collector's then (a new thread carries its creator's name until it sets its own); after
     * that the answer is kept. Reading every name each time took 30–40 ms for 220 threads on the
     * lab's busy 2-core machine, inside the window it measures.
     *
     * Not `ThreadMXBean`: it sees Java threads only, and the collector's threads are the JVM's own.
     * Not the concurrent cycles' durations (the `… Cycles` beans): those are wall time, however
     * many threads worked or however long they waited for a CPU.
     */
    class ConcurrentTasks(private val tasks: Path) {
        /** What each thread id seen is; ids no longer listed are dropped. */
        private val kinds = ConcurrentHashMap<String, Kind>()

        private enum class Kind { CONCURRENT, OTHER_ONCE, OTHER }

        fun cpuNs(): Long? = try {
            val ids = Files.list(tasks).use { listing -> listing.map { it.fileName.toString() }.toList() }
            kinds.keys.retainAll(ids.toSet())
            ids.sumOf { id ->
                val task = tasks.resolve(id)
                val kind = kinds.compute(id) { _, seen ->
                    when (seen) {
                        null -> if (isConcurrent(task)) Kind.CONCURRENT else Kind.OTHER_ONCE
                        Kind.OTHER_ONCE -> if (isConcurrent(task)) Kind.CONCURRENT else Kind.OTHER
                        else -> seen
                    }
                }
                if (kind == Kind.CONCURRENT) runtimeNs(task) else 0L
            }
        } catch (e: java.io.IOException) {
            null
        } catch (e: java.io.UncheckedIOException) {
            null
        } catch (e: UnreadableSchedstat) {
            null
        }

        private fun isConcurrent(task: Path): Boolean = runCatching {
            CONCURRENT.matches(Files.readString(task.resolve("comm")).trim())
        }.getOrDefault(false)

        /**
         * `schedstat`'s first field: time spent on a CPU, nanoseconds; 0 for a thread that ended
         * since the listing. A kernel without schedstat makes the whole figure unknown.
         */
        private fun runtimeNs(task: Path): Long = try {
            Files.readString(task.resolve("schedstat")).trim().substringBefore(' ').toLong()
        } catch (e: java.io.IOException) {
            if (Files.isDirectory(task)) throw UnreadableSchedstat() else 0L
        } catch (e: NumberFormatException) {
            throw UnreadableSchedstat()
        }

        private class UnreadableSchedstat : Exception()
    }
}
