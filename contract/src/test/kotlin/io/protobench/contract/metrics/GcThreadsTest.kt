package io.protobench.contract.metrics

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

class GcThreadsTest {
    /** Thread names as /proc showed them on JDK 17 and 25 (see [GcThreads]). */
    private val concurrent = listOf(
        "G1 Conc#0", "G1 Main Marker", "G1 Refine#1", "G1 Service",
        "ZDirector", "ZDriver", "ZDriverMajor", "ZDriverMinor", "ZStat", "ZUncommitter", "ZUncommitter#0", "ZUnmapper",
        "ZWorker#0", "ZWorkerOld#0", "ZWorkerYoung#0", "Shenandoah Cont", "Shenandoah GC T",
    )
    private val others = listOf(
        "VM Thread",
        "RuntimeWorker#0",
        "C2 CompilerThre",
        "Notification Th",
        "java",
        "reactor-http-ni",
        "grpc-default-ex",
    )

    @Test
    fun `the concurrent threads are the collectors' own but its pause workers`() {
        assertThat(concurrent.filter { GcThreads.CONCURRENT.matches(it) }).isEqualTo(concurrent)
        assertThat((others + "GC Thread#0").filter { GcThreads.CONCURRENT.matches(it) }).isEmpty()
    }

    @Test
    fun `all collector threads are the concurrent ones and the pause workers`() {
        assertThat((concurrent + "GC Thread#0" + "GC Thread#11").filter { GcThreads.ALL.matches(it) }).hasSize(concurrent.size + 2)
        assertThat(others.filter { GcThreads.ALL.matches(it) }).isEmpty()
    }

    @Test
    fun `the concurrent CPU sums the concurrent threads' time on a CPU in nanoseconds`(@TempDir proc: Path) {
        task(proc, 1, "java", 9_000_000_000)
        task(proc, 2, "GC Thread#0", 7_000_000_000)
        task(proc, 3, "G1 Conc#0", 1_500_000_000)
        task(proc, 4, "G1 Refine#0", 250_000_000)
        val tasks = GcThreads.ConcurrentTasks(proc)

        assertThat(tasks.cpuNs()).isEqualTo(1_750_000_000)
    }

    @Test
    fun `a thread keeps the kind it had when first seen, and one that ended leaves the sum`(@TempDir proc: Path) {
        task(proc, 3, "ZWorker#0", 100)
        task(proc, 4, "ZDriver", 20)
        val tasks = GcThreads.ConcurrentTasks(proc)
        assertThat(tasks.cpuNs()).isEqualTo(120)

        Files.writeString(proc.resolve("3/schedstat"), "160 5 6\n")
        Files.writeString(proc.resolve("3/comm"), "renamed\n")
        proc.resolve("4").toFile().deleteRecursively()

        assertThat(tasks.cpuNs()).isEqualTo(160)
    }

    @Test
    fun `a thread that had no collector's name when first seen is read once more, then kept as it was`(@TempDir proc: Path) {
        // A new thread carries its creator's name for a moment before it names itself.
        task(proc, 7, "G1 Main Marker", 10)
        task(proc, 8, "java", 500)
        val tasks = GcThreads.ConcurrentTasks(proc)
        assertThat(tasks.cpuNs()).isEqualTo(10)

        Files.writeString(proc.resolve("8/comm"), "G1 Conc#1\n")
        assertThat(tasks.cpuNs()).isEqualTo(510)

        task(proc, 9, "java", 40)
        assertThat(tasks.cpuNs()).isEqualTo(510)
        Files.writeString(proc.resolve("9/comm"), "grpc-default-ex\n")
        assertThat(tasks.cpuNs()).isEqualTo(510)
        Files.writeString(proc.resolve("9/comm"), "G1 Conc#2\n")
        assertThat(tasks.cpuNs()).describedAs("named no collector's at two readings: kept as such").isEqualTo(510)
    }

    @Test
    fun `without schedstat or without the task folder the figure is unknown, not zero`(@TempDir proc: Path) {
        task(proc, 3, "G1 Conc#0", 100)
        Files.delete(proc.resolve("3/schedstat"))

        assertThat(GcThreads.ConcurrentTasks(proc).cpuNs()).isNull()
        assertThat(GcThreads.ConcurrentTasks(proc.resolve("absent")).cpuNs()).isNull()
    }

    @Test
    fun `this JVM's concurrent CPU reads from proc on Linux`() {
        val linux = Files.isDirectory(Path.of("/proc/self/task"))

        assertThat(GcThreads.concurrentCpuNs())
            .satisfies({ if (linux) assertThat(it).isNotNull().isNotNegative() else assertThat(it).isNull() })
    }

    private fun task(proc: Path, id: Int, name: String, runtimeNs: Long) {
        val dir = Files.createDirectories(proc.resolve(id.toString()))
        Files.writeString(dir.resolve("comm"), "$name\n")
        Files.writeString(dir.resolve("schedstat"), "$runtimeNs 12345 67\n")
    }
}
