package io.protobench.apiserver.e2e

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.apiserver.support.CountingDataServer
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.postJson
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** The measurement window cannot be reset by accident, nor by anyone but a local, same-site caller. */
@GatewayTest
class ControlEndpointsEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        private val dataServer by lazy { CountingDataServer() }

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = dataServer.register(registry)

        @JvmStatic
        @AfterAll
        fun stop() = dataServer.close()
    }

    @AfterEach
    fun endAnyWindow() {
        web.postJson("/benchmark/end")
    }

    @Test
    fun `a second start is a 409 explaining the open window, and replace=true replaces it`() {
        assertThat(web.postJson("/benchmark/start?protocol=gRPC/Unary&testName=first").first).isEqualTo(200)

        val (status, body) = web.postJson("/benchmark/start?protocol=HTTP/JSON&testName=second")
        assertThat(status).isEqualTo(409)
        assertThat(body["error"].asText()).isEqualTo("window already open")
        assertThat(body["message"].asText()).contains("replace=true", "POST /benchmark/end")
        assertThat(body["openWindow"]["testName"].asText()).isEqualTo("first")
        assertThat(body["openWindow"]["protocol"].asText()).isEqualTo("gRPC/Unary")

        assertThat(web.postJson("/benchmark/start?protocol=HTTP/JSON&testName=third&replace=true").first).isEqualTo(200)
        val (_, report) = web.postJson("/benchmark/end")
        assertThat(report["testName"].asText()).isEqualTo("third")
    }

    @ParameterizedTest
    @CsvSource(
        "Host,           evil.example:8080,   not a loopback name",
        "Host,           192.168.1.5,         not a loopback name",
        "Origin,         http://evil.example, cross-site",
        "Sec-Fetch-Site, cross-site,          cross-site",
    )
    fun `control endpoints refuse foreign and cross-site requests with a JSON 403`(header: String, value: String, reason: String) {
        for (uri in listOf("/benchmark/start", "/benchmark/end", "/benchmark/gc", "/internal/anything")) {
            val body = forbiddenBody(web.post().uri(uri).header(header, value))
            assertThat(body["error"].asText()).`as`(uri).isEqualTo("forbidden")
            assertThat(body["message"].asText()).`as`(uri).contains(reason)
        }
        assertThat(web.postJson("/benchmark/end").first).`as`("no window was opened").isEqualTo(409)
    }

    @Test
    fun `loopback names with any port and loopback origins are let through`() {
        for (host in listOf("localhost", "127.0.0.1:1234", "[::1]:8080")) {
            web.post().uri("/benchmark/start?replace=true").header("Host", host).header("Origin", "http://localhost:3000")
                .exchange().expectStatus().isOk
        }
    }

    @Test
    fun `the data API is not guarded`() {
        web.get().uri("/api/data/none?size=1kb").header("Host", "evil.example").header("Sec-Fetch-Site", "cross-site")
            .exchange().expectStatus().isOk
    }

    private fun forbiddenBody(request: WebTestClient.RequestHeadersSpec<*>): JsonNode =
        request.exchange().expectStatus().isForbidden.expectBody(JsonNode::class.java).returnResult().responseBody!!
}
