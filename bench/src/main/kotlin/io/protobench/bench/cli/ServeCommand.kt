package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.choice
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.lab.clients.ControlHttp
import io.protobench.bench.lab.launch.Jdks
import io.protobench.bench.lab.launch.NoSuchJdk
import io.protobench.bench.lab.launch.Toolchain
import io.protobench.bench.lab.launch.ToolchainProblem
import io.protobench.bench.lab.remote.ServedControl
import io.protobench.bench.run.InvalidRemote
import io.protobench.bench.run.Remote
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.serve.ControlEndpoint
import io.protobench.bench.serve.Supervisor
import io.protobench.contract.server.LoopbackOnly
import java.net.InetAddress
import java.net.InetSocketAddress

/**
 * One server in the foreground, for a run whose load side is another host (the `remote`
 * topology): `protobench run … --data-server HOST:HTTP:GRPC` starts a gateway per fork in
 * front of a data-server served here; `--gateway URL` measures a gateway served here
 * (with its own data-server). Beside it listens serve's control ([ControlEndpoint], on the
 * HTTP port + 10), through which the run restarts the server before each fork. The server
 * stops with Ctrl-C, or when this command is killed.
 */
class ServeCommand : CliktCommand(name = "serve") {
    override fun help(context: Context) =
        "Run one server in the foreground for a run on another host: `serve data-server` for `run --data-server HOST:HTTP:GRPC`, " +
            "`serve api-server --data-server HOST:HTTP:GRPC` for `run --gateway http://HOST:PORT`. " +
            "Listens on loopback unless --bind names another address (a warning is printed: the servers have no authentication)."

    private val server by argument("SERVER").choice(DATA_SERVER, GATEWAY)
    private val bind by option("--bind", help = "Address to listen on (default 127.0.0.1)").default("127.0.0.1")
    private val port by option("--port", help = "HTTP port (default: data-server 8081, api-server 8080)").int()
    private val grpcPort by option("--grpc-port", help = "data-server only: gRPC port (default 9091)").int()
    private val dataServer by option(
        "--data-server",
        help = "api-server only: HOST:HTTP:GRPC of its data-server (default 127.0.0.1:8081:9091)",
    )
    private val reachableAs by option(
        "--reachable-as",
        help = "Host name or address by which the load host reaches this server, " +
            "when it is not --bind (repeatable): the control and internal endpoints answer only the names they are told",
    ).multiple()
    private val properties by option("--property", help = "Spring property for the server, name=value (repeatable)").multiple()
    private val jvmOptions by option("--jvm-opt", help = "JVM option (repeatable; default -Xms1g -Xmx1g)").multiple()
    private val serverJava by option(
        "--server-java",
        help = "JDK for the server: an installed feature release (17, 25) or a path (default: the JDK running protobench)",
    )
    private val noRestarts by option(
        "--no-restarts",
        help = "Keep one server JVM for every fork: no control on the HTTP port + ${ControlEndpoint.PORT_OFFSET} " +
            "(by default a run restarts the server through it before each fork)",
    ).flag()

    override fun run() {
        val address = checkedInput()
        val toolchain = Toolchain(projectDir(), serverJava?.let(::javaOf))
        val jar = try {
            toolchain.serverJar(server)
        } catch (e: ToolchainProblem) {
            fail("cannot serve: ${e.message}")
        }
        if (!address.isLoopbackAddress) {
            echo(
                "warning: $server listens on $bind, reachable from other hosts; " +
                    "it has no authentication and answers anyone who can reach it: " +
                    "use it only on a network you trust",
                err = true,
            )
        }
        val command = listOf(toolchain.java.toString()) + jvmOptions.ifEmpty { ServerHeap.DEFAULT_JVM_OPTIONS } +
            listOf("-XX:+ExitOnOutOfMemoryError", "-jar", jar.toString(), "--protobench.parent-pid=${ProcessHandle.current().pid()}") +
            serverArguments() + internalHosts(address) + properties.map { "--$it" }
        val supervisor = Supervisor({ ProcessBuilder(command).inheritIO().start() }, ::healthy, beforeRestart = ::restartDataServerFirst)
        // The control first: a port it cannot have is told before any JVM starts.
        val control = if (noRestarts) null else control(address, supervisor)
        echo("$server on $bind: ${usage(address)}")
        control?.let {
            echo("restarted before each fork of a run through serve's control on port ${it.port} (--no-restarts keeps one JVM)")
        }
        supervisor.start()
        Runtime.getRuntime().addShutdownHook(
            Thread {
                control?.close()
                supervisor.stop()
            },
        )
        val exit = supervisor.awaitExit()
        if (exit != 0) throw ProgramResult(exit)
    }

    private fun httpPort() = port ?: if (server == DATA_SERVER) 8081 else 8080

    /** The control beside the HTTP port, answering the names the server's own control endpoints answer. */
    private fun control(address: InetAddress, supervisor: Supervisor): ControlEndpoint {
        val controlPort = ControlEndpoint.portFor(httpPort())
        return try {
            ControlEndpoint(server, supervisor, InetSocketAddress(address, controlPort), internalNames(address).toSet())
        } catch (e: java.io.IOException) {
            fail(
                "serve's control cannot listen on $bind port $controlPort " +
                    "(the HTTP port + ${ControlEndpoint.PORT_OFFSET}): ${e.message}; " +
                    "free that port, pick another --port, or give --no-restarts",
            )
        }
    }

    /** Whether the served server answers its health check, asked on the address it listens on (loopback when it listens on all). */
    private fun healthy(): Boolean = healthCheck.answers(if (server == DATA_SERVER) "/actuator/health" else "/api/health")

    private val healthCheck by lazy {
        val host = InetAddress.getByName(bind).let { if (it.isAnyLocalAddress) "127.0.0.1" else bracketed(bind) }
        ControlHttp("http://$host:${httpPort()}")
    }

