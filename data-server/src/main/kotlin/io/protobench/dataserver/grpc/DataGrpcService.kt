package io.protobench.dataserver.grpc

import io.protobench.contract.InvalidParameter
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.ComplexRequest
import io.protobench.contract.proto.DataChunk
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataResponse
import io.protobench.contract.proto.DataServiceGrpcKt
import io.protobench.dataserver.complex.ComplexMessages
import io.protobench.dataserver.info.ServedRequests
import io.protobench.dataserver.payload.RequestIds
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlin.coroutines.CoroutineContext

/**
 * `protobench.DataService`. Builds each response message per call from cached
 * payloads and level objects; grpc-java serializes it. Bad input fails the call with
 * INVALID_ARGUMENT and the [InvalidParameter] message. Handlers run in [handlerContext]
 * (see GrpcConfig).
 */
class DataGrpcService(
    private val payloads: GrpcPayloads,
    private val complex: ComplexMessages,
    private val served: ServedRequests,
    handlerContext: CoroutineContext,
) : DataServiceGrpcKt.DataServiceCoroutineImplBase(handlerContext) {

    override suspend fun getData(request: DataRequest): DataResponse {
        served.count()
        val size = validated { PayloadSize.parse(request.size) }
        val requestId = validated { RequestIds.bounded(request.requestId) }
        return DataResponse.newBuilder()
            .setRequestId(requestId)
            .setSize(size.bytes)
            .setPayload(payloads.whole(size))
            .build()
    }

    override fun getDataStream(request: DataRequest): Flow<DataChunk> = flow {
        served.count()
        val size = validated { PayloadSize.parse(request.size) }
        val requestId = validated { RequestIds.bounded(request.requestId) }
        payloads.chunks(size).forEachIndexed { index, data ->
            emit(
                DataChunk.newBuilder()
                    .setRequestId(requestId)
                    .setIndex(index)
                    .setTotalSize(size.bytes)
                    .setData(data)
                    .build(),
            )
        }
    }

    override suspend fun getComplexData(request: ComplexRequest): ComplexData {
        served.count()
        return levelMessage(request)
    }

    override fun getComplexDataStream(request: ComplexRequest): Flow<ComplexData> = flow {
        served.count()
        emit(levelMessage(request))
    }

    private fun levelMessage(request: ComplexRequest) = complex.messageFor(validated { ComplexityLevel.parse(request.complexity) })

    private inline fun <T> validated(parse: () -> T): T = try {
        parse()
    } catch (e: InvalidParameter) {
        throw e.asStatus()
    }
}
