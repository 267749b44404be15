package io.protobench.bench.lab

import io.protobench.bench.lab.launch.CpuPlacement
import io.protobench.bench.measure.RunEnvironment
import java.nio.file.Files
import java.nio.file.Path
import java.util.Properties
import java.util.concurrent.TimeUnit

/** What a run was measured on: machine, JVM, library and tool versions, source revision. */
object Environment {
    fun capture(projectDir: Path, loadGenerator: String, jvmOptions: List<String>, processes: List<String> = CpuPlacement.PROCESSES) =
        RunEnvironment(
            cpuModel = cpuModel(),
            cpuCores = Runtime.getRuntime().availableProcessors(),
            memoryTotalMb = memTotalMb(),
            kernel = read("/proc/sys/kernel/osrelease"),
            os = "${System.getProperty("os.name")} ${System.getProperty("os.arch")}",
            jdk = "${System.getProperty("java.vendor")} ${System.getProperty("java.runtime.version")}",
            serverJvmOptions = jvmOptions,
            loadGenerator = loadGenerator,
            libraries = libraryVersions(),
            gitCommit = git(projectDir, "rev-parse", "HEAD"),
            gitDirty = git(projectDir, "status", "--porcelain")?.let { it.isNotBlank() },
            processesSharingCpus = CpuPlacement.sharing(processes),
            schedAutogroup = schedAutogroup(),
            cpuIdle = cpuIdle(),
        )

    /** `kernel.sched_autogroup_enabled` as a flag; null where this kernel has no autogroup. */
    fun schedAutogroup(setting: Path = Path.of(AUTOGROUP)): Boolean? = readTrimmed(setting)?.toIntOrNull()?.let { it != 0 }

    private const val AUTOGROUP = "/proc/sys/kernel/sched_autogroup_enabled"

    /**
     * How idle cores wait: the cpuidle driver, and where it is the guest's `haltpoll`, how long
     * it polls before halting ("haltpoll, polls 0 ns before halting"). Null where Linux does not say.
     */
    fun cpuIdle(cpuidle: Path = Path.of(CPUIDLE), haltpoll: Path = Path.of(HALTPOLL)): String? {
        val driver = readTrimmed(cpuidle.resolve("current_driver"))?.takeIf { it.isNotEmpty() && it != "none" } ?: return null
        val pollNs = if (driver == "haltpoll") readTrimmed(haltpoll.resolve("guest_halt_poll_ns"))?.toLongOrNull() else null
        return pollNs?.let { "$driver, polls $it ns before halting" } ?: driver
    }

    private fun readTrimmed(file: Path): String? = runCatching { Files.readString(file).trim() }.getOrNull()

    private const val CPUIDLE = "/sys/devices/system/cpu/cpuidle"
    private const val HALTPOLL = "/sys/module/haltpoll/parameters"

    private fun cpuModel(): String? = runCatching {
        Files.readAllLines(Path.of("/proc/cpuinfo")).firstOrNull { it.startsWith("model name") }?.substringAfter(":")?.trim()
    }.getOrNull()

    private fun memTotalMb(): Long? = runCatching {
        Files.readAllLines(Path.of("/proc/meminfo")).first { it.startsWith("MemTotal") }
            .filter { it.isDigit() }.toLong() / 1024
    }.getOrNull()

    private fun read(path: String): String? = runCatching { Files.readString(Path.of(path)).trim() }.getOrNull()

    /** Versions written into versions.properties by the build (Maven resource filtering). */
    fun libraryVersions(): Map<String, String> {
        val properties = Properties()
        Environment::class.java.getResourceAsStream("/versions.properties")?.use(properties::load)
        return properties.stringPropertyNames().sorted().associateWith { properties.getProperty(it) }
    }

    private fun git(dir: Path, vararg args: String): String? = runCatching {
        val process = ProcessBuilder(listOf("git", "-C", dir.toString()) + args).redirectErrorStream(false).start()
        val out = process.inputStream.bufferedReader().readText().trim()
        if (process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0) out else null
    }.getOrNull()
}
