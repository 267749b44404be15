package io.protobench.driver

import io.grpc.CallOptions
import io.grpc.Codec
import io.grpc.DecompressorRegistry
import io.grpc.ManagedChannel
import io.grpc.MethodDescriptor
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
import io.grpc.netty.shaded.io.netty.channel.ChannelOption
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory
import io.grpc.protobuf.ProtoUtils
import io.grpc.stub.ClientCalls
import io.grpc.stub.StreamObserver
import io.protobench.contract.proto.CreateMemberResponse
import io.protobench.contract.proto.CreateMembersResponse
import io.protobench.contract.proto.DataChunk
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataResponse
import io.protobench.contract.proto.DataServiceGrpc
import java.io.ByteArrayInputStream
import java.io.InputStream
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.atomic.AtomicLong

/**
 * gRPC calls to the data-server with grpc-java over Netty, as the gateway makes them (a
 * direct run, where the driver is the calling service): [channelCount] plaintext channels
 * (one HTTP/2 connection each) taken in turn, all on one event loop whose thread also paces
 * the arrivals and runs the answers (direct executor: no hand-off per call). HTTP/2 carries
 * many calls on a connection, so nothing waits for one; an arrival is dropped only when as
 * many calls are out as an HTTP pool of [maxConnections] would hold with its queue full.
 */
class GrpcCalls(address: String, channelCount: Int, private val maxConnections: Int) : Calls {
    private val group: EventLoopGroup = DefaultThreadFactory("driver-grpc", true).let { threads ->
        if (Epoll.isAvailable()) EpollEventLoopGroup(1, threads) else NioEventLoopGroup(1, threads)
    }
    override val loop: ScheduledExecutorService = group.next()

    /** A channel and the calls made on it so far (its first ones are a new connection's). */
    private class Line(val channel: ManagedChannel) {
        val calls = AtomicLong()
    }

    private val lines = List(channelCount.coerceIn(1, maxConnections)) { Line(open(address)) }
    private val nextLine = AtomicInteger()
    private val outstanding = AtomicInteger()

    /** Channels that have carried a call: each is one connection while the server keeps it. */
    override val connectionsOpened: Long get() = lines.count { it.calls.get() > 0 }.toLong()

    private fun open(address: String): ManagedChannel {
        val (host, port) = address.substringBeforeLast(':') to address.substringAfterLast(':').toInt()
        return NettyChannelBuilder.forAddress(host, port)
            .usePlaintext()
            .eventLoopGroup(group)
            .channelType(if (Epoll.isAvailable()) EpollSocketChannel::class.java else NioSocketChannel::class.java)
            .directExecutor()
            .maxInboundMessageSize(MAX_MESSAGE_BYTES)
            .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
            // As the gateway without compression: identity only, so the server never compresses.
            .decompressorRegistry(DecompressorRegistry.emptyInstance().with(Codec.Identity.NONE, false))
            .build()
    }

