package io.protobench.bench.serve

import io.protobench.bench.lab.remote.ServedControl
import io.protobench.bench.lab.remote.ServedRestartFailed
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.Socket
import java.time.Duration

@Tag(PROCESS)
class ControlEndpointTest {
    private val launched = mutableListOf<Process>()
    private val endpoints = mutableListOf<ControlEndpoint>()

    private fun sleeper(): Process = ProcessBuilder("sleep", "300").start().also { launched += it }

    @AfterEach
    fun stopAll() {
        endpoints.forEach { it.close() }
        launched.forEach { it.destroyForcibly() }
    }

    private fun endpoint(supervisor: Supervisor): ControlEndpoint =
        ControlEndpoint("data-server", supervisor, InetSocketAddress(InetAddress.getLoopbackAddress(), 0), setOf("bench-db.lan"))
            .also { endpoints += it }

    @Test
    fun `the runner finds serve's control and gets a fresh JVM from it`() {
        val supervisor = Supervisor(::sleeper, healthy = { true })
        val first = supervisor.start()
        val control = ServedControl("http://127.0.0.1:${endpoint(supervisor).port}")

        assertThat(control.available()).isTrue()
        val said = control.restart()

        assertThat(said).startsWith("data-server restarted (pid ${launched.last().pid()}, JVM 2 of serve,")
        assertThat(first.isAlive).isFalse()
    }

    @Test
    fun `a restart that fails is told to the runner with the reason`() {
        val supervisor = Supervisor(::sleeper, healthy = { false }, startTimeout = Duration.ofMillis(500))
        supervisor.start()
        val control = ServedControl("http://127.0.0.1:${endpoint(supervisor).port}")

        assertThatThrownBy { control.restart() }.isInstanceOf(ServedRestartFailed::class.java)
            .hasMessageContaining("did not restart its server: data-server: the fresh server did not answer its health check")
    }

    @Test
    fun `no control where serve does not listen`() {
        val closed = java.net.ServerSocket(0).use { it.localPort }
        assertThat(ServedControl("http://127.0.0.1:$closed").available()).isFalse()
    }

    @Test
    fun `a request for another host name or from a foreign page is refused, the names serve was told are answered`() {
        val supervisor = Supervisor(::sleeper, healthy = { true })
        supervisor.start()
        val port = endpoint(supervisor).port

        assertThat(statusOf(port, "POST /serve/restart", "Host: evil.example")).isEqualTo(403)
        assertThat(statusOf(port, "POST /serve/restart", "Host: 127.0.0.1:$port", "Origin: http://evil.example")).isEqualTo(403)
        assertThat(supervisor.starts).describedAs("nothing was restarted").isEqualTo(1)
        assertThat(statusOf(port, "GET /serve", "Host: bench-db.lan:$port")).isEqualTo(200)
        assertThat(statusOf(port, "GET /nothing", "Host: 127.0.0.1")).isEqualTo(404)
    }

    /** The status line of a raw HTTP/1.1 request (Java's client will not send a foreign Host header). */
    private fun statusOf(port: Int, requestLine: String, vararg headers: String): Int = Socket("127.0.0.1", port).use { socket ->
        val text = (listOf("$requestLine HTTP/1.1") + headers + listOf("Content-Length: 0", "Connection: close", "", ""))
            .joinToString("\r\n")
        socket.getOutputStream().write(text.toByteArray())
        socket.getInputStream().bufferedReader().readLine().split(' ')[1].toInt()
    }
}
