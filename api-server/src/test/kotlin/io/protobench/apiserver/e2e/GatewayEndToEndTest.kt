package io.protobench.apiserver.e2e

import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordFactory
import io.protobench.contract.complex.RecordShape
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.SoftAssertions.assertSoftly
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.core.env.Environment
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** The gateway against the real data-server: every protocol, size and level, bad input, the catalog. */
@GatewayTest
class GatewayEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var clients: DataClients

    @Autowired
    lateinit var environment: Environment

    companion object {
        /** The seed sizes plus one that is not a multiple of anything. */
        val SIZES = PayloadSize.SEED_SIZES + "12345"

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `the gateway reads its own configuration file`() {
        assertThat(environment.getProperty("spring.application.name")).isEqualTo("api-server")
    }

    @Test
    fun `every size arrives whole over every protocol`() = assertSoftly { softly ->
        for (protocol in Protocol.entries) {
            for (size in SIZES) {
                val (status, body) = web.getJson("/api/data/${protocol.pathSegment}?size=$size")
                val context = "${protocol.label} $size"
                softly.assertThat(status).`as`(context).isEqualTo(200)
                softly.assertThat(body["payloadSize"].asInt()).`as`(context).isEqualTo(PayloadSize.parse(size).bytes)
                softly.assertThat(body["protocol"].asText()).`as`(context).isEqualTo(protocol.label)
                softly.assertThat(body["requestId"].asText()).`as`(context).hasSize(36)
                softly.assertThat(body["latencyMs"].asDouble()).`as`(context).isPositive()
            }
        }
    }

    @Test
    fun `the clients deliver the generator's exact bytes`() = runBlocking {
        for (protocol in Protocol.entries) {
            for (size in (SIZES + "8mb").map(PayloadSize::parse)) {
                val fetched = clients.of(protocol).fetchData(size, "fidelity")
                assertThat(fetched.payload.toByteArray())
                    .`as`("${protocol.label} $size")
                    .isEqualTo(PayloadGenerator.payloadFor(size))
                assertThat(fetched.wireBytes).`as`("${protocol.label} $size").isGreaterThan(size.bytes.toLong())
            }
        }
    }

    @Test
    fun `the clients decode every level into the factory's object`() = runBlocking {
        for (protocol in Protocol.entries) {
            for (level in ComplexityLevel.entries) {
                val fetched = clients.of(protocol).fetchComplex(level, "fidelity")
                assertThat(fetched.body.toRecord()).`as`("${protocol.label} ${level.id}").isEqualTo(RecordFactory.recordFor(level))
            }
        }
    }

    @Test
    fun `complex endpoints report the encoded size as received`() = assertSoftly { softly ->
        for (level in ComplexityLevel.entries) {
            val shape = RecordShape.of(level)
            for (protocol in Protocol.entries) {
                val (status, body) = web.getJson("/api/complex/${protocol.pathSegment}?complexity=${level.id}")
                val context = "${protocol.label} ${level.id}"
                val expected = if (protocol == Protocol.HTTP_JSON) shape.jsonBytes else shape.protobufBytes
                softly.assertThat(status).`as`(context).isEqualTo(200)
                softly.assertThat(body["serializedSize"].asInt()).`as`(context).isEqualTo(expected)
                softly.assertThat(body["complexity"].asText()).`as`(context).isEqualTo(level.id)
                softly.assertThat(body["protocol"].asText()).`as`(context).isEqualTo(protocol.label)
            }
        }
    }

    @Test
    fun `bad input is refused with what is accepted`() {
        val cases = mapOf(
            "/api/data/grpc?size=abc" to "size",
            "/api/data/grpc?size=9mb" to "size",
            "/api/data/grpc?size=0" to "size",
            "/api/data/http/json?size=" to "size",
            "/api/data/ftp?size=1kb" to "protocol",
            "/api/data/grpc/unary?size=1kb" to "protocol",
            "/api/complex/http/binary?complexity=insane" to "complexity",
            "/api/complex/soap?complexity=simple" to "protocol",
            "/api/complex/grpc?complexity=" to "complexity",
        )
        for ((uri, parameter) in cases) {
            val (status, body) = web.getJson(uri)
            assertThat(status).`as`(uri).isEqualTo(400)
            assertThat(body["parameter"].asText()).`as`(uri).isEqualTo(parameter)
            assertThat(body["accepted"].asText()).`as`(uri).isNotBlank()
        }
        assertThat(web.getJson("/api/data/ftp?size=1kb").second["accepted"].asText())
            .isEqualTo("http/json, http/binary, grpc, grpc/stream, none")
    }

    @Test
    fun `a message hop without a message loaded answers 400 naming the setting`() {
        val (status, body) = web.getJson("/api/message/grpc?count=3")
        assertThat(status).isEqualTo(400)
        assertThat(body["parameter"].asText()).isEqualTo("message")
        assertThat(body["accepted"].asText()).contains("protobench.gateway.message.jar")
    }

    @Test
    fun `a 64 KB parameter answers 400 naming the length limit, refused before it is parsed`() {
        // '+' decodes to a space: one digit, 64 K spaces and a letter was the old pattern's worst case.
        val crafted = "1" + "+".repeat(64 * 1024) + "x"
        val cases = mapOf(
            "/api/data/grpc?size=$crafted" to "size",
            "/api/data/none?size=$crafted" to "size",
            "/api/complex/grpc?complexity=$crafted" to "complexity",
            "/api/data/${"a".repeat(64 * 1024)}?size=1kb" to "protocol",
        )
        for ((uri, parameter) in cases) {
            val (status, body) = web.getJson(uri)
            assertThat(status).`as`(parameter).isEqualTo(400)
            assertThat(body["parameter"].asText()).isEqualTo(parameter)
            assertThat(body["accepted"].asText()).startsWith("at most 64 characters")
        }
    }

    @Test
    fun `an over-long window label answers 400 and opens no window`() {
        val (status, body) = web.postJson("/benchmark/start?testName=${"t".repeat(64 * 1024)}")

        assertThat(status).isEqualTo(400)
        assertThat(body["parameter"].asText()).isEqualTo("testName")
        assertThat(body["accepted"].asText()).isEqualTo("at most 256 characters: free text")
        assertThat(web.postJson("/benchmark/end").first).isEqualTo(409)
    }

    @Test
    fun `a missing size means 1mb and a missing complexity simple, as in the seed gateway`() = assertSoftly { softly ->
        for (segment in Protocol.entries.map { it.pathSegment } + "none") {
            val (dataStatus, data) = web.getJson("/api/data/$segment")
            softly.assertThat(dataStatus).`as`(segment).isEqualTo(200)
            softly.assertThat(data["payloadSize"].asInt()).`as`(segment).isEqualTo(1024 * 1024)

            val (complexStatus, complex) = web.getJson("/api/complex/$segment")
            softly.assertThat(complexStatus).`as`(segment).isEqualTo(200)
            softly.assertThat(complex["complexity"].asText()).`as`(segment).isEqualTo("simple")
        }
    }

    @Test
    fun `a data-server refusal reaches the caller as a rejection with its message`() = runBlocking {
        for (protocol in Protocol.entries) {
            assertThatThrownBy { runBlocking { clients.of(protocol).fetchData(PayloadSize(0), "refused") } }
                .`as`(protocol.label)
                .isInstanceOf(HopFailure.Rejected::class.java)
                .hasMessageContaining("size")
        }
    }

    @Test
    fun `unknown paths and methods answer JSON`() {
        val (status, body) = web.getJson("/nothing/here")
        assertThat(status).isEqualTo(404)
        assertThat(body["message"].asText()).contains("/api/data/")

        val (methodStatus, methodBody) = web.postJson("/api/sizes")
        assertThat(methodStatus).isEqualTo(405)
        assertThat(methodBody["error"].asText()).isNotBlank()

        for (path in listOf("/api/data/grpc?size=1kb", "/api/complex/none?complexity=simple")) {
            val (status, body) = web.postJson(path)
            assertThat(status).`as`(path).isEqualTo(405)
            assertThat(body["error"].asText()).`as`(path).isEqualTo("method not allowed")
        }
    }

    @Test
    fun `health is up when the data-server answers over both transports`() {
        val (status, body) = web.getJson("/api/health")

        assertThat(status).isEqualTo(200)
        assertThat(body["status"].asText()).isEqualTo("UP")
        assertThat(body["dataServer"]["http"].asText()).isEqualTo("UP")
        assertThat(body["dataServer"]["grpc"].asText()).isEqualTo("UP")
    }

    @Test
    fun `sizes and complexities list what is accepted`() {
        val (_, sizes) = web.getJson("/api/sizes")
        assertThat(sizes["seedSizes"].map { it.asText() }).isEqualTo(PayloadSize.SEED_SIZES)
        assertThat(sizes["maxBytes"].asInt()).isEqualTo(PayloadSize.MAX_BYTES)
        assertThat(sizes["accepted"].asText()).isEqualTo(PayloadSize.ACCEPTED)

        val (_, complexities) = web.getJson("/api/complexities")
        val levels = complexities["levels"]
        assertThat(levels.map { it["level"].asText() }).containsExactly("simple", "medium", "complex", "ultra", "extreme")
        assertThat(levels[3]["seedDescription"].asText()).contains("~150 fields")
        assertThat(levels[3]["messageObjects"].asInt()).isEqualTo(RecordShape.of(ComplexityLevel.ULTRA).messageObjects)
    }

    @Test
    fun `ending without an open window is a 409`() {
        val (status, body) = web.postJson("/benchmark/end")

        assertThat(status).isEqualTo(409)
        assertThat(body["message"].asText()).contains("/benchmark/start")
    }
}
