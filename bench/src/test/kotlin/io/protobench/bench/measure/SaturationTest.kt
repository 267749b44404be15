package io.protobench.bench.measure

import io.protobench.bench.lab.launch.CpuPlacement
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.CpuUsage
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** Saturation detection and CPU placement on fixed data: a fake /proc, fixed core counts. */
class SaturationTest {
    private fun writeProc(proc: Path, serverTicks: Long, childTicks: Long, busy: Long, idle: Long) {
        Files.createDirectories(proc.resolve("42"))
        Files.createDirectories(proc.resolve("self"))
        // pid (comm with spaces) state ppid ... utime(14) stime(15) cutime(16) cstime(17)
        Files.writeString(proc.resolve("42/stat"), "42 (java main) S 1 1 1 0 -1 0 0 0 0 0 $serverTicks 0 0 0 20 0")
        Files.writeString(proc.resolve("self/stat"), "7 (java) S 1 1 1 0 -1 0 0 0 0 0 5 5 $childTicks 0 20 0")
        Files.writeString(proc.resolve("stat"), "cpu  $busy 0 0 $idle 0 0 0 0 0 0\ncpu0 1 2 3 4\n")
    }

    @Test
    fun `cpu shares come from tick differences over wall time`(@TempDir proc: Path) {
        val accounting = CpuAccounting(proc, ticksPerSecond = 100)
        writeProc(proc, serverTicks = 1000, childTicks = 0, busy = 10_000, idle = 10_000)
        val start = accounting.read(mapOf("data-server" to 42L)).copy(monotonicNs = 0)
        writeProc(proc, serverTicks = 1150, childTicks = 200, busy = 10_380, idle = 10_020)
        val end = accounting.read(mapOf("data-server" to 42L)).copy(monotonicNs = 2_000_000_000)

        val usage = accounting.usage(start, end, cores = 2)

        assertThat(usage.coresUsed["data-server"]!!).isCloseTo(0.75, within(1e-9)) // 150 ticks = 1.5 s over 2 s
        assertThat(usage.coresUsed[CpuAccounting.REAPED]!!).isCloseTo(1.0, within(1e-9)) // 200 ticks = 2 s over 2 s
        assertThat(usage.machineBusyShare!!).isCloseTo(0.95, within(1e-9)) // 380 busy of 400
        assertThat(usage.flags(CpuUsage.MACHINE_SATURATED).map { it.describe() })
            .containsExactly("machine 95% busy over 2 cores (limit 90%)")
        // The driver is read as a process of its own; at half the cores it starved the servers.
        val driverBusy = usage.copy(coresUsed = usage.coresUsed + (CpuAccounting.DRIVER to 1.0))
        assertThat(driverBusy.flags(CpuUsage.MACHINE_SATURATED).map { it.describe() })
            .containsExactly("machine 95% busy over 2 cores (limit 90%)", "the load generator used 1.00 of 2 cores")
        // Cost mode allows less: a fixed rate must leave the machine below 70% busy.
        assertThat(CpuUsage(2.0, emptyMap(), 0.75, 2).flags(CpuUsage.MACHINE_BUSY_COST_LIMIT)).hasSize(1)
        assertThat(CpuUsage(2.0, emptyMap(), 0.75, 2).flags(CpuUsage.MACHINE_SATURATED)).isEmpty()
    }

    @Test
    fun `the CPU of JIT compiler and collector threads is counted apart, from the threads' own stat`(@TempDir proc: Path) {
        fun thread(tid: Int, name: String, ticks: Long) {
            Files.createDirectories(proc.resolve("42/task/$tid"))
            Files.writeString(proc.resolve("42/task/$tid/comm"), "$name\n")
            Files.writeString(proc.resolve("42/task/$tid/stat"), "$tid ($name) S 1 1 1 0 -1 0 0 0 0 0 $ticks 0 0 0 20 0")
        }
        val accounting = CpuAccounting(proc, ticksPerSecond = 100)
        fun threads(c2: Long, c1: Long, worker: Long, gc: Long = 0, marker: Long = 0) {
            thread(43, "C2 CompilerThre", c2)
            thread(44, "C1 CompilerThre", c1)
            thread(45, "http-nio-exec-1", worker)
            thread(46, "GC Thread#0", gc)
            thread(47, "G1 Conc#0", marker)
        }
        writeProc(proc, serverTicks = 1000, childTicks = 0, busy = 10_000, idle = 10_000)
        threads(c2 = 300, c1 = 100, worker = 500, gc = 50, marker = 5)
        val start = accounting.read(mapOf("api-server" to 42L)).copy(monotonicNs = 0)
        writeProc(proc, serverTicks = 1200, childTicks = 0, busy = 10_200, idle = 10_200)
        threads(c2 = 340, c1 = 110, worker = 600, gc = 70, marker = 15)
        val end = accounting.read(mapOf("api-server" to 42L)).copy(monotonicNs = 1_000_000_000)

        val usage = accounting.usage(start, end, cores = 2)
        assertThat(usage.coresUsed["api-server"]!!).isCloseTo(2.0, within(1e-9)) // 200 ticks in 1 s
        assertThat(usage.compilerCoresUsed["api-server"]!!).isCloseTo(0.5, within(1e-9)) // 40 + 10 ticks; the worker's 100 are not
        assertThat(usage.collectorCoresUsed["api-server"]!!).isCloseTo(0.3, within(1e-9)) // 20 + 10 ticks of the two collector threads
    }

