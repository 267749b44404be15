package io.protobench.dataserver.payload

import com.google.protobuf.ByteString
import com.google.protobuf.UnsafeByteOperations
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.GrpcPayloadMode
import org.springframework.stereotype.Component

/**
 * The payload bytes of every size, served from ONE buffer of the largest size
 * (8 MiB), generated at start-up: the payload of n bytes is its first n bytes (see
 * [PayloadGenerator]). Memory is therefore fixed at [retainedBytes] however many
 * distinct sizes are requested (a cache per size once let ~120 sizes near 8 MiB fill
 * a 1 GiB heap), and no request generates payload bytes.
 * Nobody may modify the buffer: the views handed out share it.
 */
@Component
class PayloadCatalog {
    private val buffer: ByteArray = PayloadGenerator.payloadFor(PayloadSize(PayloadSize.MAX_BYTES))
    private val whole: ByteString = UnsafeByteOperations.unsafeWrap(buffer)

    /** Bytes this catalog holds: the one shared buffer, whatever was requested. */
    val retainedBytes: Long get() = buffer.size.toLong()

    /** The payload of [size] as a zero-copy view of the shared buffer (one small view object, no byte copy). */
    fun payload(size: PayloadSize): ByteString = slice(0, size.bytes)

    /** Bytes [offset] until [offset] + [length] of the payload stream, as a zero-copy view. */
    fun slice(offset: Int, length: Int): ByteString = whole.substring(offset, offset + length)

    /** The same bytes as [slice], copied into a new ByteString (the naive per-response copy). */
    fun copy(offset: Int, length: Int): ByteString = ByteString.copyFrom(buffer, offset, length)

    /** Bytes [offset] until [offset] + [length] as [mode] serves them: a [slice] (SHARED) or a [copy] (COPY). */
    fun range(offset: Int, length: Int, mode: GrpcPayloadMode): ByteString = when (mode) {
        GrpcPayloadMode.SHARED -> slice(offset, length)
        GrpcPayloadMode.COPY -> copy(offset, length)
    }

    /** The HTTP/JSON body carrying the payload of [size]; its base64 is written straight from the shared buffer. */
    fun jsonBody(requestId: String, size: PayloadSize): PayloadJson = PayloadJson(requestId, size.bytes, buffer)
}
