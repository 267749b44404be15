package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/**
 * A 1 ms hop deadline: the largest payload (8 MiB through loopback, decoded) cannot make
 * it on any machine. The extreme level (about 46 KB of protobuf) was once part of this
 * test but can arrive within 1 ms on a warm JVM, so it made the test depend on the machine.
 */
@GatewayTest
@TestPropertySource(properties = ["protobench.gateway.timeouts.request-ms=1"])
class TimeoutEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `a hop over its deadline is a 504 counted as failed`() {
        web.postJson("/benchmark/start?testName=timeouts")
        val uris = Protocol.entries.map { "/api/data/${it.pathSegment}?size=8mb" }
        for (uri in uris) {
            val (status, body) = web.getJson(uri)
            assertThat(status).`as`(uri).isEqualTo(504)
            assertThat(body["error"].asText()).isEqualTo("data-server timeout")
            assertThat(body["protocol"].asText()).isNotBlank()
            assertThat(body["detail"].asText()).isNotBlank()
        }
        val (_, report) = web.postJson("/benchmark/end")

        assertThat(report["failedRequests"].asInt()).isEqualTo(uris.size)
        assertThat(report["failuresByKind"].fieldNames().asSequence().toList()).containsExactly("data-server timeout")
        assertThat(report["successRequests"].asInt()).isZero()
    }

    @Test
    fun `the gateway's own calls keep their separate deadline`() {
        assertThat(web.getJson("/api/health").first).isEqualTo(200)
    }
}
