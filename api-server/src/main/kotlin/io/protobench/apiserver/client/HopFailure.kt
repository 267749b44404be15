package io.protobench.apiserver.client

/**
 * Why a call to the data-server did not deliver a usable response. Clients translate
 * their transport's exceptions into these; the web layer maps each to a status
 * (400 / 409 / 502 / 503 / 504) and the measurement window counts it as a failed request
 * under its [error].
 */
sealed class HopFailure(val error: String, detail: String, cause: Throwable? = null) : RuntimeException(detail, cause) {
    val detail: String get() = message ?: error

    /** Connection refused, reset or closed, or the data-server reported itself unavailable. */
    class Unavailable(detail: String, cause: Throwable? = null) : HopFailure("data-server unavailable", detail, cause)

    /** No complete response within `protobench.gateway.timeouts.request-ms` (or connect/acquire limits). */
    class TimedOut(detail: String, cause: Throwable? = null) : HopFailure("data-server timeout", detail, cause)

    /** The data-server answered with an error status (HTTP 4xx/5xx, gRPC error code) and this message. */
    class Rejected(detail: String, cause: Throwable? = null) : HopFailure("data-server rejected the request", detail, cause)

    /** The response arrived but is not what was asked for (undecodable, wrong size, chunks out of order). */
    class BadResponse(detail: String, cause: Throwable? = null) : HopFailure("bad response from data-server", detail, cause)

    /**
     * The write path: the data-server refused a member as invalid (HTTP 400, gRPC
     * INVALID_ARGUMENT), naming the [parameter] (`email`, or `members[2].email` in a stream).
     */
    class MemberRejected(val parameter: String, detail: String, cause: Throwable? = null) :
        HopFailure("member rejected by the data-server", detail, cause)

    /** The write path: an email is taken (HTTP 409, gRPC ALREADY_EXISTS). */
    class DuplicateEmail(detail: String, cause: Throwable? = null) : HopFailure("duplicate email", detail, cause)

    /** The write path: the data-server is up but cannot reach its database (HTTP 503, gRPC UNAVAILABLE saying so); nothing was written. */
    class DatabaseUnavailable(detail: String, cause: Throwable? = null) : HopFailure("database unavailable", detail, cause)

    /** The gateway's own limit was hit (too many requests waiting for a pooled connection). */
    class Overloaded(detail: String, cause: Throwable? = null) : HopFailure("gateway overloaded", detail, cause)
}

/** [this] as a [HopFailure], keeping it when it already is one. */
@PublishedApi
internal fun Throwable.asUnexpectedFailure(): HopFailure =
    this as? HopFailure ?: HopFailure.BadResponse("${javaClass.simpleName}: ${message ?: "no message"}", this)
