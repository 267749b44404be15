package io.protobench.apiserver.client

import com.sun.net.httpserver.HttpServer
import io.protobench.apiserver.client.http.DataServerHttp
import io.protobench.apiserver.config.GatewaySettings
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream
import java.net.InetAddress
import java.net.InetSocketAddress
import java.util.concurrent.CopyOnWriteArrayList
import java.util.zip.GZIPOutputStream

/** The HTTP hop's compression: what it asks for, and that callers get (and count) the decoded body. */
class DataServerHttpTest {
    private val body = ByteArray(4096) { (it % 7).toByte() }
    private val acceptEncodings = CopyOnWriteArrayList<String>()

    /** Gzips its answer when the request accepts gzip, as the data-server does with compression on. */
    private val server = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0).apply {
        createContext("/") { exchange ->
            val accepted = exchange.requestHeaders.getFirst("Accept-Encoding").orEmpty()
            acceptEncodings += accepted
            val answer = if ("gzip" in accepted) gzip(body).also { exchange.responseHeaders.add("Content-Encoding", "gzip") } else body
            exchange.sendResponseHeaders(200, answer.size.toLong())
            exchange.responseBody.use { it.write(answer) }
        }
        start()
    }

    private val settings = GatewaySettings(dataServer = GatewaySettings.DataServer(httpPort = server.address.port))

    @AfterEach
    fun stop() = server.stop(0)

    @Test
    fun `the hop with gzip asks for it and returns the decoded body`() {
        val received = fetchWith(settings.copy(compression = GatewaySettings.Compression.GZIP))

        assertThat(acceptEncodings.single()).contains("gzip")
        assertThat(received).isEqualTo(body)
    }

    @Test
    fun `the hop without compression asks for none and the control client never does`() {
        assertThat(fetchWith(settings)).isEqualTo(body)
        DataServerHttp.forControl(settings.copy(compression = GatewaySettings.Compression.GZIP)).use { control ->
            assertThat(runBlocking { control.get("/internal/settings", "application/json") }).isEqualTo(body)
        }

        assertThat(acceptEncodings).containsExactly("", "")
    }

    @Test
    fun `a named client on h2c speaks HTTP 2 with prior knowledge, which an HTTP 1_1-only server does not answer`() {
        val named = settings.copy(
            clients = mapOf(
                "h2c" to GatewaySettings.ClientChanges(http = GatewaySettings.HttpChanges(version = GatewaySettings.HttpVersion.H2C)),
            ),
        )

        assertThat(fetchWith(named)).isEqualTo(body)
        assertThatThrownBy { fetchWith(named.forClient("h2c")) }.isInstanceOf(HopFailure::class.java)
    }

    private fun fetchWith(hopSettings: GatewaySettings): ByteArray = DataServerHttp.forHop(hopSettings).use { http ->
        runBlocking { http.get("/data/binary?size=4kb", "application/x-protobuf") }
    }

    private fun gzip(bytes: ByteArray): ByteArray = ByteArrayOutputStream().also { out ->
        GZIPOutputStream(out).use { it.write(bytes) }
    }.toByteArray()
}
