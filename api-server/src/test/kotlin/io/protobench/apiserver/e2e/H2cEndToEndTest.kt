package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** The HTTP hops over HTTP/2 cleartext (prior knowledge: it only works if h2c is really spoken). */
@GatewayTest
@TestPropertySource(properties = ["protobench.gateway.http.version=H2C"])
class H2cEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `HTTP hops work over h2c for every size and level`() {
        for (segment in listOf("http/json", "http/binary")) {
            for (size in PayloadSize.SEED_SIZES + "12345") {
                val (status, body) = web.getJson("/api/data/$segment?size=$size")
                assertThat(status).`as`("$segment $size").isEqualTo(200)
                assertThat(body["payloadSize"].asInt()).`as`("$segment $size").isEqualTo(PayloadSize.parse(size).bytes)
            }
            for (level in ComplexityLevel.entries) {
                val (status, body) = web.getJson("/api/complex/$segment?complexity=${level.id}")
                assertThat(status).`as`("$segment ${level.id}").isEqualTo(200)
                assertThat(body["serializedSize"].asInt()).isPositive()
            }
        }
    }

    @Test
    fun `the report names the HTTP version in use`() {
        web.postJson("/benchmark/start?protocol=HTTP/JSON")
        web.getJson("/api/data/http/json?size=1kb")
        val (_, report) = web.postJson("/benchmark/end")

        assertThat(report["clientSettings"]["http"]["version"].asText()).isEqualTo("H2C")
        assertThat(report["successRequests"].asLong()).isEqualTo(1)
    }
}
