package io.protobench.dataserver

import io.grpc.Status
import io.grpc.StatusRuntimeException
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexRequest
import io.protobench.contract.proto.DataRequest
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.GrpcTestClient
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient

/** Bad sizes and levels are the client's fault: 400 / INVALID_ARGUMENT naming what is accepted, never a 500. */
@DataServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputTest {
    @Autowired
    private lateinit var web: WebTestClient

    @Autowired
    private lateinit var grpcServer: GrpcServer

    private val grpc by lazy { GrpcTestClient(grpcServer.port) }

    @AfterAll
    fun closeChannel() = grpc.close()

    @ParameterizedTest
    @CsvSource(
        "/data/json?size=abc,            size,       abc",
        "/data/binary?size=abc,          size,       abc",
        "/data/json?size=9mb,            size,       9mb",
        "/data/binary?size=8193kb,       size,       8193kb",
        "/data/json?size=0,              size,       0",
        "/data/binary?size=-5,           size,       -5",
        "/data/json,                     size,       ",
        "/complex/json?complexity=huge,  complexity, huge",
        "/complex/binary?complexity=x,   complexity, x",
        "/complex/binary,                complexity, ",
    )
    fun `a bad parameter answers 400 with the parameter, the value and what is accepted`(uri: String, parameter: String, value: String?) {
        val accepted = if (parameter == "size") PayloadSize.ACCEPTED else ComplexityLevel.accepted
        web.get().uri(uri).exchange()
            .expectStatus().isBadRequest
            .expectHeader().contentType(MediaType.APPLICATION_JSON)
            .expectBody()
            .jsonPath("$.error").value<String> { assertThat(it).contains(parameter).contains(accepted) }
            .jsonPath("$.parameter").isEqualTo(parameter)
            .jsonPath("$.value").isEqualTo(value)
            .jsonPath("$.accepted").isEqualTo(accepted)
    }

    @Test
    fun `a client that accepts only protobuf still gets the JSON 400 without protobuf headers`() {
        web.get().uri("/data/binary?size=abc").accept(MediaType.parseMediaType("application/x-protobuf")).exchange()
            .expectStatus().isBadRequest
            .expectHeader().contentType(MediaType.APPLICATION_JSON)
            .expectHeader().doesNotExist("X-Protobuf-Message")
            .expectBody().jsonPath("$.parameter").isEqualTo("size")
    }

    @Test
    fun `gRPC unary rejects a bad size with INVALID_ARGUMENT naming what is accepted`() {
        assertInvalidArgument(PayloadSize.ACCEPTED) { grpc.data.getData(DataRequest.newBuilder().setSize("abc").build()) }
    }

    @Test
    fun `gRPC stream rejects a size over 8mb with INVALID_ARGUMENT`() {
        assertInvalidArgument(PayloadSize.ACCEPTED) {
            grpc.data.getDataStream(DataRequest.newBuilder().setSize("9mb").build()).hasNext()
        }
    }

    @Test
    fun `gRPC rejects an unknown or missing complexity with INVALID_ARGUMENT`() {
        assertInvalidArgument(ComplexityLevel.accepted) {
            grpc.data.getComplexData(ComplexRequest.newBuilder().setComplexity("huge").build())
        }
        assertInvalidArgument(ComplexityLevel.accepted) {
            grpc.data.getComplexDataStream(ComplexRequest.getDefaultInstance()).hasNext()
        }
    }

    @Test
    fun `a 64 KB size or complexity over HTTP answers 400, refused by its length before it is parsed`() {
        // '+' decodes to a space: one digit, 64 K spaces and a letter was the old pattern's worst case.
        // The length refusal (not the grammar's) shows the text was never walked.
        val crafted = "1" + "+".repeat(64 * 1024) + "x"
        for (uri in listOf("/data/json?size=$crafted", "/data/binary?size=$crafted", "/complex/json?complexity=$crafted")) {
            web.get().uri(uri).exchange()
                .expectStatus().isBadRequest
                .expectBody()
                .jsonPath("$.accepted").value<String> { assertThat(it).startsWith("at most 64 characters") }
                .jsonPath("$.value").value<String> { assertThat(it).endsWith("(65538 characters)") }
        }
    }

    @Test
    fun `a 64 KB size, request id or complexity over gRPC fails with INVALID_ARGUMENT, refused by its length before it is parsed`() {
        val crafted = "1" + " ".repeat(64 * 1024) + "x"
        assertInvalidArgument("at most 64 characters") { grpc.data.getData(DataRequest.newBuilder().setSize(crafted).build()) }
        assertInvalidArgument("at most 64 characters") {
            grpc.data.getDataStream(DataRequest.newBuilder().setSize(crafted).build()).hasNext()
        }
        assertInvalidArgument("at most 64 characters") {
            grpc.data.getData(DataRequest.newBuilder().setSize("1kb").setRequestId(crafted).build())
        }
        assertInvalidArgument("at most 64 characters") {
            grpc.data.getComplexData(ComplexRequest.newBuilder().setComplexity(crafted).build())
        }
    }

    @Test
    fun `an over-long request id over HTTP answers 400`() {
        web.get().uri("/data/binary?size=1kb&requestId=${"r".repeat(65)}").exchange()
            .expectStatus().isBadRequest
            .expectBody().jsonPath("$.parameter").isEqualTo("requestId")
    }

    private fun assertInvalidArgument(accepted: String, call: () -> Any) {
        val error = catchThrowableOfType(StatusRuntimeException::class.java) { call() }
        assertThat(error).isNotNull
        assertThat(error.status.code).isEqualTo(Status.Code.INVALID_ARGUMENT)
        assertThat(error.status.description).contains(accepted)
    }
}
