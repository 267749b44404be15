package io.protobench.bench.measure

import io.protobench.contract.metrics.GcThreads
import java.nio.file.Files
import java.nio.file.Path

/**
 * CPU time from the kernel's own counters (/proc), not from sampled percentages:
 * per process (utime + stime of /proc/<pid>/stat: the servers, the load driver), for the
 * children this JVM reaped (/proc/self/stat cutime + cstime, which grows by exactly a
 * finished child's CPU when it is reaped: seed 003's tools), and for the whole machine (/proc/stat).
 * Values are in clock ticks of [ticksPerSecond]. Null where /proc is absent.
 */
class CpuAccounting(private val proc: Path = Path.of("/proc"), val ticksPerSecond: Long = 100) {

    /** Counters at one instant. */
    data class Reading(
        val monotonicNs: Long,
        val processTicks: Map<String, Long?>,
        /** Per process, the ticks of its JIT compiler threads alone (null when unreadable). */
        val compilerTicks: Map<String, Long?> = emptyMap(),
        /** Per process, the ticks of its garbage collector threads alone (null when unreadable). */
        val collectorTicks: Map<String, Long?> = emptyMap(),
        val reapedChildrenTicks: Long?,
        val machineBusyTicks: Long?,
        val machineTotalTicks: Long?,
        /** Per process, the ticks it spent in the kernel (stime) alone: sending and receiving on its sockets, its timers. */
        val kernelTicks: Map<String, Long?> = emptyMap(),
    )

    companion object {
        /** The name readings give the lab's load driver (a process of its own, read like a server). */
        const val DRIVER = "driver"

        /** The name of the children this JVM reaped between two readings (seed 003's tools, each run a process). */
        const val REAPED = "reaped-children"

        /** The name readings give a database server's process tree (PostgreSQL's, when a variant writes there). */
        const val DATABASE = "database"

        /** HotSpot's compiler threads, as /proc/<pid>/task/<tid>/comm shows them. */
        private val COMPILER_THREAD = Regex("""C[12] CompilerThre.*""")

        /** HotSpot's collector threads, pause workers and concurrent ones alike (the contract's [GcThreads.ALL]). */
        private val COLLECTOR_THREAD = GcThreads.ALL

        /** USER_HZ from `getconf CLK_TCK`; 100 (the Linux default) when that cannot be asked. */
        fun detectTicksPerSecond(): Long = runCatching {
            val process = ProcessBuilder("getconf", "CLK_TCK").start()
            process.inputStream.bufferedReader().readText().trim().toLong().also { process.waitFor() }
        }.getOrDefault(100L)
    }

    /**
     * The counters now: of each of [processes] (one process each), and of each of [trees]
     * (a root process and all its descendants, as a PostgreSQL server's postmaster and the
     * backends and workers it forks), under the same names.
     */
    fun read(processes: Map<String, Long>, trees: Map<String, Long> = emptyMap()): Reading {
        val machine = machineTicks()
        val threads = processes.mapValues { (_, pid) -> threadTicks(pid) }
        // One read of each process's stat: its user and kernel time come from the same instant.
        val stats = processes.mapValues { (_, pid) -> statFields(proc.resolve("$pid/stat")) }
        val parents = if (trees.isEmpty()) emptyMap() else parentsOfAll()
        return Reading(
            monotonicNs = System.nanoTime(),
            processTicks = stats.mapValues { (_, fields) -> fields?.let { it[11] + it[12] } } +
                trees.mapValues { (_, root) -> treeTicks(root, parents) },
            kernelTicks = stats.mapValues { (_, fields) -> fields?.get(12) },
            compilerTicks = threads.mapValues { (_, ticks) -> ticks?.let { it.sumFor(COMPILER_THREAD) } },
            collectorTicks = threads.mapValues { (_, ticks) -> ticks?.let { it.sumFor(COLLECTOR_THREAD) } },
            reapedChildrenTicks = statFields(proc.resolve("self/stat"))?.let { it[13] + it[14] },
            machineBusyTicks = machine?.first,
            machineTotalTicks = machine?.second,
        )
    }

    /**
     * Fields after the command name of a stat line, as numbers: index 0 is field 3 (state
     * is skipped as 0), so utime (field 14) is index 11, stime 12, cutime 13, cstime 14.
     */
    private fun statFields(file: Path): List<Long>? = runCatching {
        val line = Files.readString(file)
        line.substring(line.lastIndexOf(')') + 2).trim().split(" ").map { it.toLongOrNull() ?: 0L }
    }.getOrNull()

    /**
     * Each thread of a process as (name, ticks); the kernel keeps the first 15 characters of
     * a thread's name ("C2 CompilerThre"). The compiler threads' work is the JVM warming up,
     * not the protocol: a recompilation late in a short trial would otherwise add a tenth of
     * its CPU to it. The collector threads' work is counted in the cost, and shown apart
     * because with large payloads it is what varies most between forks.
     */
    private fun threadTicks(pid: Long): List<Pair<String, Long>>? = runCatching {
        Files.list(proc.resolve("$pid/task")).use { tasks ->
            tasks.toList().map { task ->
                val name = runCatching { Files.readString(task.resolve("comm")).trim() }.getOrDefault("")
                name to (statFields(task.resolve("stat"))?.let { it[11] + it[12] } ?: 0L)
            }
        }
    }.getOrNull()

