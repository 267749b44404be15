package io.protobench.apiserver.support

import com.sun.net.httpserver.HttpServer
import org.springframework.test.context.DynamicPropertyRegistry
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import kotlin.concurrent.thread

/**
 * A stand-in data-server that serves nothing and counts what reaches it: the paths of
 * HTTP requests (each answered 503) and the connections opened to its gRPC port.
 */
class CountingDataServer : AutoCloseable {
    private val http = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0).apply {
        createContext("/") { exchange ->
            httpPaths += exchange.requestURI.path
            exchange.sendResponseHeaders(503, -1)
            exchange.close()
        }
        start()
    }
    private val grpc = ServerSocket(0, 50, InetAddress.getLoopbackAddress())

    /** Paths of the HTTP requests received, in order. */
    val httpPaths: MutableList<String> = CopyOnWriteArrayList()

    /** Connections accepted on the gRPC port. */
    val grpcConnections = AtomicInteger()

    init {
        thread(isDaemon = true, name = "counting-grpc-port") {
            while (!grpc.isClosed) {
                runCatching { grpc.accept().use { grpcConnections.incrementAndGet() } }
            }
        }
    }

    fun register(registry: DynamicPropertyRegistry) {
        registry.add("protobench.gateway.data-server.http-port") { http.address.port }
        registry.add("protobench.gateway.data-server.grpc-port") { grpc.localPort }
    }

    override fun close() {
        http.stop(0)
        grpc.close()
    }
}