    override fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit) {
        if (outstanding.get() >= maxConnections * (1 + Connections.WAITING_PER_CONNECTION)) {
            return done(Outcome("${outstanding.get()} calls out, the most this plan allows", 0, dropped = true))
        }
        outstanding.incrementAndGet()
        val line = lines[Math.floorMod(nextLine.getAndIncrement(), lines.size)]
        val number = line.calls.incrementAndGet()
        val finish = { problem: String?, firstMessageNanos: Long? ->
            outstanding.decrementAndGet()
            done(Outcome(problem, number, firstMessageNanos = firstMessageNanos))
        }
        val options = CallOptions.DEFAULT.withDeadlineAfter(CALL_TIMEOUT_S, TimeUnit.SECONDS)
        when (target.path) {
            GET_DATA -> getData(line.channel, options, target, finish)
            GET_DATA_STREAM -> getDataStream(line.channel, options, target, finish)
            CREATE_MEMBER -> createMember(line.channel, options, target, checkNotNull(body), finish)
            CREATE_MEMBERS -> createMembers(line.channel, options, target, checkNotNull(body), finish)
        }
    }

    /** Unary `GetData`: the answer's size and its payload's bytes both as asked. */
    private fun getData(channel: ManagedChannel, options: CallOptions, target: CallTarget, finish: (String?, Long?) -> Unit) {
        val call = channel.newCall(DataServiceGrpc.getGetDataMethod(), options)
        ClientCalls.asyncUnaryCall(
            call,
            request(target),
            answer(finish) { response: DataResponse ->
                val payload = response.payload.size().toLong()
                if (response.size.toLong() == target.value && payload == target.value) {
                    null
                } else {
                    "size ${response.size} with $payload payload bytes, expected ${target.value}"
                }
            },
        )
    }

    /** Server-streaming `GetDataStream`: every chunk's bytes together as asked; the first message's time kept. */
    private fun getDataStream(channel: ManagedChannel, options: CallOptions, target: CallTarget, finish: (String?, Long?) -> Unit) {
        val call = channel.newCall(DataServiceGrpc.getGetDataStreamMethod(), options)
        ClientCalls.asyncServerStreamingCall(
            call,
            request(target),
            object : StreamObserver<DataChunk> {
                private var firstAt: Long? = null
                private var received = 0L

                override fun onNext(chunk: DataChunk) {
                    if (firstAt == null) firstAt = System.nanoTime()
                    received += chunk.data.size()
                }

                override fun onError(error: Throwable) = finish(Calls.describe(error), firstAt)

                override fun onCompleted() = finish(
                    if (received ==
                        target.value
                    ) {
                        null
                    } else {
                        "the stream carried $received bytes, expected ${target.value}"
                    },
                    firstAt,
                )
            },
        )
    }

    /** Unary `CreateMember`, the serialized request sent as it is: a new id. */
    private fun createMember(
        channel: ManagedChannel,
        options: CallOptions,
        target: CallTarget,
        body: ByteArray,
        finish: (String?, Long?) -> Unit,
    ) {
        ClientCalls.asyncUnaryCall(
            channel.newCall(CREATE_MEMBER_RAW, options),
            body,
            answer(finish) { response: CreateMemberResponse ->
                if (response.id > 0) null else "id ${response.id}, expected above 0"
            },
        )
    }

    /** Client-streaming `CreateMembers` with the one member, then the end of the stream: a count of [CallTarget.value]. */
    private fun createMembers(
        channel: ManagedChannel,
        options: CallOptions,
        target: CallTarget,
        body: ByteArray,
        finish: (String?, Long?) -> Unit,
    ) {
        val requests = ClientCalls.asyncClientStreamingCall(
            channel.newCall(CREATE_MEMBERS_RAW, options),
            answer(finish) { response: CreateMembersResponse ->
                if (response.count.toLong() == target.value) null else "count ${response.count}, expected ${target.value}"
            },
        )
        requests.onNext(body)
        requests.onCompleted()
    }

    private fun request(target: CallTarget): DataRequest = DataRequest.newBuilder().setSize(target.size).build()

    /** One answer checked by [problem], or the call's error; [finish] once either way. */
    private fun <T> answer(finish: (String?, Long?) -> Unit, problem: (T) -> String?) = object : StreamObserver<T> {
        private var result: String? = NO_ANSWER

        override fun onNext(value: T) {
            result = problem(value)
        }

        override fun onError(error: Throwable) = finish(Calls.describe(error), null)

        override fun onCompleted() = finish(result, null)
    }

    override fun close() {
        lines.forEach { it.channel.shutdownNow() }
        lines.forEach { it.channel.awaitTermination(2, TimeUnit.SECONDS) }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS)
    }

    companion object {
        const val GET_DATA = "protobench.DataService/GetData"
        const val GET_DATA_STREAM = "protobench.DataService/GetDataStream"
        const val CREATE_MEMBER = "protobench.MemberService/CreateMember"
        const val CREATE_MEMBERS = "protobench.MemberService/CreateMembers"
        val METHODS = listOf(GET_DATA, GET_DATA_STREAM, CREATE_MEMBER, CREATE_MEMBERS)

        private const val CALL_TIMEOUT_S = 30L
        private const val CONNECT_TIMEOUT_MS = 5_000
        private const val MAX_MESSAGE_BYTES = 64 * 1024 * 1024
        private const val NO_ANSWER = "the call completed without an answer"

        /** What is wrong with a gRPC [target], or null. */
        fun problem(target: CallTarget): String? = when {
            target.path !in METHODS -> "gRPC method '${target.path}' is not one of $METHODS"

            target.path in listOf(GET_DATA, GET_DATA_STREAM) && (target.size == null || target.value == null) ->
                "${target.path} needs the size to ask for and the bytes expected (value)"

            target.path in listOf(CREATE_MEMBER, CREATE_MEMBERS) && target.body == null ->
                "${target.path} needs a body: a serialized CreateMemberRequest"

            target.path == CREATE_MEMBERS && target.value == null -> "$CREATE_MEMBERS needs the count expected (value)"

            else -> null
        }

        /** The member's serialized bytes go out as they are: each call's fresh email is written into them ([Emails]). */
        private object RawBytes : MethodDescriptor.Marshaller<ByteArray> {
            override fun stream(value: ByteArray): InputStream = ByteArrayInputStream(value)
            override fun parse(stream: InputStream): ByteArray = stream.readAllBytes()
        }

        private val CREATE_MEMBER_RAW: MethodDescriptor<ByteArray, CreateMemberResponse> =
            MethodDescriptor.newBuilder<ByteArray, CreateMemberResponse>()
                .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName(CREATE_MEMBER)
                .setRequestMarshaller(RawBytes).setResponseMarshaller(ProtoUtils.marshaller(CreateMemberResponse.getDefaultInstance()))
                .build()

        private val CREATE_MEMBERS_RAW: MethodDescriptor<ByteArray, CreateMembersResponse> =
            MethodDescriptor.newBuilder<ByteArray, CreateMembersResponse>()
                .setType(MethodDescriptor.MethodType.CLIENT_STREAMING).setFullMethodName(CREATE_MEMBERS)
                .setRequestMarshaller(RawBytes).setResponseMarshaller(ProtoUtils.marshaller(CreateMembersResponse.getDefaultInstance()))
                .build()
    }
}
