package io.protobench.bench.serve

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import io.protobench.contract.Json
import io.protobench.contract.server.LoopbackOnly
import java.net.InetSocketAddress
import java.util.concurrent.Executors

/**
 * `protobench serve`'s control, beside the server it supervises: `GET /serve` says which
 * server runs and how many JVMs have been started; `POST /serve/restart` gives a fresh one
 * ([Supervisor.restart]) and answers once it is healthy (503 with the reason when it is
 * not). It answers the names the server's own control endpoints answer ([extraHosts]
 * besides loopback), and no cross-site browser request.
 */
class ControlEndpoint(
    private val server: String,
    private val supervisor: Supervisor,
    address: InetSocketAddress,
    private val extraHosts: Set<String> = emptySet(),
) : AutoCloseable {
    private val json = Json.newMapper()
    private val http: HttpServer = HttpServer.create(address, 0).apply {
        // One restart at a time anyway; a status call must not wait behind one.
        executor = Executors.newFixedThreadPool(2) { Thread(it, "serve-control").apply { isDaemon = true } }
        createContext(PATH) { exchange ->
            try {
                handle(exchange)
            } finally {
                exchange.close()
            }
        }
        start()
    }

    /** The port it listens on (the one asked for, or the one given for port 0). */
    val port: Int get() = http.address.port

    private fun handle(exchange: HttpExchange) {
        val headers = exchange.requestHeaders
        LoopbackOnly.refusal(headers.getFirst("Host"), headers.getFirst("Origin"), headers.getFirst("Sec-Fetch-Site"), extraHosts)?.let {
            return answer(exchange, 403, mapOf("error" to it))
        }
        when (exchange.requestMethod to exchange.requestURI.path.removeSuffix("/")) {
            "GET" to PATH -> answer(exchange, 200, mapOf("server" to server, "starts" to supervisor.starts))
            "POST" to "$PATH/restart" -> restart(exchange)
            else -> answer(exchange, 404, mapOf("error" to "accepted: GET $PATH, POST $PATH/restart"))
        }
    }

    private fun restart(exchange: HttpExchange) = try {
        val restarted = supervisor.restart()
        answer(
            exchange,
            200,
            mapOf(
                "server" to server,
                "pid" to restarted.pid,
                "starts" to restarted.starts,
                "seconds" to restarted.seconds,
                "alsoRestarted" to supervisor.alsoRestarted,
            ),
        )
    } catch (e: Exception) {
        answer(exchange, 503, mapOf("error" to "$server: ${e.message ?: e.javaClass.simpleName}"))
    }

    private fun answer(exchange: HttpExchange, status: Int, body: Map<String, Any?>) {
        val bytes = json.writeValueAsBytes(body)
        exchange.responseHeaders.add("Content-Type", "application/json")
        exchange.sendResponseHeaders(status, bytes.size.toLong())
        exchange.responseBody.use { it.write(bytes) }
    }

    override fun close() = http.stop(0)

    companion object {
        const val PATH = "/serve"

        /** Where the control listens: the server's HTTP port plus this, so the load host finds it from the address it is given. */
        const val PORT_OFFSET = 10

        fun portFor(httpPort: Int) = httpPort + PORT_OFFSET
    }
}