    @Test
    fun `the driver's kernel time is read apart from its user time`(@TempDir proc: Path) {
        fun driver(user: Long, kernel: Long) {
            Files.createDirectories(proc.resolve("42/task/42"))
            Files.writeString(proc.resolve("42/stat"), "42 (java) S 1 1 1 0 -1 0 0 0 0 0 $user $kernel 0 0 20 0")
            Files.writeString(proc.resolve("42/task/42/stat"), "42 (java) S 1 1 1 0 -1 0 0 0 0 0 $user $kernel 0 0 20 0")
        }
        val accounting = CpuAccounting(proc, ticksPerSecond = 100)
        writeProc(proc, serverTicks = 1000, childTicks = 0, busy = 10_000, idle = 10_000)
        driver(user = 100, kernel = 50)
        val start = accounting.read(mapOf(CpuAccounting.DRIVER to 42L)).copy(monotonicNs = 0)
        driver(user = 130, kernel = 90)
        val end = accounting.read(mapOf(CpuAccounting.DRIVER to 42L)).copy(monotonicNs = 1_000_000_000)

        val usage = accounting.usage(start, end, cores = 2)

        assertThat(usage.coresUsed[CpuAccounting.DRIVER]!!).isCloseTo(0.7, within(1e-9)) // 30 + 40 ticks in 1 s
        assertThat(usage.kernelCoresUsed[CpuAccounting.DRIVER]!!).isCloseTo(0.4, within(1e-9)) // the 40 in stime
        val figures = io.protobench.bench.measure.TrialFigures.fromCpu(usage, 1_000.0)
        assertThat(figures[io.protobench.bench.measure.Figure.DRIVER_KERNEL_CPU_US]!!).isCloseTo(400.0, within(1e-9))
    }

    @Test
    fun `a process tree counts the root, every descendant alive and the children it reaped, and nothing else`(@TempDir proc: Path) {
        fun process(pid: Int, parent: Int, ticks: Long, reaped: Long = 0) {
            Files.createDirectories(proc.resolve("$pid"))
            Files.writeString(proc.resolve("$pid/stat"), "$pid (postgres: x) S $parent 1 1 0 -1 0 0 0 0 0 $ticks 0 $reaped 0 20 0")
        }
        val accounting = CpuAccounting(proc, ticksPerSecond = 100)
        writeProc(proc, serverTicks = 1000, childTicks = 0, busy = 10_000, idle = 10_000)
        process(500, parent = 1, ticks = 10)
        process(501, parent = 500, ticks = 100)
        process(502, parent = 500, ticks = 50)
        process(600, parent = 502, ticks = 5)
        val start = accounting.read(mapOf("data-server" to 42L), mapOf(CpuAccounting.DATABASE to 500L)).copy(monotonicNs = 0)
        // 501 exits and is reaped (its whole life, 130 ticks, moves into 500's cutime); 503 is forked; 42 works but is no child.
        writeProc(proc, serverTicks = 2000, childTicks = 0, busy = 10_200, idle = 10_200)
        Files.walk(proc.resolve("501")).sorted(Comparator.reverseOrder()).forEach(Files::delete)
        process(500, parent = 1, ticks = 12, reaped = 130)
        process(502, parent = 500, ticks = 80)
        process(600, parent = 502, ticks = 9)
        process(503, parent = 500, ticks = 20)
        val end = accounting.read(mapOf("data-server" to 42L), mapOf(CpuAccounting.DATABASE to 500L)).copy(monotonicNs = 1_000_000_000)

        val usage = accounting.usage(start, end, cores = 2)
        // (12 + 130 + 80 + 9 + 20) - (10 + 100 + 50 + 5) = 86 ticks in 1 s
        assertThat(usage.coresUsed[CpuAccounting.DATABASE]!!).isCloseTo(0.86, within(1e-9))
        assertThat(usage.coresUsed["data-server"]!!).isCloseTo(10.0, within(1e-9))
        // A tree whose root is gone gives no figure rather than a wrong one.
        assertThat(
            accounting.usage(start, accounting.read(emptyMap(), mapOf(CpuAccounting.DATABASE to 999L)), 2)
                .coresUsed[CpuAccounting.DATABASE],
        ).isNull()
    }

