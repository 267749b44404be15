package io.protobench.apiserver.client.grpc

import io.protobench.apiserver.client.ComplexBody
import io.protobench.apiserver.client.DataClient
import io.protobench.apiserver.client.FetchedComplex
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.FetchedItems
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.carries
import io.protobench.apiserver.client.checkItemCount
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import kotlinx.coroutines.flow.toList
import org.springframework.stereotype.Component

/** gRPC/Stream: GetDataStream (the payload in chunks), GetComplexDataStream (one message) and GetItemStream (a message per item). */
@Component
class GrpcStreamClient(private val channels: GrpcChannels) : DataClient {

    override suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData {
        val chunks = ChunkAssembler()
        channels.call { it.stub().getDataStream(dataRequest(size, requestId)).collect(chunks::add) }
        return chunks.finish()
    }

    override suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex {
        val messages: List<ComplexData> =
            channels.call { it.stub().getComplexDataStream(complexRequest(level, requestId)).toList() }
        val message = messages.singleOrNull()
            ?: throw HopFailure.BadResponse("expected one ${level.id} message in the stream, got ${messages.size}")
        if (!message.carries(level)) throw HopFailure.BadResponse("asked for ${level.id}, got ${message.recordCase}")
        return FetchedComplex(ComplexBody.Message(message)) { message.serializedSize.toLong() }
    }

    override suspend fun fetchItems(count: Int, requestId: String): FetchedItems {
        val items = channels.call { it.itemStub().itemStream(itemsRequest(count, requestId)).toList() }
        checkItemCount(count, items)
        return FetchedItems(items) { items.sumOf { it.serializedSize.toLong() } }
    }
}