    /** Every process's parent, from /proc/<pid>/stat (ppid is field 4, index 1 here). */
    private fun parentsOfAll(): Map<Long, Long> = runCatching {
        Files.list(proc).use { entries ->
            entries.toList().mapNotNull { entry ->
                entry.fileName.toString().toLongOrNull()?.let { pid -> statFields(entry.resolve("stat"))?.let { pid to it[1] } }
            }.toMap()
        }
    }.getOrDefault(emptyMap())

    /**
     * CPU ticks of [root] and every descendant alive now, plus what [root]'s children that
     * have exited and been reaped used (its cutime + cstime). A child alive at one reading
     * and reaped by the next is counted once at each: first as itself, then inside the
     * root's reaped ticks, which hold its whole life, so the difference stays exact.
     */
    private fun treeTicks(root: Long, parents: Map<Long, Long>): Long? {
        val rootFields = statFields(proc.resolve("$root/stat")) ?: return null
        val children = parents.entries.groupBy({ it.value }, { it.key })
        val descendants = generateSequence(children[root].orEmpty()) { level ->
            level.flatMap { children[it].orEmpty() }.ifEmpty { null }
        }.flatten()
        val alive = descendants.sumOf { pid -> statFields(proc.resolve("$pid/stat"))?.let { it[11] + it[12] } ?: 0L }
        return rootFields[11] + rootFields[12] + rootFields[13] + rootFields[14] + alive
    }

    private fun List<Pair<String, Long>>.sumFor(names: Regex) = filter { names.matches(it.first) }.sumOf { it.second }

    /** (busy, total) jiffies of all CPUs; busy excludes idle and iowait. */
    private fun machineTicks(): Pair<Long, Long>? = runCatching {
        val cpu = Files.readAllLines(proc.resolve("stat")).first { it.startsWith("cpu ") }
        val values = cpu.substringAfter("cpu").trim().split(Regex("\\s+")).map { it.toLong() }
        // user nice system idle iowait irq softirq steal (guest time is already inside user)
        val total = values.take(8).sum()
        total - values[3] - values[4] to total
    }.getOrNull()

    /** Cores-worth of CPU each process and the reaped children used between two readings, and the machine's busy share. */
    fun usage(start: Reading, end: Reading, cores: Int): CpuUsage {
        val wallSeconds = (end.monotonicNs - start.monotonicNs) / 1e9
        fun cores(ticks: Long?) = ticks?.let { it.toDouble() / ticksPerSecond / wallSeconds }
        fun delta(a: Long?, b: Long?) = if (a != null && b != null) b - a else null
        val processes = start.processTicks.keys.associateWith { name -> cores(delta(start.processTicks[name], end.processTicks[name])) }
        val compilers = start.compilerTicks.keys.associateWith { name -> cores(delta(start.compilerTicks[name], end.compilerTicks[name])) }
        val collectors = start.collectorTicks.keys.associateWith { name ->
            cores(delta(start.collectorTicks[name], end.collectorTicks[name]))
        }
        val reaped = cores(end.reapedChildrenTicks?.let { e -> start.reapedChildrenTicks?.let { e - it } })
        val busy = end.machineBusyTicks?.let { e -> start.machineBusyTicks?.let { e - it } }
        val total = end.machineTotalTicks?.let { e -> start.machineTotalTicks?.let { e - it } }
        val machineBusy = if (busy != null && total != null && total > 0) busy.toDouble() / total else null
        val kernel = start.kernelTicks.keys.associateWith { name -> cores(delta(start.kernelTicks[name], end.kernelTicks[name])) }
        return CpuUsage(wallSeconds, processes + (REAPED to reaped), machineBusy, cores, compilers, collectors, kernel)
    }
}

/**
 * CPU used over one trial. [coresUsed]: per process, CPU seconds per wall second
 * (1.0 = one core fully busy). [machineBusyShare]: busy fraction of all cores.
 */
data class CpuUsage(
    val wallSeconds: Double,
    val coresUsed: Map<String, Double?>,
    val machineBusyShare: Double?,
    val cores: Int,
    /** Per server process, CPU seconds per wall second of its JIT compiler threads alone. */
    val compilerCoresUsed: Map<String, Double?> = emptyMap(),
    /** Per server process, CPU seconds per wall second of its garbage collector threads alone. */
    val collectorCoresUsed: Map<String, Double?> = emptyMap(),
    /** Per process, CPU seconds per wall second spent in the kernel (inside [coresUsed]). */
    val kernelCoresUsed: Map<String, Double?> = emptyMap(),
) {
    /** The load generator's cores: the lab's driver. */
    val loadGeneratorCores: Double? get() = coresUsed[CpuAccounting.DRIVER]

    /** What was too busy during the trial; [machineLimit] is the busy share the mode allows. */
    fun flags(machineLimit: Double): List<Flag> = listOfNotNull(
        machineBusyShare?.takeIf { it >= machineLimit }?.let { Flag.MachineBusy(it, machineLimit, cores) },
        loadGeneratorCores?.takeIf { it >= LOAD_GENERATOR_SATURATED_SHARE * cores }
            ?.let { Flag.LoadGeneratorBusy(it, LOAD_GENERATOR_SATURATED_SHARE, cores) },
    )

    companion object {
        /** Capacity mode: the machine counts as saturated when at least this share of all cores was busy. */
        const val MACHINE_SATURATED = 0.90

        /** Cost mode: a fixed rate must leave the machine below this share busy, or CPU per request is inflated. */
        const val MACHINE_BUSY_COST_LIMIT = 0.70

        /** The load generator counts as saturating when it alone used this share of all cores: the servers were starved by it. */
        const val LOAD_GENERATOR_SATURATED_SHARE = 0.45
    }
}
