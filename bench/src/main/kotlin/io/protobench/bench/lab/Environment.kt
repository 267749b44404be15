package io.protobench.bench.lab

import io.protobench.bench.measure.RunEnvironment
import java.nio.file.Files
import java.nio.file.Path
import java.util.Properties
import java.util.concurrent.TimeUnit

/** What a run was measured on: machine, JVM, library and tool versions, source revision. */
object Environment {
    fun capture(projectDir: Path, loadGenerator: String, jvmOptions: List<String>, processes: List<String> = CpuPlacement.PROCESSES) = RunEnvironment(
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
    )

    /** `kernel.sched_autogroup_enabled` as a flag; null where this kernel has no autogroup. */
    fun schedAutogroup(setting: Path = Path.of(AUTOGROUP)): Boolean? =
        runCatching { Files.readString(setting).trim() }.getOrNull()?.let { it.toIntOrNull()?.let { value -> value != 0 } }

    private const val AUTOGROUP = "/proc/sys/kernel/sched_autogroup_enabled"

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
