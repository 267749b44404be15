package io.protobench.contract.message

import com.google.protobuf.Message
import io.grpc.CallOptions
import io.grpc.Channel
import io.grpc.MethodDescriptor
import io.grpc.MethodDescriptor.MethodType
import io.grpc.kotlin.AbstractCoroutineStub
import io.grpc.kotlin.ClientCalls
import io.grpc.protobuf.ProtoUtils
import io.protobench.contract.proto.ItemsRequest
import kotlinx.coroutines.flow.Flow
import java.io.InputStream

/**
 * The gRPC methods that carry a [UserMessage], built at start from its generated class (there
 * is no .proto service for them: the answer is the user's type). `GetItems` answers one
 * message, a batch ([ItemBatch]); `GetItemStream` answers `count` messages of the type. Both
 * marshal with the generated code: every item is encoded and decoded in full.
 */
class ItemMethods(message: UserMessage) {
    private val request = ProtoUtils.marshaller(ItemsRequest.getDefaultInstance())

    val batch: MethodDescriptor<ItemsRequest, List<Message>> = MethodDescriptor.newBuilder(request, BatchMarshaller(message))
        .setType(MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "GetItems"))
        .build()

    val stream: MethodDescriptor<ItemsRequest, Message> = MethodDescriptor.newBuilder(
        request,
        ProtoUtils.marshaller(message.defaultInstance),
    )
        .setType(MethodType.SERVER_STREAMING)
        .setFullMethodName(MethodDescriptor.generateFullMethodName(SERVICE, "GetItemStream"))
        .build()

    /**
     * One batch: written straight into the transport's buffers as grpc's own protobuf marshaller
     * writes a message ([ItemBatch.Encoding]), read as it arrives.
     */
    private class BatchMarshaller(private val message: UserMessage) : MethodDescriptor.Marshaller<List<Message>> {
        override fun stream(value: List<Message>): InputStream = ItemBatch.Encoding(value)

        override fun parse(stream: InputStream): List<Message> = try {
            ItemBatch.read(stream, message.parser)
        } catch (e: com.google.protobuf.InvalidProtocolBufferException) {
            throw io.grpc.Status.INTERNAL.withDescription(
                "undecodable ${message.type} batch: ${e.message}",
            ).withCause(e).asRuntimeException()
        }
    }

    companion object {
        const val SERVICE = "protobench.ItemService"
    }
}

/** The gateway's stub of [ItemMethods] on one channel (deadlines and compression as any coroutine stub's). */
class ItemStub(channel: Channel, private val methods: ItemMethods, callOptions: CallOptions = CallOptions.DEFAULT) :
    AbstractCoroutineStub<ItemStub>(channel, callOptions) {
    override fun build(channel: Channel, callOptions: CallOptions): ItemStub = ItemStub(channel, methods, callOptions)

    suspend fun items(request: ItemsRequest): List<Message> = ClientCalls.unaryRpc(channel, methods.batch, request, callOptions)

    fun itemStream(request: ItemsRequest): Flow<Message> = ClientCalls.serverStreamingRpc(channel, methods.stream, request, callOptions)
}
