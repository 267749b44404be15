package io.protobench.bench.lab.launch

import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** A required tool is missing or unusable; the message says what to install. */
class ToolchainProblem(message: String) : RuntimeException(message)

/**
 * Finds the programs a run needs: the JVM for the servers, their jars and the load driver's,
 * and seed 003's own Go tools, installed with `go install` into `<project>/tools/bin`
 * (git-ignored) when a scenario runs them, as the tests install kubeconform.
 */
class Toolchain(private val projectDir: Path, serverJava: Path? = null) {

    /**
     * The java binary for the servers: [serverJava] when given, else the JVM running this command (17 or newer, checked by the wrapper).
     */
    val java: Path = serverJava ?: Path.of(System.getProperty("java.home"), "bin", "java")

    /** `java -version` of the servers' JVM, for the environment record. */
    fun javaVersion(): String = runCatching {
        val process = ProcessBuilder(java.toString(), "-version").redirectErrorStream(true).start()
        process.inputStream.bufferedReader().readText().trim().lines().joinToString("; ").also { process.waitFor(10, TimeUnit.SECONDS) }
    }.getOrElse { "unknown (${it.message})" }

    fun serverJar(module: String): Path {
        val target = projectDir.resolve(module).resolve("target")
        val jar = Files.list(target.takeIf { Files.isDirectory(it) } ?: throw missingJar(module)).use { files ->
            files.filter { it.fileName.toString().matches(Regex("$module-.*-exec\\.jar")) }.findFirst().orElse(null)
        }
        return jar ?: throw missingJar(module)
    }

    private fun missingJar(module: String) = ToolchainProblem(
        "no runnable jar for $module under $module/target: build it with `mvn -B -DskipTests package` " +
            "(the ./protobench wrapper does this for you)",
    )

    /**
     * [binary] under `tools/bin`, installed there first with `go install <command>@<version>`
     * when it is missing or was installed at another version (`tools/bin/<binary>.version`
     * records what `go install` was given; a binary without that record is taken as it is).
     * [command] is the Go package of the command, e.g. `github.com/yannh/kubeconform/cmd/kubeconform`.
     */
    fun goInstalled(binary: String, command: String, version: String, log: (String) -> Unit): Path {
        val local = projectDir.resolve("tools/bin/$binary")
        val stamp = local.resolveSibling("$binary.version")
        val wanted = "$command@$version"
        if (Files.isExecutable(local) && (!Files.exists(stamp) || Files.readString(stamp).trim() == wanted)) return local
        val go = onPath("go") ?: Path.of("/usr/local/go/bin/go").takeIf {
            Files.isExecutable(it)
        } ?: throw ToolchainProblem(
            "$binary is not installed and Go is not on PATH to install it: install Go 1.22 or newer " +
                "(https://go.dev/doc/install) or $binary $version, then run again",
        )
        log("installing $binary $version with go install (one time, a few minutes)...")
        Files.createDirectories(local.parent)
        val installLog = projectDir.resolve("tools/$binary-install.log")
        val process = ProcessBuilder(go.toString(), "install", wanted)
            .also { it.environment()["GOBIN"] = local.parent.toAbsolutePath().toString() }
            .redirectErrorStream(true)
            .redirectOutput(installLog.toFile())
            .start()
        if (!process.waitFor(20, TimeUnit.MINUTES) || process.exitValue() != 0 || !Files.isExecutable(local)) {
            throw ToolchainProblem("installing $binary with `go install $wanted` failed; see $installLog")
        }
        Files.writeString(stamp, wanted + "\n")
        return local
    }

    private fun onPath(name: String): Path? = System.getenv("PATH").orEmpty().split(File.pathSeparator)
        .map { Path.of(it, name) }.firstOrNull { Files.isExecutable(it) }
}
