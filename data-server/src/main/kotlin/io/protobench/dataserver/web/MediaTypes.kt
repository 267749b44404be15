package io.protobench.dataserver.web

import org.springframework.http.MediaType

/** Content type of HTTP/Binary bodies: one serialized protobuf message. */
const val APPLICATION_PROTOBUF = "application/x-protobuf"

/**
 * The two bodies `/data/binary` answers with, chosen by the request's `Accept`:
 * - [PROTOBUF]: a serialized `DataResponse` (request id, size and payload), the default.
 * - [RAW]: the bare payload bytes (`application/octet-stream`), the seeds' "raw bytes"
 *   body: no framing at all, so its only check is its length.
 */
enum class BinaryBody(val mediaType: MediaType) {
    PROTOBUF(MediaType.parseMediaType(APPLICATION_PROTOBUF)),
    RAW(MediaType.APPLICATION_OCTET_STREAM),
    ;

    companion object {
        /**
         * The body [accepted] (most preferred first, as Spring's content-type resolver sorts
         * `Accept`) asks for: the first type that admits exactly one body decides; a
         * wildcard admitting both (any type, any `application` type) or no `Accept` at all
         * keeps the default, protobuf, so existing clients are answered as before.
         */
        fun negotiate(accepted: List<MediaType>): BinaryBody {
            for (type in accepted) {
                val admitted = entries.filter { type.includes(it.mediaType) }
                if (admitted.isNotEmpty()) return admitted.singleOrNull() ?: PROTOBUF
            }
            return PROTOBUF
        }
    }
}
