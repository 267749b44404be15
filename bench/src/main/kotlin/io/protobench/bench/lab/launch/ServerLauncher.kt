package io.protobench.bench.lab.launch

import io.protobench.bench.database.RunDatabases
import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.lab.clients.DataServerClient
import io.protobench.bench.lab.clients.GatewayClient
import io.protobench.bench.lab.remote.ServedControl
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.network.HopNetworks
import io.protobench.bench.process.ChildEnvironment
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.run.Remote
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** The data-server and (unless the topology is direct) the gateway as child JVMs on free loopback ports. */
class ServerSet(
    /** Null when the load driver calls the data-server itself (`topology: direct`). */
    val gatewayUrl: String?,
    val ports: Map<String, Int>,
    val commands: Map<String, List<String>>,
    /** The data-server first, then the gateway when there is one. */
    private val processes: List<Process>,
    private val children: ChildProcesses,
    /** What serves only these servers and goes with them (the delay relays of a network profile). */
    private val companions: List<AutoCloseable> = emptyList(),
    /** Where the data-server's HTTP side is reached from here: across the link when a network profile puts one in between. */
    private val dataServerHttp: InetSocketAddress? = null,
    /** Where its gRPC side is reached from here, likewise (by the load driver in direct runs). */
    private val dataServerGrpcRoute: InetSocketAddress? = null,
    /** Each server's log, by name, for saying why one died. */
    private val logs: Map<String, Path> = emptyMap(),
    /** The postmaster of the PostgreSQL server the data-server writes to, when it does: its processes' CPU is counted too. */
    private val databasePid: Long? = null,
    /** A data-server another host runs (`--data-server HOST:HTTP:GRPC`): none of [processes], reached there. */
    private val remoteDataServer: Remote.DataServer? = null,
    /** The name of each of [processes], in order. */
    private val names: List<String> = SERVERS,
    /** The round trip of the link in front of the data-server, in ms (0 on loopback). */
    val linkRoundTripMs: Double = 0.0,
) : AutoCloseable {
    val pids: Map<String, Long> get() = names.zip(processes).associate { (name, process) -> name to process.pid() }

    /** Processes counted with all their descendants, by name: the database server's, when it runs apart. */
    val processTrees: Map<String, Long> get() = databasePid?.let { mapOf(CpuAccounting.DATABASE to it) }.orEmpty()

    /** The data-server's HTTP base URL, for the runner's own calls and for the driver in direct runs. */
    val dataServerUrl: String get() = remoteDataServer?.httpUrl
        ?: dataServerHttp?.let { "http://${it.address.hostAddress}:${it.port}" } ?: "http://127.0.0.1:${ports.getValue("data-server-http")}"

    /** The data-server's gRPC address (host:port). */
    val dataServerGrpc: String get() = remoteDataServer?.grpcAddress
        ?: dataServerGrpcRoute?.let { "${it.address.hostAddress}:${it.port}" } ?: "127.0.0.1:${ports.getValue("data-server-grpc")}"

    fun allAlive(): Boolean = processes.all { it.isAlive }

    /**
     * Why a trial failed when a server died under it, in its own words: "data-server exited
     * with code 3: Terminating due to java.lang.OutOfMemoryError: Java heap space". Null while
     * every server runs.
     */
    fun deathNotice(): String? {
        val (name, process) = names.zip(processes).firstOrNull { !it.second.isAlive } ?: return null
        val lastWords = logs[name]?.let { log -> runCatching { Files.readAllLines(log) }.getOrNull() }
            ?.takeLast(LOG_LINES_SEARCHED)?.lastOrNull { line -> DEATH_WORDS.any { it in line } }?.trim()
        return "$name exited with code ${process.exitValue()}" + (lastWords?.let { ": $it" } ?: "") +
            (logs[name]?.let { " (see $it)" } ?: "")
    }

    /**
     * Asks every server to stop at once, the gateway first, then waits for each; kills what does
     * not stop within [STOP_GRACE_SECONDS]. Nothing is measured after a fork ends, so nothing is
     * waited for: stopping them one after the other cost a fork a second or two, and a gateway
     * whose graceful shutdown hung for 10 s did once in five forks (docs/journal/2026-12-02-time-to-a-verdict.md).
     */
    override fun close() {
        processes.reversed().forEach { it.destroy() }
        processes.reversed().forEach { process ->
            if (!process.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
            children.forget(process)
        }
        companions.forEach { runCatching { it.close() } }
    }
}

private val SERVERS = listOf("data-server", "api-server")

/** How long a server that was asked to stop at the end of a fork may take before it is killed: it usually takes under one. */
private const val STOP_GRACE_SECONDS = 3L

/** How much of a dead server's log is searched for the reason, and the words that give one. */
private const val LOG_LINES_SEARCHED = 200
private val DEATH_WORDS = listOf("OutOfMemoryError", "Terminating", "Exception", "Error", "FATAL")

class ServerStartFailed(message: String) : RuntimeException(message)

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
    /** The java binary of each variant that names its own JDK. */
    private val variantJava: Map<String, Path> = emptyMap(),
    /** The shaped links to the data-server, the run's or a variant's; none = loopback beside the gateway. */
    private val networks: HopNetworks = HopNetworks.NONE,
    /**
     * Whether the scenario creates members. A data-server that only serves reads starts
     * without its write path, whose database layer would cost each start (3.8 s → 6.6 s)
     * and warm a larger JVM for nothing.
     */
    private val writes: Boolean = false,
    /** Where each variant's data-server writes members (H2 needs nothing; PostgreSQL the run's cluster). */
    private val databases: RunDatabases = RunDatabases.NONE,
    /** Servers another host runs, used instead of starting them here (see [Remote]). */
    private val remote: Remote? = null,
    /** `serve`'s control of [remote], when it answers: a fresh remote JVM before each fork. */
    private val servedControl: ServedControl? = null,
    private val progress: (String) -> Unit = {},
) {
    /** Both servers exit by themselves when this process is gone, however it died. */
    private val parentWatch = "--protobench.parent-pid=${ProcessHandle.current().pid()}"

    /**
     * Both servers with the run's settings, then [variant]'s (its JDK, heap, JVM options and
     * properties) when given; without [gateway], the data-server alone (`topology: direct`).
     * With [remote] servers only what the remote host does not run is started: a gateway in
     * front of a remote data-server, or nothing; first `serve` restarts them when it can.
     */
    fun start(variant: Variant? = null, gateway: Boolean = true): ServerSet {
        servedControl?.let { progress("remote: " + it.restart()) }
        when (remote) {
            is Remote.Gateway -> return ServerSet(remote.url, emptyMap(), emptyMap(), emptyList(), children, names = emptyList())

            is Remote.DataServer -> return if (gateway) {
                startGatewayFor(remote, variant)
            } else {
                ServerSet(null, emptyMap(), emptyMap(), emptyList(), children, remoteDataServer = remote, names = emptyList())
            }

            null -> Unit
        }
        if (!gateway) return startDataServerAlone(variant)
        val dataHttp = freePort()
        val dataGrpc = freePort()
        val gateway = freePort()
        val (dataCommand, links) = dataServerBehindLink(variant, dataHttp, dataGrpc)
        val (httpRoute, grpcRoute, relays) = links
        val gatewayCommand = gatewayCommand(variant, gateway, httpRoute.address.hostAddress, httpRoute.port, grpcRoute.port)
        Files.createDirectories(logDir)
        // Logs grow over the run: only what this start-up writes tells why it failed.
        val logStarts = listOf("data-server", "api-server").associateWith { runCatching { Files.size(log(it)) }.getOrDefault(0L) }
        // Both JVMs start at once: the gateway reaches the data-server only when asked.
        val data = try {
            launch(dataCommand, "data-server", databases.dataServerEnvironment(variant))
        } catch (e: Exception) {
            relays.forEach { it.close() }
            throw e
        }
        val api = try {
            launch(gatewayCommand, "api-server")
        } catch (e: Exception) {
            data.destroyForcibly()
            relays.forEach { it.close() }
            throw e
        }
        val set = ServerSet(
            gatewayUrl = "http://127.0.0.1:$gateway",
            ports = mapOf("gateway" to gateway, "data-server-http" to dataHttp, "data-server-grpc" to dataGrpc),
            commands = mapOf("data-server" to dataCommand, "api-server" to gatewayCommand),
            processes = listOf(data, api),
            children = children,
            companions = relays,
            dataServerHttp = httpRoute,
            linkRoundTripMs = links.roundTripMs,
            logs = mapOf("data-server" to log("data-server"), "api-server" to log("api-server")),
            databasePid = databases.postmasterPid(variant),
        )
        val gatewayClient = GatewayClient(set.gatewayUrl!!)
        return healthyOrClosed(set, listOf("data-server" to data, "api-server" to api), logStarts) { gatewayClient.isHealthy() }
    }

    /** The gateway on loopback in front of a data-server another host runs. */
    private fun startGatewayFor(remote: Remote.DataServer, variant: Variant?): ServerSet {
        val port = freePort()
        val command = gatewayCommand(variant, port, remote.host, remote.httpPort, remote.grpcPort)
        Files.createDirectories(logDir)
        val logStarts = mapOf("api-server" to runCatching { Files.size(log("api-server")) }.getOrDefault(0L))
        val api = launch(command, "api-server")
        val set = ServerSet(
            "http://127.0.0.1:$port",
            mapOf("gateway" to port),
            mapOf("api-server" to command),
            listOf(api),
            children,
            logs = mapOf("api-server" to log("api-server")),
            remoteDataServer = remote,
            names = listOf("api-server"),
        )
        val client = GatewayClient(set.gatewayUrl!!)
        return healthyOrClosed(set, listOf("api-server" to api), logStarts) { client.isHealthy() }
    }

    private fun gatewayCommand(variant: Variant?, port: Int, dataHost: String, dataHttp: Int, dataGrpc: Int): List<String> = placement.wrap(
        "api-server",
        listOf(java(variant)) + (variant?.jvmOptions(jvmOptions) ?: jvmOptions) + listOf(
            "-jar",
            toolchain.serverJar("api-server").toString(),
            "--server.port=$port",
            "--protobench.gateway.data-server.host=$dataHost",
            "--protobench.gateway.data-server.http-port=$dataHttp",
            "--protobench.gateway.data-server.grpc-port=$dataGrpc",
            parentWatch,
        ) + gatewayArguments + variant?.gatewayArguments().orEmpty(),
    )

    /** The data-server with nobody in front (the load driver calls it itself), on loopback or behind the variant's link. */
    private fun startDataServerAlone(variant: Variant?): ServerSet {
        val (http, grpc) = freePort() to freePort()
        val (command, links) = dataServerBehindLink(variant, http, grpc)
        val (httpRoute, grpcRoute, relays) = links
        Files.createDirectories(logDir)
        val logStarts = mapOf("data-server" to runCatching { Files.size(log("data-server")) }.getOrDefault(0L))
        val data = try {
            launch(command, "data-server", databases.dataServerEnvironment(variant))
        } catch (e: Exception) {
            relays.forEach { it.close() }
            throw e
        }
        val set = ServerSet(
            null, mapOf("data-server-http" to http, "data-server-grpc" to grpc), mapOf("data-server" to command), listOf(data), children,
            companions = relays, dataServerHttp = httpRoute, dataServerGrpcRoute = grpcRoute, linkRoundTripMs = links.roundTripMs,
            logs = mapOf("data-server" to log("data-server")), databasePid = databases.postmasterPid(variant),
        )
        val client = DataServerClient(set.dataServerUrl)
        return healthyOrClosed(set, listOf("data-server" to data), logStarts) { client.isHealthy() }
    }

    /** Where the data-server's two ports are reached from here, and the relays that carry them when the link's delay is the relay's. */
    private data class Routes(
        val http: InetSocketAddress,
        val grpc: InetSocketAddress,
        val relays: List<AutoCloseable>,
        val roundTripMs: Double,
    )

    /**
     * The data-server's command on [http] and [grpc]: on loopback, or inside the namespace
     * of [variant]'s link (the run's when it names none), reached across the link and its
     * relay, whoever calls it (the gateway, or the load driver in direct runs).
     */
    private fun dataServerBehindLink(variant: Variant?, http: Int, grpc: Int): Pair<List<String>, Routes> {
        val network = networks.forVariant(variant)
        val onLoopback = dataServerCommand(variant, http, grpc)
        val routes = listOf(http, grpc).map { port -> network?.route(port) ?: (InetSocketAddress("127.0.0.1", port) to null) }
        return (network?.dataServer(onLoopback) ?: onLoopback) to Routes(
            routes[0].first,
            routes[1].first,
            routes.mapNotNull { it.second },
            network?.roundTripMs ?: 0.0,
        )
    }

    private fun java(variant: Variant?) = (variant?.let { variantJava[it.name] } ?: toolchain.java).toString()

    private fun dataServerCommand(variant: Variant?, http: Int, grpc: Int): List<String> = placement.wrap(
        "data-server",
        listOf(java(variant)) + (variant?.jvmOptions(jvmOptions) ?: jvmOptions) + listOf(
            "-jar",
            toolchain.serverJar("data-server").toString(),
            "--server.port=$http",
            "--protobench.data.grpc.port=$grpc",
            parentWatch,
            "--protobench.data.members.enabled=$writes",
        ) + dataServerArguments + databases.dataServerArguments(variant) + variant?.dataServerArguments().orEmpty(),
    )

    private fun healthyOrClosed(
        set: ServerSet,
        processes: List<Pair<String, Process>>,
        logStarts: Map<String, Long>,
        healthy: () -> Boolean,
    ): ServerSet {
        try {
            awaitHealthy(processes, logStarts, healthy)
        } catch (e: Exception) {
            set.close()
            throw e
        }
        return set
    }

    private fun launch(command: List<String>, name: String, environment: Map<String, String> = emptyMap()): Process {
        val builder = ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log(name).toFile()))
        ChildEnvironment.apply(builder, environment)
        return builder.start().also(children::track)
    }

    private fun log(name: String): Path = logDir.resolve("$name.log")

    private fun awaitHealthy(processes: List<Pair<String, Process>>, logStarts: Map<String, Long>, healthy: () -> Boolean) {
        val deadline = System.nanoTime() + startTimeout.toNanos()
        while (System.nanoTime() < deadline) {
            processes.firstOrNull { !it.second.isAlive }?.let { (name, process) ->
                val lines = linesSince(log(name), logStarts[name] ?: 0)
                rejectedSettings(lines)?.let { throw ServerSettingRejected(Texts.EN("rejected.settings", name, it)) }
                jvmRefusal(lines)?.let { throw ServerSettingRejected(Texts.EN("rejected.jvm", name, it)) }
                throw ServerStartFailed(
                    "$name exited with code ${process.exitValue()} during start-up; " +
                        "last lines of ${log(name)}:\n" + lines.takeLast(15).joinToString("\n").ifEmpty { "(no output)" },
                )
            }
            if (healthy()) return
            Thread.sleep(250)
        }
        throw ServerStartFailed("servers not healthy after ${startTimeout.seconds} s; see the logs in $logDir")
    }

    private fun linesSince(log: Path, offset: Long): List<String> = runCatching {
        val bytes = Files.readAllBytes(log)
        String(bytes, minOf(offset, bytes.size.toLong()).toInt(), (bytes.size - minOf(offset, bytes.size.toLong())).toInt()).lines()
    }.getOrDefault(emptyList())

    /** The servers' own one-line verdicts on unknown settings ("unknown setting 'x' (did you mean y?)"), if the log has any. */
    private fun rejectedSettings(lines: List<String>): String? =
        lines.filter { "unknown setting '" in it }.map { it.substring(it.indexOf("unknown setting '")) }.distinct()
            .takeIf { it.isNotEmpty() }?.joinToString("; ")

    /**
     * The JVM's own words when it would not start with its options ("Unrecognized VM option
     * 'UseZGCX'", "Invalid maximum heap size: -Xmx2q"): bad input, not bad luck.
     */
    private fun jvmRefusal(lines: List<String>): String? {
        if (lines.none { JVM_REFUSED in it }) return null
        return lines.map { line -> JVM_BOILERPLATE.fold(line) { l, phrase -> l.replace(phrase, "") }.trim() }
            .filter { it.isNotEmpty() }.takeLast(3).joinToString("; ").ifEmpty { JVM_REFUSED }
    }

    private fun freePort(): Int = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }

    private companion object {
        /** What the java launcher prints, last, when the options it was given stop the JVM from starting. */
        const val JVM_REFUSED = "Could not create the Java Virtual Machine"
        val JVM_BOILERPLATE = listOf(
            "Error: Could not create the Java Virtual Machine.",
            "Error: A fatal exception has occurred. Program will exit.",
        )
    }
}
