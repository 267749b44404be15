package io.protobench.dataserver.web

import io.protobench.contract.InvalidParameter
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.RestControllerAdvice
import org.springframework.web.server.ServerWebExchange

/** The 400 body for a rejected request parameter. */
data class ParameterError(
    /** Human-readable: parameter, value and what is accepted. */
    val error: String,
    val parameter: String,
    /** The value as given; null when the parameter was missing. */
    val value: String?,
    val accepted: String,
) {
    companion object {
        fun of(e: InvalidParameter) = ParameterError(e.message ?: "invalid ${e.parameter}", e.parameter, e.value, e.accepted)
    }
}

/**
 * Turns [InvalidParameter] from any endpoint into 400 with a JSON [ParameterError],
 * also for endpoints that produce protobuf and for clients that accept only protobuf.
 */
@RestControllerAdvice
class InvalidParameterHandler {
    @ExceptionHandler(InvalidParameter::class)
    fun invalidParameter(e: InvalidParameter, exchange: ServerWebExchange): ResponseEntity<ParameterError> {
        // Spring's protobuf writer names the message type in headers before the
        // (failing) body is produced; they do not describe this JSON body.
        exchange.response.headers.remove(PROTOBUF_SCHEMA_HEADER)
        exchange.response.headers.remove(PROTOBUF_MESSAGE_HEADER)
        return ResponseEntity.status(HttpStatus.BAD_REQUEST)
            .contentType(MediaType.APPLICATION_JSON)
            .body(ParameterError.of(e))
    }

    private companion object {
        const val PROTOBUF_SCHEMA_HEADER = "X-Protobuf-Schema"
        const val PROTOBUF_MESSAGE_HEADER = "X-Protobuf-Message"
    }
}
