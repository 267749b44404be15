package io.protobench.bench.runner

import java.net.InetAddress
import java.net.ServerSocket
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** The data-server and the gateway as child JVMs on free loopback ports. */
class ServerSet(
    val gatewayUrl: String,
    val ports: Map<String, Int>,
    val commands: Map<String, List<String>>,
    private val processes: List<Process>,
    private val children: ChildProcesses,
) : AutoCloseable {
    val pids: Map<String, Long> get() = mapOf("data-server" to processes[0].pid(), "api-server" to processes[1].pid())

    fun allAlive(): Boolean = processes.all { it.isAlive }

    /** Stops the gateway first, then the data-server; kills what does not stop within 10 s. */
    override fun close() {
        processes.reversed().forEach { process ->
            process.destroy()
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
            children.forget(process)
        }
    }
}

class ServerStartFailed(message: String) : RuntimeException(message)

/**
 * A server refused a setting it was given (`--gateway`/`--data-server`): bad input, not
 * bad luck, so the run stops at once instead of trying another fork.
 */
class ServerSettingRejected(message: String) : RuntimeException(message)

/**
 * Starts both servers. [jvmOptions] go to both JVMs (default: a fixed 1 GiB heap so
 * heap growth does not differ between protocols); [gatewayArguments] are extra
 * Spring properties for the gateway (e.g. `--protobench.gateway.http.version=H2C`).
 */
class ServerLauncher(
    private val toolchain: Toolchain,
    private val logDir: Path,
    private val jvmOptions: List<String>,
    private val gatewayArguments: List<String> = emptyList(),
    private val dataServerArguments: List<String> = emptyList(),
    private val placement: CpuPlacement = CpuPlacement.plan(1, enabled = false),
    private val children: ChildProcesses,
    private val startTimeout: Duration = Duration.ofSeconds(120),
) {
    /** Both servers exit by themselves when this process is gone, however it died. */
    private val parentWatch = "--protobench.parent-pid=${ProcessHandle.current().pid()}"

    fun start(): ServerSet {
        val dataHttp = freePort()
        val dataGrpc = freePort()
        val gateway = freePort()
        val dataCommand = placement.wrap("data-server", listOf(toolchain.java.toString()) + jvmOptions + listOf(
            "-jar", toolchain.serverJar("data-server").toString(),
            "--server.port=$dataHttp", "--protobench.data.grpc.port=$dataGrpc", parentWatch,
        ) + dataServerArguments)
        val gatewayCommand = placement.wrap("api-server", listOf(toolchain.java.toString()) + jvmOptions + listOf(
            "-jar", toolchain.serverJar("api-server").toString(),
            "--server.port=$gateway",
            "--protobench.gateway.data-server.http-port=$dataHttp",
            "--protobench.gateway.data-server.grpc-port=$dataGrpc", parentWatch,
        ) + gatewayArguments)
        Files.createDirectories(logDir)
        // Both JVMs start at once: the gateway reaches the data-server only when asked.
        val data = launch(dataCommand, "data-server")
        val api = try { launch(gatewayCommand, "api-server") } catch (e: Exception) { data.destroyForcibly(); throw e }
        val set = ServerSet(
            gatewayUrl = "http://127.0.0.1:$gateway",
            ports = mapOf("gateway" to gateway, "data-server-http" to dataHttp, "data-server-grpc" to dataGrpc),
            commands = mapOf("data-server" to dataCommand, "api-server" to gatewayCommand),
            processes = listOf(data, api),
            children = children,
        )
        try {
            awaitHealthy(set, listOf("data-server" to data, "api-server" to api))
        } catch (e: Exception) {
            set.close()
            throw e
        }
        return set
    }

    private fun launch(command: List<String>, name: String): Process {
        val builder = ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logDir.resolve("$name.log").toFile()))
        ChildEnvironment.apply(builder)
        return builder.start().also(children::track)
    }

    private fun awaitHealthy(set: ServerSet, processes: List<Pair<String, Process>>) {
        val gateway = GatewayClient(set.gatewayUrl)
        val deadline = System.nanoTime() + startTimeout.toNanos()
        while (System.nanoTime() < deadline) {
            processes.firstOrNull { !it.second.isAlive }?.let { (name, process) ->
                val log = logDir.resolve("$name.log")
                rejectedSettings(log)?.let { throw ServerSettingRejected("$name refused its settings: $it") }
                throw ServerStartFailed("$name exited with code ${process.exitValue()} during start-up; " +
                    "last lines of $log:\n" + tail(log))
            }
            if (gateway.isHealthy()) return
            Thread.sleep(250)
        }
        throw ServerStartFailed("servers not healthy after ${startTimeout.seconds} s; see the logs in $logDir")
    }

    /** The servers' own one-line verdicts on unknown settings ("unknown setting 'x' (did you mean y?)"), if the log has any. */
    private fun rejectedSettings(log: Path): String? =
        runCatching { Files.readAllLines(log) }.getOrDefault(emptyList())
            .filter { "unknown setting '" in it }.map { it.substring(it.indexOf("unknown setting '")) }.distinct()
            .takeIf { it.isNotEmpty() }?.joinToString("; ")

    private fun tail(log: Path): String =
        runCatching { Files.readAllLines(log).takeLast(15).joinToString("\n") }.getOrDefault("(no log)")

    private fun freePort(): Int = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }
}