    @Test
    fun `a quiet machine is not flagged`() {
        val usage = CpuUsage(10.0, mapOf(CpuAccounting.DRIVER to 0.3, "api-server" to 0.5), machineBusyShare = 0.6, cores = 4)
        assertThat(usage.flags(CpuUsage.MACHINE_SATURATED)).isEmpty()
    }

    @Test
    fun `a missing proc gives no figures rather than wrong ones`(@TempDir empty: Path) {
        val accounting = CpuAccounting(empty)
        val usage = accounting.usage(accounting.read(mapOf("x" to 1L)), accounting.read(mapOf("x" to 1L)), 2)
        assertThat(usage.coresUsed["x"]).isNull()
        assertThat(usage.machineBusyShare).isNull()
        assertThat(usage.flags(CpuUsage.MACHINE_SATURATED)).isEmpty()
    }

    @Test
    fun `with too few cores nothing is pinned and the report is told why`() {
        val placement = CpuPlacement.plan(cores = 2, enabled = true, tasksetAvailable = true)
        assertThat(placement.sets).isEmpty()
        assertThat(placement.note).contains("2 cores are too few to give driver, api-server and data-server disjoint CPU sets")
        assertThat(placement.wrap("driver", listOf("driver", "run"))).containsExactly("driver", "run")
    }

    @Test
    fun `with enough cores the three processes get disjoint sets`() {
        val placement = CpuPlacement.plan(cores = 8, enabled = true, tasksetAvailable = true)
        assertThat(placement.sets).containsEntry("driver", "0-1").containsEntry("api-server", "2-4").containsEntry("data-server", "5-7")
        assertThat(placement.wrap("data-server", listOf("java", "-jar", "d.jar")))
            .containsExactly("taskset", "-c", "5-7", "java", "-jar", "d.jar")
        assertThat(CpuPlacement.plan(cores = 3, enabled = true, tasksetAvailable = true).sets.values).containsExactly("0", "1", "2")
    }

    @Test
    fun `a direct run places the driver and the data-server only, and says so`() {
        val placement = CpuPlacement.plan(cores = 8, enabled = true, tasksetAvailable = true, processes = CpuPlacement.DIRECT_PROCESSES)
        assertThat(placement.sets).containsOnlyKeys("driver", "data-server")
            .containsEntry("driver", "0-1").containsEntry("data-server", "2-7")
        assertThat(CpuPlacement.plan(cores = 2, enabled = true, tasksetAvailable = true, processes = CpuPlacement.DIRECT_PROCESSES).note)
            .contains("too few to give driver and data-server").doesNotContain("api-server")
        assertThat(CpuPlacement.sharing(CpuPlacement.DIRECT_PROCESSES)).startsWith("driver and data-server run on the same machine")
    }

    @Test
    fun `with a remote data-server the gateway takes the cores the driver leaves, and the driver alone is not pinned`() {
        val gatewayOnly = CpuPlacement.plan(cores = 8, enabled = true, tasksetAvailable = true, processes = listOf("driver", "api-server"))
        assertThat(gatewayOnly.sets).containsOnlyKeys("driver", "api-server")
            .containsEntry("driver", "0-1").containsEntry("api-server", "2-7")
        val k6Alone = CpuPlacement.plan(cores = 8, enabled = true, tasksetAvailable = true, processes = listOf("driver"))
        assertThat(k6Alone.sets).isEmpty()
        assertThat(k6Alone.note).contains("driver runs alone")
        assertThat(CpuPlacement.sharing(listOf("driver"))).isEqualTo("only driver runs on this machine")
    }

    @Test
    fun `pinning can be turned off and needs taskset`() {
        assertThat(CpuPlacement.plan(8, enabled = false, tasksetAvailable = true).sets).isEmpty()
        assertThat(CpuPlacement.plan(8, enabled = true, tasksetAvailable = false).note).contains("taskset is not installed")
    }
}
