package io.protobench.apiserver.client.grpc

import com.google.protobuf.CodedOutputStream
import io.protobench.apiserver.client.ComplexBody
import io.protobench.apiserver.client.DataClient
import io.protobench.apiserver.client.FetchedComplex
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.FetchedItems
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.carries
import io.protobench.apiserver.client.checkItemCount
import io.protobench.apiserver.client.http.checkDeclaredSize
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.message.ItemBatch
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexRequest
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.ItemsRequest
import org.springframework.stereotype.Component

/** gRPC/Unary: GetData, GetComplexData and GetItems (a batch of the user's message), one message each way. */
@Component
class GrpcUnaryClient(private val channels: GrpcChannels) : DataClient {

    override suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData {
        val response = channels.call { it.stub().getData(dataRequest(size, requestId)) }
        checkDeclaredSize(response.size, response.payload.size())
        return FetchedData(response.payload, response.serializedSize.toLong())
    }

    override suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex {
        val message = channels.call { it.stub().getComplexData(complexRequest(level, requestId)) }
        if (!message.carries(level)) throw HopFailure.BadResponse("asked for ${level.id}, got ${message.recordCase}")
        return FetchedComplex(ComplexBody.Message(message)) { message.serializedSize.toLong() }
    }

    override suspend fun fetchItems(count: Int, requestId: String): FetchedItems {
        val items = channels.call { it.itemStub().items(itemsRequest(count, requestId)) }
        checkItemCount(count, items)
        return FetchedItems(items) { items.sumOf { CodedOutputStream.computeMessageSize(ItemBatch.FIELD, it) }.toLong() }
    }
}

internal fun itemsRequest(count: Int, requestId: String): ItemsRequest =
    ItemsRequest.newBuilder().setCount(count).setRequestId(requestId).build()

internal fun dataRequest(size: PayloadSize, requestId: String): DataRequest =
    DataRequest.newBuilder().setSize(size.toString()).setRequestId(requestId).build()

internal fun complexRequest(level: ComplexityLevel, requestId: String): ComplexRequest =
    ComplexRequest.newBuilder().setComplexity(level.id).setRequestId(requestId).build()
