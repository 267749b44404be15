package io.protobench.dataserver.grpc

import io.grpc.ServerServiceDefinition
import io.grpc.kotlin.ServerCalls
import io.protobench.contract.InvalidParameter
import io.protobench.contract.message.ItemMethods
import io.protobench.contract.proto.ItemsRequest
import io.protobench.dataserver.info.ServedRequests
import io.protobench.dataserver.message.ItemCatalog
import kotlinx.coroutines.flow.flow
import kotlin.coroutines.CoroutineContext

/**
 * `protobench.ItemService`, a user's message over gRPC ([ItemMethods]): GetItems answers one
 * batch, GetItemStream `count` messages. Handlers run in [handlerContext], as DataService's.
 */
class ItemGrpcService(private val items: ItemCatalog, private val served: ServedRequests, private val handlerContext: CoroutineContext) {
    private val methods = ItemMethods(items.message)

    fun bindService(): ServerServiceDefinition = ServerServiceDefinition.builder(ItemMethods.SERVICE)
        .addMethod(
            ServerCalls.unaryServerMethodDefinition(handlerContext, methods.batch) { request ->
                served.count()
                items.messages(count(request))
            },
        )
        .addMethod(
            ServerCalls.serverStreamingServerMethodDefinition(handlerContext, methods.stream) { request ->
                flow {
                    served.count()
                    items.messages(count(request)).forEach { emit(it) }
                }
            },
        )
        .build()

    private fun count(request: ItemsRequest): Int = try {
        items.count(request.count)
    } catch (e: InvalidParameter) {
        throw e.asStatus()
    }
}
