package io.protobench.apiserver.client.grpc

import com.google.protobuf.ByteString
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.HopFailure
import io.protobench.contract.proto.DataChunk

/**
 * Collects the chunks of one GetDataStream call and checks them: indices 0, 1, 2, …
 * without gaps, the same total_size in every chunk, and the chunk sizes summing to it.
 * The payload is joined without copying (a rope over the chunks' bytes).
 */
class ChunkAssembler {
    private val parts = ArrayList<ByteString>()
    private var totalSize = -1
    private var received = 0L
    private var wireBytes = 0L

    fun add(chunk: DataChunk) {
        if (chunk.index != parts.size) bad("chunk ${chunk.index} arrived where chunk ${parts.size} was expected")
        if (totalSize == -1) totalSize = chunk.totalSize
        if (chunk.totalSize != totalSize) bad("chunk ${chunk.index} says total ${chunk.totalSize}, earlier chunks said $totalSize")
        parts += chunk.data
        received += chunk.data.size()
        wireBytes += chunk.serializedSize
        if (received > totalSize) bad("received $received bytes, more than the announced total $totalSize")
    }

    /** The whole payload; fails if the stream was empty or ended short of the announced total. */
    fun finish(): FetchedData {
        if (parts.isEmpty()) bad("the stream carried no chunks")
        if (received != totalSize.toLong()) bad("received $received bytes in ${parts.size} chunks, announced total $totalSize")
        return FetchedData(ByteString.copyFrom(parts), wireBytes)
    }

    private fun bad(detail: String): Nothing = throw HopFailure.BadResponse(detail)
}
