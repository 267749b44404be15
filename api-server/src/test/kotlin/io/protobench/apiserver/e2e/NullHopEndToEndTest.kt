package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.CountingDataServer
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.UUID

/** The null hop answers like a protocol, counts in the window, and never reaches the data-server. */
@GatewayTest
class NullHopEndToEndTest {
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

    @Test
    fun `the null hop answers the data envelope without calling the data-server`() {
        val (status, body) = web.getJson("/api/data/none?size=100kb")

        assertThat(status).isEqualTo(200)
        assertThat(body.fieldNames().asSequence().toList()).containsExactly("requestId", "protocol", "payloadSize", "latencyMs")
        assertThat(body["protocol"].asText()).isEqualTo("Null hop")
        assertThat(body["payloadSize"].asInt()).isEqualTo(100 * 1024)
        assertThat(body["requestId"].asText()).hasSize(36)
        val id = UUID.fromString(body["requestId"].asText())
        assertThat(id.version()).`as`("a random (version 4) UUID").isEqualTo(4)
        assertThat(id.variant()).`as`("the IETF variant").isEqualTo(2)
        assertThat(body["latencyMs"].asDouble()).isGreaterThanOrEqualTo(0.0)
        assertNothingReachedTheHop()
    }

    @Test
    fun `the null hop answers the complex envelope with the level's protobuf byte count`() {
        val (_, complexities) = web.getJson("/api/complexities")
        for (level in ComplexityLevel.entries) {
            val (status, body) = web.getJson("/api/complex/none?complexity=${level.id}")

            assertThat(status).`as`(level.id).isEqualTo(200)
            assertThat(body.fieldNames().asSequence().toList())
                .containsExactly("requestId", "protocol", "complexity", "serializedSize", "latencyMs")
            assertThat(body["protocol"].asText()).isEqualTo("Null hop")
            assertThat(body["complexity"].asText()).isEqualTo(level.id)
            assertThat(body["serializedSize"].asInt()).`as`(level.id)
                .isEqualTo(RecordShape.of(level).protobufBytes)
                .isEqualTo(complexities["levels"][level.ordinal]["protobufBytes"].asInt())
        }
        assertNothingReachedTheHop()
    }

    @Test
    fun `null hop requests count in the window as successes that moved no bytes`() {
        web.postJson("/benchmark/start?protocol=Null hop&testName=null-hop&replace=true")
        repeat(3) { assertThat(web.getJson("/api/data/none?size=1mb").first).isEqualTo(200) }
        repeat(2) { assertThat(web.getJson("/api/complex/none?complexity=extreme").first).isEqualTo(200) }
        assertThat(web.getJson("/api/data/none?size=9mb").first).isEqualTo(400)

        val (status, report) = web.postJson("/benchmark/end")

        assertThat(status).isEqualTo(200)
        assertThat(report["protocol"].asText()).isEqualTo("Null hop")
        assertThat(report["totalRequests"].asLong()).isEqualTo(6)
        assertThat(report["successRequests"].asLong()).isEqualTo(5)
        assertThat(report["failedRequests"].asLong()).isEqualTo(1)
        assertThat(report["failuresByKind"]["invalid request"].asLong()).isEqualTo(1)
        assertThat(report["dataTransfer"]["totalBytes"].asLong()).isZero()
        assertThat(report["latency"]["maxMs"].asDouble()).isGreaterThanOrEqualTo(0.0)
        assertNothingReachedTheHop()
    }

    @Test
    fun `the null hop validates like the real paths`() {
        val (status, body) = web.getJson("/api/complex/none?complexity=insane")
        assertThat(status).isEqualTo(400)
        assertThat(body["parameter"].asText()).isEqualTo("complexity")
    }

    @Test
    fun `protocols lists the four protocols and then the null hop`() {
        val (_, protocols) = web.getJson("/api/protocols")

        assertThat(protocols.map { it["pathSegment"].asText() }).containsExactly("http/json", "http/binary", "grpc", "grpc/stream", "none")
        assertThat(protocols.map { it["callsDataServer"].asBoolean() }).containsExactly(true, true, true, true, false)
        assertThat(protocols.last()["label"].asText()).isEqualTo("Null hop")
    }

    /** Only the window's own calls to /internal may reach the data-server; none on the data paths or gRPC. */
    private fun assertNothingReachedTheHop() {
        assertThat(dataServer.httpPaths).allSatisfy { assertThat(it).startsWith("/internal/") }
        assertThat(dataServer.grpcConnections.get()).isZero()
    }
}
