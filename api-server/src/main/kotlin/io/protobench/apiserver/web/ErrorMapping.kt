package io.protobench.apiserver.web

import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.gateway.FailedHop
import io.protobench.apiserver.gateway.FailedMemberHop
import io.protobench.apiserver.gateway.NullHop
import io.protobench.apiserver.measure.NoOpenWindow
import io.protobench.apiserver.measure.WindowAlreadyOpen
import io.protobench.contract.InvalidParameter
import org.springframework.http.HttpStatus
import org.springframework.http.HttpStatusCode
import org.springframework.web.server.ResponseStatusException

/** A status and the JSON body that explains it (never a stack trace). */
data class ErrorResponse(val status: HttpStatusCode, val body: Map<String, Any?>)

/** How every error the gateway can meet is answered. */
object ErrorMapping {

    fun of(error: Throwable, method: String, path: String): ErrorResponse = when (error) {
        is InvalidParameter -> ErrorResponse(
            HttpStatus.BAD_REQUEST,
            mapOf(
                "error" to "invalid ${error.parameter}",
                "parameter" to error.parameter,
                "value" to error.value,
                "accepted" to error.accepted,
            ),
        )

        is FailedHop -> ErrorResponse(
            statusOf(error.failure),
            mapOf("error" to error.failure.error, "protocol" to error.protocol.label, "detail" to error.failure.detail),
        )

        is FailedMemberHop -> ErrorResponse(memberStatusOf(error.failure), memberFailureBody(error))

        is NoOpenWindow -> ErrorResponse(HttpStatus.CONFLICT, mapOf("error" to "no open window", "message" to error.message))

        is WindowAlreadyOpen -> ErrorResponse(
            HttpStatus.CONFLICT,
            mapOf(
                "error" to "window already open",
                "message" to error.message,
                "openWindow" to mapOf(
                    "protocol" to error.protocol,
                    "testName" to error.testName,
                    "startedAt" to error.startedAt.toString(),
                ),
            ),
        )

        is ResponseStatusException -> statusError(error, method, path)

        else -> ErrorResponse(
            HttpStatus.INTERNAL_SERVER_ERROR,
            mapOf("error" to "internal error", "message" to "${error.javaClass.simpleName}: ${error.message}"),
        )
    }

    fun statusOf(failure: HopFailure): HttpStatus = when (failure) {
        is HopFailure.Unavailable -> HttpStatus.BAD_GATEWAY
        is HopFailure.Rejected -> HttpStatus.BAD_GATEWAY
        is HopFailure.BadResponse -> HttpStatus.BAD_GATEWAY
        is HopFailure.TimedOut -> HttpStatus.GATEWAY_TIMEOUT
        is HopFailure.Overloaded -> HttpStatus.SERVICE_UNAVAILABLE
        is HopFailure.MemberRejected -> HttpStatus.BAD_REQUEST
        is HopFailure.DuplicateEmail -> HttpStatus.CONFLICT
        is HopFailure.DatabaseUnavailable -> HttpStatus.SERVICE_UNAVAILABLE
    }

    /**
     * A write's failure: as a read's, except that a data-server out of reach is 503, as is
     * one whose database is out of reach: to the caller both say "not written, try again
     * later". The read paths keep their 502, which their runs and reports count.
     */
    fun memberStatusOf(failure: HopFailure): HttpStatus =
        if (failure is HopFailure.Unavailable) HttpStatus.SERVICE_UNAVAILABLE else statusOf(failure)

    /** A hop failure's fields, how many members were created before it, and the member field at fault when known. */
    private fun memberFailureBody(error: FailedMemberHop): Map<String, Any?> = buildMap {
        put("error", error.failure.error)
        put("protocol", error.protocol.label)
        put("detail", error.failure.detail)
        put("createdBeforeFailure", error.createdBeforeFailure)
        error.parameter?.let { put("parameter", it) }
        error.value?.let { put("value", it) }
    }

    private fun statusError(error: ResponseStatusException, method: String, path: String): ErrorResponse {
        val status = error.statusCode
        val message = when (status.value()) {
            404 ->
                "no endpoint $method $path; the gateway serves /api/data/{$PROTOCOLS}?size=, " +
                    "/api/complex/{$PROTOCOLS}?complexity=, POST /api/members/{$PROTOCOLS} (and the null hop ${NullHop.PATH_SEGMENT} " +
                    "in place of a protocol), /api/sizes, /api/complexities, /api/protocols, /api/health, " +
                    "POST /benchmark/start, POST /benchmark/end"

            else -> error.reason ?: error.message
        }
        val name = HttpStatus.resolve(status.value())?.reasonPhrase?.lowercase() ?: "error"
        return ErrorResponse(status, mapOf("error" to name, "status" to status.value(), "path" to path, "message" to message))
    }

    private const val PROTOCOLS = "http/json, http/binary, grpc, grpc/stream"
}
