package io.protobench.dataserver

import io.grpc.CallOptions
import io.grpc.Channel
import io.grpc.ClientCall
import io.grpc.ClientInterceptor
import io.grpc.Codec
import io.grpc.DecompressorRegistry
import io.grpc.ForwardingClientCall
import io.grpc.ForwardingClientCallListener
import io.grpc.ManagedChannelBuilder
import io.grpc.Metadata
import io.grpc.MethodDescriptor
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataResponse
import io.protobench.contract.proto.DataServiceGrpc
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.web.APPLICATION_PROTOBUF
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.web.server.LocalServerPort
import org.springframework.http.HttpHeaders
import org.springframework.test.context.TestPropertySource
import reactor.netty.http.HttpProtocol
import reactor.netty.http.client.HttpClient
import java.time.Duration
import java.util.concurrent.TimeUnit
import java.util.zip.GZIPInputStream

/**
 * `protobench.data.compression`: HTTP bodies and gRPC responses are gzipped for a client
 * that accepts gzip when it is on, and never otherwise; the decoded answer is the same.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CompressionTest(private val gzipOn: Boolean) {
    @Autowired
    private lateinit var grpcServer: GrpcServer

    @LocalServerPort
    private var httpPort: Int = 0

    @ParameterizedTest
    @CsvSource(
        "/data/json?size=1kb&requestId=z,          application/json",
        "/data/binary?size=1kb&requestId=z,        application/x-protobuf",
        "/data/binary?size=100kb&requestId=z,      application/octet-stream",
        "/complex/json?complexity=simple,          application/json",
        "/complex/binary?complexity=extreme,       application/x-protobuf",
    )
    fun `an HTTP client that accepts gzip gets the same answer, gzipped when compression is on`(uri: String, type: String) {
        val plain = exchange(uri, type, acceptGzip = false)
        val asked = exchange(uri, type, acceptGzip = true)

        assertThat(plain.encoding).isNull()
        assertThat(asked.encoding).isEqualTo(if (gzipOn) "gzip" else null)
        assertThat(if (gzipOn) gunzip(asked.body) else asked.body).isEqualTo(plain.body)
    }

    @Test
    fun `gRPC responses are gzipped for a client that accepts gzip when compression is on`() {
        val answer = getData(DecompressorRegistry.getDefaultInstance(), "1mb")
        assertThat(answer.encoding).isEqualTo(if (gzipOn) "gzip" else "identity")
        assertThat(answer.response.payload.toByteArray()).isEqualTo(expected("1mb"))
    }

    @Test
    fun `gRPC responses stay plain for a client that does not accept gzip`() {
        val answer = getData(DecompressorRegistry.emptyInstance().with(Codec.Identity.NONE, false), "1kb")
        assertThat(answer.encoding).isEqualTo("identity")
        assertThat(answer.response.payload.toByteArray()).isEqualTo(expected("1kb"))
    }

    @Test
    fun `an h2c client that accepts gzip decodes the same payload`() {
        val body = HttpClient.create().protocol(HttpProtocol.H2C).compress(true)
            .headers { it.set(HttpHeaders.ACCEPT, APPLICATION_PROTOBUF) }
            .get().uri("http://127.0.0.1:$httpPort/data/binary?size=100kb")
            .responseSingle { _, content -> content.asByteArray() }
            .block(Duration.ofSeconds(10))!!
        assertThat(DataResponse.parseFrom(body).payload.toByteArray()).isEqualTo(expected("100kb"))
    }

    private class Reply(val encoding: String?, val body: ByteArray)

    /**
     * GETs [uri] with a bare Reactor Netty client, which neither asks for gzip nor decodes
     * it (Spring's WebTestClient does both behind the test's back).
     */
    private fun exchange(uri: String, type: String, acceptGzip: Boolean): Reply = HttpClient.create()
        .headers {
            it.set(HttpHeaders.ACCEPT, type)
            if (acceptGzip) it.set(HttpHeaders.ACCEPT_ENCODING, "gzip")
        }
        .get().uri("http://127.0.0.1:$httpPort$uri")
        .responseSingle { response, content ->
            assertThat(response.status().code()).isEqualTo(200)
            assertThat(response.responseHeaders().get(HttpHeaders.CONTENT_TYPE)).isEqualTo(type)
            content.asByteArray().map { Reply(response.responseHeaders().get(HttpHeaders.CONTENT_ENCODING), it) }
        }
        .block(Duration.ofSeconds(10))!!

    private class GrpcAnswer(val encoding: String, val response: DataResponse)

    /**
     * GetData over a channel that decodes what [decompressors] hold (and advertises them),
     * noting the response's `grpc-encoding` (absent means identity).
     */
    private fun getData(decompressors: DecompressorRegistry, size: String): GrpcAnswer {
        val headers = ResponseHeaders()
        val channel = ManagedChannelBuilder.forAddress("127.0.0.1", grpcServer.port).usePlaintext()
            .maxInboundMessageSize(GrpcServer.MAX_MESSAGE_BYTES)
            .decompressorRegistry(decompressors)
            .intercept(headers)
            .build()
        try {
            val response = DataServiceGrpc.newBlockingStub(channel).getData(DataRequest.newBuilder().setSize(size).build())
            return GrpcAnswer(headers.last?.get(GRPC_ENCODING) ?: "identity", response)
        } finally {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS)
        }
    }

    /** Keeps the response headers of the last call. */
    private class ResponseHeaders : ClientInterceptor {
        @Volatile
        var last: Metadata? = null

        override fun <Q, R> interceptCall(method: MethodDescriptor<Q, R>, options: CallOptions, next: Channel): ClientCall<Q, R> =
            object : ForwardingClientCall.SimpleForwardingClientCall<Q, R>(next.newCall(method, options)) {
                override fun start(listener: Listener<R>, headers: Metadata) {
                    super.start(
                        object : ForwardingClientCallListener.SimpleForwardingClientCallListener<R>(listener) {
                            override fun onHeaders(headers: Metadata) {
                                last = headers
                                super.onHeaders(headers)
                            }
                        },
                        headers,
                    )
                }
            }
    }

    private fun gunzip(bytes: ByteArray): ByteArray = GZIPInputStream(bytes.inputStream()).use { it.readBytes() }

    private fun expected(size: String): ByteArray = PayloadGenerator.payloadFor(PayloadSize.parse(size))

    private companion object {
        val GRPC_ENCODING: Metadata.Key<String> = Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER)
    }
}

@DataServerTest
@TestPropertySource(properties = ["protobench.data.compression=gzip"])
class GzipCompressionTest : CompressionTest(gzipOn = true)

@DataServerTest
class NoCompressionTest : CompressionTest(gzipOn = false)
