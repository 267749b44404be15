package io.protobench.bench.lab

import java.nio.file.Files
import java.nio.file.Path
import java.util.Properties
import java.util.concurrent.TimeUnit

/** What a run was measured on: machine, JVM, library and tool versions, source revision. */
object Environment {
    fun capture(projectDir: Path, loadGenerator: String, jvmOptions: List<String>, processes: List<String> = CpuPlacement.PROCESSES): Map<String, Any?> = linkedMapOf(
        "cpuModel" to cpuModel(),
        "cpuCores" to Runtime.getRuntime().availableProcessors(),
        "memoryTotalMb" to memTotalMb(),
        "kernel" to read("/proc/sys/kernel/osrelease"),
        "os" to "${System.getProperty("os.name")} ${System.getProperty("os.arch")}",
        "jdk" to "${System.getProperty("java.vendor")} ${System.getProperty("java.runtime.version")}",
        "serverJvmOptions" to jvmOptions,
        LOAD_GENERATOR to loadGenerator,
        "libraries" to libraryVersions(),
        "gitCommit" to git(projectDir, "rev-parse", "HEAD"),
        "gitDirty" to git(projectDir, "status", "--porcelain")?.let { it.isNotBlank() },
        "processesSharingCpus" to CpuPlacement.sharing(processes),
    )

    /** The key of the load generator's name and version (`k6` in records before the lab's own driver). */
    const val LOAD_GENERATOR = "loadGenerator"

    /** The load generator [environment] names, whichever key its record used. */
    fun loadGenerator(environment: Map<String, Any?>): Any? =
        environment[LOAD_GENERATOR] ?: environment["k6"]?.toString()?.let { if (it.startsWith("k6")) it else "k6 $it" }

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
