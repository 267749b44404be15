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
    handlerContext: CoroutineContext,
) : DataServiceGrpcKt.DataServiceCoroutineImplBase(handlerContext) {

    override suspend fun getData(request: DataRequest): DataResponse {
        val size = validated { PayloadSize.parse(request.size) }
        val requestId = validated { RequestIds.bounded(request.requestId) }
        return DataResponse.newBuilder()
            .setRequestId(requestId)
            .setSize(size.bytes)
            .setPayload(payloads.whole(size))
            .build()
    }

    override fun getDataStream(request: DataRequest): Flow<DataChunk> = flow {
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

    override suspend fun getComplexData(request: ComplexRequest): ComplexData =
        complex.messageFor(validated { ComplexityLevel.parse(request.complexity) })

    override fun getComplexDataStream(request: ComplexRequest): Flow<ComplexData> = flow {
        emit(getComplexData(request))
    }

    private inline fun <T> validated(parse: () -> T): T = try {
        parse()
    } catch (e: InvalidParameter) {
        throw e.asStatus()
    }
}
