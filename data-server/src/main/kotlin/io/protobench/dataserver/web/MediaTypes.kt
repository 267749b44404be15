package io.protobench.dataserver.web

import org.springframework.http.MediaType

/** Content type of HTTP/Binary bodies: one serialized protobuf message. */
const val APPLICATION_PROTOBUF = "application/x-protobuf"

/** A body an endpoint can answer with, written in one media type. */
interface NegotiatedBody {
    val mediaType: MediaType
}

/**
 * The one of [options] that [accepted] (most preferred first, as Spring's content-type
 * resolver sorts `Accept`) asks for: the first type that admits exactly one option
 * decides; a wildcard admitting several (any type, any `application` type) or no
 * `Accept` at all gets [fallback].
 */
fun <T : NegotiatedBody> negotiateBody(accepted: List<MediaType>, options: List<T>, fallback: T): T {
    for (type in accepted) {
        val admitted = options.filter { type.includes(it.mediaType) }
        if (admitted.isNotEmpty()) return admitted.singleOrNull() ?: fallback
    }
    return fallback
}

/**
 * The two bodies `/data/binary` answers with, chosen by the request's `Accept`:
 * - [PROTOBUF]: a serialized `DataResponse` (request id, size and payload), the default.
 * - [RAW]: the bare payload bytes (`application/octet-stream`), the seeds' "raw bytes"
 *   body: no framing at all, so its only check is its length.
 */
enum class BinaryBody(override val mediaType: MediaType) : NegotiatedBody {
    PROTOBUF(MediaType.parseMediaType(APPLICATION_PROTOBUF)),
    RAW(MediaType.APPLICATION_OCTET_STREAM),
    ;

    companion object {
        /** The body [accepted] asks for (see [negotiateBody]); protobuf unless `Accept` names raw bytes alone, as before raw existed. */
        fun negotiate(accepted: List<MediaType>): BinaryBody = negotiateBody(accepted, entries, fallback = PROTOBUF)
    }
}

/**
 * The two answers of `POST /api/members`, chosen by the request's `Accept` and, when that
 * admits both or is missing, by the body the request itself sent: a JSON `{"id": …}`
 * ([io.protobench.contract.members.MemberCreated]) or a serialized `CreateMemberResponse`.
 */
enum class MemberBody(override val mediaType: MediaType) : NegotiatedBody {
    JSON(MediaType.APPLICATION_JSON),
    PROTOBUF(MediaType.parseMediaType(APPLICATION_PROTOBUF)),
}
