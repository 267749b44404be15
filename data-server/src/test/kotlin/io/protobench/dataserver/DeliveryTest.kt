package io.protobench.dataserver

import io.protobench.contract.Json
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.ProtoMapping
import io.protobench.contract.complex.RecordFactory
import io.protobench.contract.payload.DataPayload
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.ComplexRequest
import io.protobench.contract.proto.DataChunk
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataResponse
import io.protobench.dataserver.config.ComplexEncoding
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.GrpcTestClient
import io.protobench.dataserver.support.bodyOf
import io.protobench.dataserver.support.withLargeBodies
import io.protobench.dataserver.web.APPLICATION_PROTOBUF
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.junit.jupiter.params.provider.MethodSource
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.http.HttpHeaders
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/**
 * Every protocol delivers exactly the generated payload and the level object, checked
 * against the contract's generators. Runs once per combination of modes (subclasses).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class DeliveryTest(
    private val payloadMode: GrpcPayloadMode,
    private val httpBinaryPayloadMode: GrpcPayloadMode,
    private val complexEncoding: ComplexEncoding,
) {
    @Autowired
    private lateinit var webClient: WebTestClient

    @Autowired
    private lateinit var grpcServer: GrpcServer

    private val mapper = Json.newMapper()
    private val web by lazy { webClient.withLargeBodies() }
    private val grpc by lazy { GrpcTestClient(grpcServer.port) }

    @AfterAll
    fun closeChannel() = grpc.close()

    @ParameterizedTest
    @MethodSource("io.protobench.dataserver.DeliveryTest#sizes")
    fun `HTTP JSON delivers the generated payload with its size and request id`(size: String) {
        val body = web.bodyOf("/data/json?size=$size&requestId=r-$size", MediaType.APPLICATION_JSON_VALUE)
        val payload = mapper.readValue(body, DataPayload::class.java)
        assertThat(payload.requestId).isEqualTo("r-$size")
        assertThat(payload.size).isEqualTo(expected(size).size)
        assertThat(payload.payload).isEqualTo(expected(size))
    }

    @ParameterizedTest
    @MethodSource("io.protobench.dataserver.DeliveryTest#sizes")
    fun `HTTP Binary delivers the generated payload with its size and request id`(size: String) {
        val response = DataResponse.parseFrom(web.bodyOf("/data/binary?size=$size&requestId=r-$size", APPLICATION_PROTOBUF))
        assertThat(response.requestId).isEqualTo("r-$size")
        assertThat(response.size).isEqualTo(expected(size).size)
        assertThat(response.payload.toByteArray()).isEqualTo(expected(size))
    }

    @ParameterizedTest
    @MethodSource("io.protobench.dataserver.DeliveryTest#sizes")
    fun `HTTP Binary raw delivers exactly the payload the protobuf body carries`(size: String) {
        val raw = rawBody("/data/binary?size=$size&requestId=r-$size")
        val message = DataResponse.parseFrom(web.bodyOf("/data/binary?size=$size&requestId=r-$size", APPLICATION_PROTOBUF))
        assertThat(raw).hasSize(PayloadSize.parse(size).bytes)
        assertThat(raw).isEqualTo(message.payload.toByteArray())
        assertThat(raw).isEqualTo(expected(size))
    }

    @Test
    fun `HTTP Binary answers protobuf to a client that accepts any type or prefers protobuf`() {
        for (accept in listOf("*/*", "application/*", "application/octet-stream;q=0.5, application/x-protobuf")) {
            val body = web.bodyOf("/data/binary?size=1kb", APPLICATION_PROTOBUF, HttpHeaders.ACCEPT to accept)
            assertThat(DataResponse.parseFrom(body).payload.toByteArray()).`as`(accept).isEqualTo(expected("1kb"))
        }
        web.get().uri("/data/binary?size=1kb").header(HttpHeaders.ACCEPT, "text/html").exchange()
            .expectStatus().isEqualTo(HttpStatus.NOT_ACCEPTABLE)
    }

    @ParameterizedTest
    @MethodSource("io.protobench.dataserver.DeliveryTest#sizes")
    fun `gRPC unary delivers the generated payload with its size and request id`(size: String) {
        val response = grpc.data.getData(dataRequest(size))
        assertThat(response.requestId).isEqualTo("r-$size")
        assertThat(response.size).isEqualTo(expected(size).size)
        assertThat(response.payload.toByteArray()).isEqualTo(expected(size))
    }

    @ParameterizedTest
    @MethodSource("io.protobench.dataserver.DeliveryTest#sizes")
    fun `gRPC stream delivers the payload in ordered chunks of at most 64 KiB`(size: String) {
        val chunks = streamChunks(size)
        val bytes = expected(size)
        assertThat(chunks).hasSize((bytes.size + CHUNK - 1) / CHUNK)
        assertThat(chunks.map { it.index }).isEqualTo(chunks.indices.toList())
        assertThat(chunks).allSatisfy {
            assertThat(it.data.size()).isBetween(1, CHUNK)
            assertThat(it.totalSize).isEqualTo(bytes.size)
            assertThat(it.requestId).isEqualTo("r-$size")
        }
        assertThat(chunks.fold(com.google.protobuf.ByteString.EMPTY) { all, c -> all.concat(c.data) }.toByteArray())
            .isEqualTo(bytes)
    }

    @Test
    fun `a 1mb stream arrives as 16 full chunks of 64 KiB`() {
        assertThat(streamChunks("1mb").map { it.data.size() }).isEqualTo(List(16) { CHUNK })
    }

    @Test
    fun `the largest accepted size, 8mb, is delivered over HTTP Binary, protobuf and raw, and gRPC`() {
        val bytes = expected("8mb")
        val http = DataResponse.parseFrom(web.bodyOf("/data/binary?size=8mb", APPLICATION_PROTOBUF))
        assertThat(http.payload.toByteArray()).isEqualTo(bytes)
        assertThat(rawBody("/data/binary?size=8mb")).isEqualTo(bytes)
        assertThat(grpc.data.getData(dataRequest("8mb")).payload.toByteArray()).isEqualTo(bytes)
        assertThat(streamChunks("8mb")).hasSize(128)
    }

    @ParameterizedTest
    @EnumSource(ComplexityLevel::class)
    fun `HTTP JSON delivers the level object`(level: ComplexityLevel) {
        val body = web.bodyOf("/complex/json?complexity=${level.id}", MediaType.APPLICATION_JSON_VALUE)
        assertThat(mapper.readValue(body, level.recordType)).isEqualTo(RecordFactory.recordFor(level))
    }

    @ParameterizedTest
    @EnumSource(ComplexityLevel::class)
    fun `HTTP Binary delivers the level object`(level: ComplexityLevel) {
        val body = web.bodyOf("/complex/binary?complexity=${level.id}", APPLICATION_PROTOBUF)
        assertThat(ProtoMapping.fromProto(ComplexData.parseFrom(body))).isEqualTo(RecordFactory.recordFor(level))
    }

    @ParameterizedTest
    @EnumSource(ComplexityLevel::class)
    fun `gRPC unary delivers the level object`(level: ComplexityLevel) {
        val data = grpc.data.getComplexData(complexRequest(level))
        assertThat(ProtoMapping.fromProto(data)).isEqualTo(RecordFactory.recordFor(level))
    }

    @ParameterizedTest
    @EnumSource(ComplexityLevel::class)
    fun `gRPC stream delivers the level object as one message`(level: ComplexityLevel) {
        val messages = grpc.data.getComplexDataStream(complexRequest(level)).asSequence().toList()
        assertThat(messages).hasSize(1)
        assertThat(ProtoMapping.fromProto(messages.single())).isEqualTo(RecordFactory.recordFor(level))
    }

    @Test
    fun `the settings endpoint reports the modes this server runs`() {
        web.get().uri("/internal/settings").exchange()
            .expectStatus().isOk
            .expectBody()
            .jsonPath("$.grpcPayloadMode").isEqualTo(payloadMode.id)
            .jsonPath("$.httpBinaryPayloadMode").isEqualTo(httpBinaryPayloadMode.id)
            .jsonPath("$.complexEncoding").isEqualTo(complexEncoding.id)
            .jsonPath("$.chunkSizeBytes").isEqualTo(CHUNK)
    }

    private fun rawBody(uri: String): ByteArray = web.bodyOf(
        uri,
        MediaType.APPLICATION_OCTET_STREAM_VALUE,
        HttpHeaders.ACCEPT to MediaType.APPLICATION_OCTET_STREAM_VALUE,
    )

    private fun streamChunks(size: String): List<DataChunk> = grpc.data.getDataStream(dataRequest(size)).asSequence().toList()

    private fun dataRequest(size: String) = DataRequest.newBuilder().setSize(size).setRequestId("r-$size").build()

    private fun complexRequest(level: ComplexityLevel) =
        ComplexRequest.newBuilder().setComplexity(level.id).setRequestId("r-${level.id}").build()

    private fun expected(size: String): ByteArray = PayloadGenerator.payloadFor(PayloadSize.parse(size))

    companion object {
        private const val CHUNK = 64 * 1024

        /** Every seed size and one that is not a multiple of anything (crossover searches ask for such sizes). */
        @JvmStatic
        fun sizes(): List<String> = PayloadSize.SEED_SIZES + "1500"
    }
}

@DataServerTest
class DefaultModesDeliveryTest : DeliveryTest(GrpcPayloadMode.SHARED, GrpcPayloadMode.SHARED, ComplexEncoding.PER_REQUEST)

@DataServerTest
@TestPropertySource(
    properties = [
        "protobench.data.grpc-payload-mode=copy",
        "protobench.data.http-binary-payload-mode=copy",
        "protobench.data.complex-encoding=prebuilt",
    ],
)
class CopyAndPrebuiltDeliveryTest : DeliveryTest(GrpcPayloadMode.COPY, GrpcPayloadMode.COPY, ComplexEncoding.PREBUILT)
