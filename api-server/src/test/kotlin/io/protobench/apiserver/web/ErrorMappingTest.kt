package io.protobench.apiserver.web

import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.gateway.FailedHop
import io.protobench.apiserver.gateway.FailedMemberHop
import io.protobench.apiserver.measure.NoOpenWindow
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.http.HttpStatus
import org.springframework.web.server.ResponseStatusException

class ErrorMappingTest {

    private fun map(error: Throwable) = ErrorMapping.of(error, "GET", "/api/data/x")

    @Test
    fun `an invalid parameter is a 400 naming what is accepted`() {
        val response = map(InvalidParameter("size", "9gb", "up to 8mb"))

        assertThat(response.status).isEqualTo(HttpStatus.BAD_REQUEST)
        assertThat(response.body).containsEntry("parameter", "size").containsEntry("value", "9gb")
            .containsEntry("accepted", "up to 8mb")
    }

    @Test
    fun `hop failures are 502, 503 or 504 with the protocol and the detail`() {
        fun statusOf(failure: HopFailure) = map(FailedHop(Protocol.GRPC_UNARY, failure)).status

        assertThat(statusOf(HopFailure.Unavailable("refused"))).isEqualTo(HttpStatus.BAD_GATEWAY)
        assertThat(statusOf(HopFailure.Rejected("HTTP 400"))).isEqualTo(HttpStatus.BAD_GATEWAY)
        assertThat(statusOf(HopFailure.BadResponse("short"))).isEqualTo(HttpStatus.BAD_GATEWAY)
        assertThat(statusOf(HopFailure.TimedOut("slow"))).isEqualTo(HttpStatus.GATEWAY_TIMEOUT)
        assertThat(statusOf(HopFailure.Overloaded("pool"))).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
        assertThat(map(FailedHop(Protocol.GRPC_UNARY, HopFailure.Unavailable("refused"))).body).containsExactlyInAnyOrderEntriesOf(
            mapOf("error" to "data-server unavailable", "protocol" to "gRPC/Unary", "detail" to "refused"),
        )
    }

    @Test
    fun `member failures keep the data-server's meaning, and a data-server out of reach is a 503 for writes only`() {
        fun statusOf(failure: HopFailure) = map(FailedMemberHop(Protocol.HTTP_JSON, failure, 0, null, null)).status

        assertThat(statusOf(HopFailure.MemberRejected("email", "HTTP 400"))).isEqualTo(HttpStatus.BAD_REQUEST)
        assertThat(statusOf(HopFailure.DuplicateEmail("HTTP 409"))).isEqualTo(HttpStatus.CONFLICT)
        assertThat(statusOf(HopFailure.DatabaseUnavailable("HTTP 503"))).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
        assertThat(statusOf(HopFailure.Unavailable("refused"))).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE)
        assertThat(statusOf(HopFailure.TimedOut("slow"))).isEqualTo(HttpStatus.GATEWAY_TIMEOUT)
        assertThat(statusOf(HopFailure.Rejected("HTTP 404"))).isEqualTo(HttpStatus.BAD_GATEWAY)
        assertThat(map(FailedHop(Protocol.HTTP_JSON, HopFailure.Unavailable("refused"))).status).isEqualTo(HttpStatus.BAD_GATEWAY)
    }

    @Test
    fun `a member failure says how many were created before it and which field was at fault`() {
        val failure = HopFailure.DuplicateEmail("HTTP 409 …")
        val body = map(FailedMemberHop(Protocol.GRPC_UNARY, failure, 2, "members[2].email", "a@example.com")).body

        assertThat(body).containsExactlyInAnyOrderEntriesOf(
            mapOf(
                "error" to "duplicate email",
                "protocol" to "gRPC/Unary",
                "detail" to "HTTP 409 …",
                "createdBeforeFailure" to 2,
                "parameter" to "members[2].email",
                "value" to "a@example.com",
            ),
        )
        assertThat(map(FailedMemberHop(Protocol.GRPC_STREAM, HopFailure.TimedOut("slow"), 0, null, null)).body)
            .doesNotContainKeys("parameter", "value").containsEntry("createdBeforeFailure", 0)
    }

    @Test
    fun `ending without a window is a 409`() {
        assertThat(map(NoOpenWindow()).status).isEqualTo(HttpStatus.CONFLICT)
    }

    @Test
    fun `an unknown path is a 404 listing the endpoints`() {
        val response = map(ResponseStatusException(HttpStatus.NOT_FOUND))

        assertThat(response.status).isEqualTo(HttpStatus.NOT_FOUND)
        assertThat(response.body["message"] as String).contains("/api/data/{http/json, http/binary, grpc, grpc/stream}")
    }
}
