package io.protobench.dataserver.web

import com.fasterxml.jackson.databind.JsonMappingException
import io.protobench.contract.InvalidParameter
import io.protobench.dataserver.members.DatabaseUnavailable
import io.protobench.dataserver.members.DuplicateEmail
import org.springframework.beans.factory.annotation.Value
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.util.unit.DataSize
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.RestControllerAdvice
import org.springframework.web.server.PayloadTooLargeException
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.ServerWebInputException

/** The 503 body: what failed, and that nothing was written (the call may be repeated). */
data class UnavailableError(val error: String)

/**
 * The write path's HTTP errors, in the data-server's JSON style ([ParameterError] names the
 * field): a duplicate email 409; the database unavailable 503; a body that cannot be read
 * 400 naming the field whose JSON type is wrong, else the body; a body over the codec limit
 * (`spring.codec.max-in-memory-size`) 413. Only for the controllers that touch the
 * database, so the read paths keep Spring's own handling.
 */
@RestControllerAdvice(assignableTypes = [MemberController::class, MemberCountsController::class])
class MemberErrorHandler(
    /** Largest body the codecs read. */
    @Value("\${spring.codec.max-in-memory-size}") private val maxBody: DataSize,
) {
    @ExceptionHandler(DuplicateEmail::class)
    fun duplicate(e: DuplicateEmail) = json(HttpStatus.CONFLICT, ParameterError(e.message!!, "email", e.email, UNUSED_EMAIL))

    @ExceptionHandler(DatabaseUnavailable::class)
    fun unavailable(e: DatabaseUnavailable) = json(HttpStatus.SERVICE_UNAVAILABLE, UnavailableError(e.message!!))

    @ExceptionHandler(PayloadTooLargeException::class)
    fun tooLarge(e: PayloadTooLargeException, exchange: ServerWebExchange) =
        json(HttpStatus.PAYLOAD_TOO_LARGE, ParameterError.of(InvalidParameter("body", null, bodyAccepted(exchange))))

    @ExceptionHandler(ServerWebInputException::class)
    fun unreadable(e: ServerWebInputException, exchange: ServerWebExchange): ResponseEntity<ParameterError> {
        val field = generateSequence<Throwable>(e) { it.cause }.filterIsInstance<JsonMappingException>().firstOrNull()
            ?.path?.lastOrNull { it.fieldName != null }?.fieldName
        val problem =
            if (field != null) InvalidParameter(field, null, "a JSON string") else InvalidParameter("body", null, bodyAccepted(exchange))
        return json(HttpStatus.BAD_REQUEST, ParameterError.of(problem))
    }

    private fun bodyAccepted(exchange: ServerWebExchange): String {
        val protobuf = exchange.request.headers.contentType?.isCompatibleWith(MemberBody.PROTOBUF.mediaType) == true
        return (if (protobuf) PROTOBUF_BODY else JSON_BODY) + ", at most ${maxBody.toBytes()} bytes"
    }

    private fun <T> json(status: HttpStatus, body: T): ResponseEntity<T> =
        ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body)

    private companion object {
        const val UNUSED_EMAIL = "an email no member has yet"
        const val JSON_BODY = "a JSON object with the string fields email, password, name, profileImage (base64) and etcInfo"
        const val PROTOBUF_BODY = "a serialized protobench.CreateMemberRequest"
    }
}