    /**
     * The gateway's restart starts with its data-server's, when that one's serve answers: a
     * fork on the load host is then a fresh pair, as on one host. Names what it restarted.
     */
    private fun restartDataServerFirst(): List<String> {
        if (server != GATEWAY) return emptyList()
        val data = ServedControl(Remote.dataServer(dataServer ?: DEFAULT_DATA_SERVER).controlUrl)
        if (!data.available()) return emptyList()
        data.restart()
        return listOf(DATA_SERVER)
    }

    /** The server's own settings: where it listens, and for the gateway where its data-server is. */
    private fun serverArguments(): List<String> = when (server) {
        DATA_SERVER -> listOf(
            "--server.address=$bind",
            "--server.port=${httpPort()}",
            "--protobench.data.grpc.address=$bind",
            "--protobench.data.grpc.port=${grpcPort ?: 9091}",
        )

        else -> {
            val data = Remote.dataServer(dataServer ?: DEFAULT_DATA_SERVER)
            listOf(
                "--server.address=$bind",
                "--server.port=${httpPort()}",
                "--protobench.gateway.data-server.host=${data.host}",
                "--protobench.gateway.data-server.http-port=${data.httpPort}",
                "--protobench.gateway.data-server.grpc-port=${data.grpcPort}",
            )
        }
    }

    /**
     * The names besides loopback by which the runner (and, for a data-server, the gateway)
     * reads `/benchmark` and `/internal`: the bind address unless it is every interface,
     * and each --reachable-as.
     */
    private fun internalHosts(address: InetAddress): List<String> {
        val names = internalNames(address)
        return if (names.isEmpty()) emptyList() else listOf("--protobench.internal-hosts=${names.joinToString(",")}")
    }

    private fun internalNames(address: InetAddress): List<String> = (
        listOfNotNull(
            bind.takeUnless {
                address.isAnyLocalAddress ||
                    address.isLoopbackAddress
            },
        ) +
            reachableAs
        )
        .map(::bracketed).distinct()

    /** A host name, an IPv4 address or an IPv6 literal (bracketed or not), with no port. */
    private fun isNameWithoutPort(name: String): Boolean {
        val unbracketedIpv6 = ':' in name && !name.startsWith("[")
        return LoopbackOnly.isHostName(bracketed(name)) &&
            (!unbracketedIpv6 || runCatching { InetAddress.getByName(name) is java.net.Inet6Address }.getOrDefault(false))
    }

    private fun bracketed(name: String) = if (':' in name && !name.startsWith("[")) "[$name]" else name

    /** What to type on the load host, with the name it reaches this server by. */
    private fun usage(address: InetAddress): String {
        val host = bracketed(reachableAs.firstOrNull() ?: bind.takeUnless { address.isAnyLocalAddress } ?: "<this host>")
        val where = if (address.isLoopbackAddress) "on this machine" else "on the load host"
        return when (server) {
            DATA_SERVER -> "$where, `protobench run <scenario> --data-server $host:${httpPort()}:${grpcPort ?: 9091}`"
            else -> "$where, `protobench run <scenario> --gateway http://$host:${httpPort()}`"
        }
    }

    /** Every option checked before anything starts: the bind address, ports in range, options that belong to the other server. */
    private fun checkedInput(): InetAddress {
        listOfNotNull(port?.let { "--port" to it }, grpcPort?.let { "--grpc-port" to it }).forEach { (flag, value) ->
            if (value !in 1..65535) fail("$flag $value: accepted: a TCP port from 1 to 65535")
        }
        if (!noRestarts && ControlEndpoint.portFor(httpPort()) > 65535) {
            fail(
                "--port ${httpPort()}: serve's control listens on the HTTP port + ${ControlEndpoint.PORT_OFFSET}, above 65535; " +
                    "pick a lower port or give --no-restarts",
            )
        }
        if (grpcPort != null && server != DATA_SERVER) fail("--grpc-port: only the data-server serves gRPC")
        if (dataServer != null && server != GATEWAY) fail("--data-server: only the api-server (the gateway) has a data-server behind it")
        dataServer?.let { text ->
            try {
                Remote.dataServer(text)
            } catch (e: InvalidRemote) {
                fail(e.message!!)
            }
        }
        properties.firstOrNull { !it.matches(SPRING_PROPERTY) }?.let {
            fail("--property $it: accepted: a Spring property as name=value, e.g. protobench.data.grpc.executor=direct")
        }
        reachableAs.firstOrNull { !isNameWithoutPort(it) }?.let {
            fail("--reachable-as $it: accepted: a host name or address without a port, e.g. bench-db.lan, 10.0.0.2 or fd00::2")
        }
        val address = try {
            InetAddress.getByName(bind)
        } catch (e: Exception) {
            fail("--bind $bind: cannot be resolved (${e.message}); accepted: an IP address or host name, e.g. 127.0.0.1 or 10.0.0.2")
        }
        if (address.isAnyLocalAddress && reachableAs.isEmpty()) {
            fail(
                "--bind $bind listens on every interface: name the address or host name the load host will use with --reachable-as, " +
                    "since the control and internal endpoints answer only names they are told",
            )
        }
        return address
    }

    private fun javaOf(text: String) = try {
        Jdks().resolve(text).java
    } catch (e: NoSuchJdk) {
        fail("--server-java $text: ${e.message}")
    }

    private fun fail(message: String): Nothing {
        echo("protobench serve: $message", err = true)
        throw ProgramResult(2)
    }

    private companion object {
        const val DATA_SERVER = "data-server"
        const val GATEWAY = "api-server"
        const val DEFAULT_DATA_SERVER = "127.0.0.1:8081:9091"
    }
}
