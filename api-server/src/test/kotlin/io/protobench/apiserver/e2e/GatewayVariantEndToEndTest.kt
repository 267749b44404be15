package io.protobench.apiserver.e2e

import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.client.grpc.ClientEventLoops
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordFactory
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** A gateway variant: raw HTTP/Binary payload bodies, gRPC on the direct executor and two event-loop threads of its own. */
@GatewayTest
@TestPropertySource(
    properties = [
        "protobench.gateway.http.binary-body=raw",
        "protobench.gateway.grpc.executor=direct",
        "protobench.gateway.grpc.event-loop-threads=2",
    ],
)
class GatewayVariantEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var clients: DataClients

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `HTTP Binary raw answers the size asked for`() {
        val (status, body) = web.getJson("/api/data/http/binary?size=1kb")

        assertThat(status).isEqualTo(200)
        assertThat(body["payloadSize"].asInt()).isEqualTo(1024)
    }

    @Test
    fun `a raw body is the payload alone, counted as such`() = runBlocking {
        for (size in (PayloadSize.SEED_SIZES + "12345" + "8mb").map(PayloadSize::parse)) {
            val fetched = clients.of(Protocol.HTTP_BINARY).fetchData(size, "raw")
            assertThat(fetched.payload.toByteArray()).`as`("$size").isEqualTo(PayloadGenerator.payloadFor(size))
            assertThat(fetched.wireBytes).`as`("$size").isEqualTo(size.bytes.toLong())
        }
    }

    @Test
    fun `level objects stay protobuf under raw`() = runBlocking {
        for (level in ComplexityLevel.entries) {
            val fetched = clients.of(Protocol.HTTP_BINARY).fetchComplex(level, "raw")
            assertThat(fetched.body.toRecord()).`as`(level.id).isEqualTo(RecordFactory.recordFor(level))
        }
    }

    @Test
    fun `gRPC unary and stream deliver exactly on the direct executor and the gateway's own event loop`() {
        for (protocol in listOf(Protocol.GRPC_UNARY, Protocol.GRPC_STREAM)) {
            for (size in listOf("1kb", "1mb", "12345").map(PayloadSize::parse)) {
                val fetched = runBlocking { clients.of(protocol).fetchData(size, "direct") }
                assertThat(fetched.payload.toByteArray()).`as`("${protocol.label} $size").isEqualTo(PayloadGenerator.payloadFor(size))
            }
            val level = runBlocking { clients.of(protocol).fetchComplex(ComplexityLevel.EXTREME, "direct") }
            assertThat(level.body.toRecord()).isEqualTo(RecordFactory.recordFor(ComplexityLevel.EXTREME))
        }
        val loopThreads = Thread.getAllStackTraces().keys.filter { it.name.startsWith(ClientEventLoops.THREAD_PREFIX) }
        assertThat(loopThreads).`as`("the one channel's connection runs on the gateway's own group").hasSizeBetween(1, 2)
    }

    @Test
    fun `the window report carries the variant's settings`() {
        web.postJson("/benchmark/start?protocol=HTTP/Binary")
        web.getJson("/api/data/http/binary?size=1kb")
        val (_, report) = web.postJson("/benchmark/end")
        val settings = report["clientSettings"]

        assertThat(settings["compression"].asText()).isEqualTo("none")
        assertThat(settings["http"]["binaryBody"].asText()).isEqualTo("raw")
        assertThat(settings["grpc"]["executor"].asText()).isEqualTo("direct")
        assertThat(settings["grpc"]["eventLoopThreads"].asInt()).isEqualTo(2)
        assertThat(report["dataTransfer"]["totalBytes"].asLong()).`as`("the raw body alone").isEqualTo(1024)
    }
}
