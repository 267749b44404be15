package io.protobench.dataserver.grpc

import com.google.protobuf.ByteString
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.payload.PayloadCatalog

/**
 * The payload bytes of gRPC responses, per [GrpcPayloadMode]:
 * - SHARED: a zero-copy view of the catalog's shared buffer; chunks are views of
 *   their ranges of it.
 * - COPY: a fresh `ByteString.copyFrom` of the payload bytes for every response, or
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
    fun whole(size: PayloadSize): ByteString = range(0, size.bytes)

    /** The payload of [size] in order, as slices of at most [chunkSizeBytes]; produced lazily. */
    fun chunks(size: PayloadSize): Sequence<ByteString> = (0 until size.bytes step chunkSizeBytes).asSequence().map { offset ->
        range(offset, minOf(chunkSizeBytes, size.bytes - offset))
    }

    /** Number of chunks [chunks] yields for [size]. */
    fun chunkCount(size: PayloadSize): Int = (size.bytes + chunkSizeBytes - 1) / chunkSizeBytes

    private fun range(offset: Int, length: Int): ByteString = catalog.range(offset, length, mode)
}
