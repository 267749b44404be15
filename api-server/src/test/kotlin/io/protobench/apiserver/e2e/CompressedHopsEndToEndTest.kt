package io.protobench.apiserver.e2e

import io.grpc.CallOptions
import io.grpc.Channel
import io.grpc.ClientCall
import io.grpc.ClientInterceptor
import io.grpc.ForwardingClientCall
import io.grpc.ForwardingClientCallListener
import io.grpc.ManagedChannelBuilder
import io.grpc.Metadata
import io.grpc.MethodDescriptor
import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.client.grpc.GrpcChannels
import io.protobench.apiserver.config.GatewaySettings.Compression
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
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataServiceGrpc
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.concurrent.TimeUnit

/** Gateway and data-server both on gzip: every protocol still delivers exactly, and counts the decoded bytes. */
@GatewayTest
@TestPropertySource(properties = ["protobench.gateway.compression=gzip"])
class CompressedHopsEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var clients: DataClients

    companion object {
        private val dataServer by lazy { TestDataServer.start("--protobench.data.compression=gzip") }

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = dataServer.register(registry)

        @JvmStatic
        @AfterAll
        fun stop() = dataServer.close()

        private val GRPC_ENCODING: Metadata.Key<String> = Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER)
    }

    @ParameterizedTest
    @EnumSource(Protocol::class)
    fun `every size arrives exactly and every level decodes`(protocol: Protocol) = runBlocking {
        for (size in (PayloadSize.SEED_SIZES + "12345" + "8mb").map(PayloadSize::parse)) {
            val fetched = clients.of(protocol).fetchData(size, "gzip")
            assertThat(fetched.payload.toByteArray()).`as`("${protocol.label} $size").isEqualTo(PayloadGenerator.payloadFor(size))
        }
        for (level in ComplexityLevel.entries) {
            val fetched = clients.of(protocol).fetchComplex(level, "gzip")
            assertThat(fetched.body.toRecord()).`as`("${protocol.label} ${level.id}").isEqualTo(RecordFactory.recordFor(level))
        }
    }

    @Test
    fun `byte counts stay the decoded sizes`() {
        for (protocol in Protocol.entries) {
            val (status, body) = web.getJson("/api/complex/${protocol.pathSegment}?complexity=extreme")
            val shape = RecordShape.of(ComplexityLevel.EXTREME)
            val expected = if (protocol == Protocol.HTTP_JSON) shape.jsonBytes else shape.protobufBytes
            assertThat(status).`as`(protocol.label).isEqualTo(200)
            assertThat(body["serializedSize"].asInt()).`as`(protocol.label).isEqualTo(expected)
        }
    }

    @Test
    fun `the window report names the compression`() {
        web.postJson("/benchmark/start?protocol=gRPC/Unary")
        web.getJson("/api/data/grpc?size=1kb")
        val (_, report) = web.postJson("/benchmark/end")

        assertThat(report["clientSettings"]["compression"].asText()).isEqualTo("gzip")
        assertThat(report["dataServerSettings"]["compression"].asText()).isEqualTo("gzip")
        assertThat(report["successRequests"].asLong()).isEqualTo(1)
    }

    @Test
    fun `gRPC channels accept gzip responses only when the gateway's compression is gzip`() {
        assertThat(grpcEncodingWith(Compression.GZIP)).isEqualTo("gzip")
        assertThat(grpcEncodingWith(Compression.NONE)).isEqualTo("identity")
    }

    /** The `grpc-encoding` of a GetData answer to a channel accepting what [compression] makes the gateway's accept. */
    private fun grpcEncodingWith(compression: Compression): String {
        var encoding: String? = null
        val headers = object : ClientInterceptor {
            override fun <Q, R> interceptCall(method: MethodDescriptor<Q, R>, options: CallOptions, next: Channel): ClientCall<Q, R> =
                object : ForwardingClientCall.SimpleForwardingClientCall<Q, R>(next.newCall(method, options)) {
                    override fun start(listener: Listener<R>, metadata: Metadata) = super.start(
                        object : ForwardingClientCallListener.SimpleForwardingClientCallListener<R>(listener) {
                            override fun onHeaders(received: Metadata) {
                                encoding = received.get(GRPC_ENCODING)
                                super.onHeaders(received)
                            }
                        },
                        metadata,
                    )
                }
        }
        val channel = ManagedChannelBuilder.forAddress("127.0.0.1", dataServer.grpcPort).usePlaintext()
            .decompressorRegistry(GrpcChannels.decompressorsFor(compression))
            .intercept(headers)
            .build()
        try {
            DataServiceGrpc.newBlockingStub(channel).getData(DataRequest.newBuilder().setSize("1kb").build())
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS)
        }
        return encoding ?: "identity"
    }
}
