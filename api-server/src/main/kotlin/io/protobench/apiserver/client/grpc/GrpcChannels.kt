package io.protobench.apiserver.client.grpc

import io.grpc.Codec
import io.grpc.ConnectivityState
import io.grpc.DecompressorRegistry
import io.grpc.ManagedChannel
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
import io.grpc.netty.shaded.io.netty.channel.ChannelOption
import io.grpc.stub.AbstractStub
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.apiserver.config.GatewaySettings.Compression
import io.protobench.apiserver.config.GatewaySettings.GrpcExecutor
import io.protobench.apiserver.gateway.GatewayMessage
import io.protobench.contract.message.ItemStub
import io.protobench.contract.proto.DataServiceGrpcKt.DataServiceCoroutineStub
import io.protobench.contract.proto.MemberServiceGrpcKt.MemberServiceCoroutineStub
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * The gRPC channels to the data-server (`protobench.gateway.grpc.channels` of them,
 * plaintext, each one HTTP/2 connection), handed out round-robin, on the configured
 * executor and event loops, compressing as `protobench.gateway.compression` says.
 */
@Component
class GrpcChannels(private val settings: GatewaySettings, private val message: GatewayMessage) : DisposableBean {
    /** The channels' own event loops when `event-loop-threads` is set; null with grpc-netty's default ones. */
    private val eventLoops: ClientEventLoops? = settings.grpc.eventLoopThreads.takeIf { it > 0 }?.let(::ClientEventLoops)
    private val channels: List<ManagedChannel> = List(settings.grpc.channels) { open() }
    private val stubs = channels.map { compressing(DataServiceCoroutineStub(it)) }
    private val memberStubs = channels.map { compressing(MemberServiceCoroutineStub(it)) }
    private val itemStubs: List<ItemStub>? = message.methods?.let { methods -> channels.map { compressing(ItemStub(it, methods)) } }
    private val next = AtomicInteger()

    /** Deadline of one call, ms. */
    val deadlineMs: Long get() = settings.timeouts.requestMs

    val target: String get() = "${settings.dataServer.host}:${settings.dataServer.grpcPort}"

    private fun open(): ManagedChannel {
        val builder = NettyChannelBuilder
            .forAddress(settings.dataServer.host, settings.dataServer.grpcPort)
            .usePlaintext()
            .maxInboundMessageSize(settings.grpc.maxInboundMessageBytes)
            .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.timeouts.connectMs.toInt())
            .decompressorRegistry(decompressorsFor(settings.compression))
        eventLoops?.applyTo(builder)
        if (settings.grpc.executor == GrpcExecutor.DIRECT) builder.directExecutor()
        return builder.build()
    }

    private fun <S : AbstractStub<S>> compressing(stub: S): S = when (settings.compression) {
        Compression.NONE -> stub
        Compression.GZIP -> stub.withCompression(GZIP)
    }

    /** The stub of the next channel in turn, carrying a deadline of request-ms from now (use it for one call). */
    fun stub(): DataServiceCoroutineStub = nextOf(stubs)

    /** The write path's stub of the next channel in turn, the same way: one deadline per call (a whole stream is one call). */
    fun memberStub(): MemberServiceCoroutineStub = nextOf(memberStubs)

    /** The user's message's stub of the next channel in turn, the same way; an invalid request when no message is loaded. */
    fun itemStub(): ItemStub = nextOf(itemStubs ?: message.required().let { error("a loaded message has its stubs") })

    private fun <S : AbstractStub<S>> nextOf(stubs: List<S>): S =
        stubs[Math.floorMod(next.getAndIncrement(), stubs.size)].withDeadlineAfter(deadlineMs, TimeUnit.MILLISECONDS)

    /**
     * A channel for health checks. A channel that failed to connect waits (exponential
     * backoff, up to minutes) before trying again; this makes every failed channel retry
     * now, so a data-server that came back is seen at once.
     */
    fun forHealthCheck(): ManagedChannel {
        channels.filter { it.getState(false) == ConnectivityState.TRANSIENT_FAILURE }.forEach { it.resetConnectBackoff() }
        return channels.first()
    }

    override fun destroy() {
        channels.forEach { it.shutdown() }
        channels.forEach { if (!it.awaitTermination(2, TimeUnit.SECONDS)) it.shutdownNow() }
        eventLoops?.close()
    }

    companion object {
        private const val GZIP = "gzip"

        /**
         * What the channels accept in responses (and so advertise in `grpc-accept-encoding`).
         * Without compression, identity only: grpc-java would otherwise advertise gzip, and a
         * gzip data-server would compress the gRPC hop while the HTTP hop, which asks for
         * gzip only when compression is on, stays plain. This way a hop is compressed exactly
         * when both servers say gzip, whatever the protocol.
         */
        fun decompressorsFor(compression: Compression): DecompressorRegistry = when (compression) {
            Compression.NONE -> DecompressorRegistry.emptyInstance().with(Codec.Identity.NONE, false)
            Compression.GZIP -> DecompressorRegistry.getDefaultInstance()
        }
    }
}
