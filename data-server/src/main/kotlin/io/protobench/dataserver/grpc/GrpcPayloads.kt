package io.protobench.dataserver.grpc

import com.google.protobuf.ByteString
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.payload.PayloadCatalog

/**
 * The payload bytes of gRPC responses, per [GrpcPayloadMode]:
 * - SHARED: the cached ByteString of the size (no copy); chunks are `substring`s of it
 *   (views over the same array, no copy).
 * - COPY: a fresh `ByteString.copyFrom` of the cached bytes for every response, or
 *   of each chunk's range for every chunk — what the seeds did per request.
 */
class GrpcPayloads(
    private val catalog: PayloadCatalog,
    private val mode: GrpcPayloadMode,
    /** Largest chunk, bytes. */
    private val chunkSizeBytes: Int,
) {
    constructor(catalog: PayloadCatalog, settings: DataServerSettings) :
        this(catalog, settings.grpcPayloadMode, settings.chunkSizeBytes)

    /** The whole payload of [size] for one GetData response. */
    fun whole(size: PayloadSize): ByteString {
        val payload = catalog.payloadFor(size)
        return when (mode) {
            GrpcPayloadMode.SHARED -> payload.byteString
            GrpcPayloadMode.COPY -> ByteString.copyFrom(payload.bytes)
        }
    }

    /** The payload of [size] in order, as slices of at most [chunkSizeBytes]; produced lazily. */
    fun chunks(size: PayloadSize): Sequence<ByteString> {
        val payload = catalog.payloadFor(size)
        return (0 until size.bytes step chunkSizeBytes).asSequence().map { offset ->
            val length = minOf(chunkSizeBytes, size.bytes - offset)
            when (mode) {
                GrpcPayloadMode.SHARED -> payload.byteString.substring(offset, offset + length)
                GrpcPayloadMode.COPY -> ByteString.copyFrom(payload.bytes, offset, length)
            }
        }
    }

    /** Number of chunks [chunks] yields for [size]. */
    fun chunkCount(size: PayloadSize): Int = (size.bytes + chunkSizeBytes - 1) / chunkSizeBytes
}
