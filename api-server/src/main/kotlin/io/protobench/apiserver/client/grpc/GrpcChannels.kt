package io.protobench.apiserver.client.grpc

import io.grpc.ConnectivityState
import io.grpc.ManagedChannel
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
import io.grpc.netty.shaded.io.netty.channel.ChannelOption
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.contract.proto.DataServiceGrpcKt.DataServiceCoroutineStub
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

/**
 * The gRPC channels to the data-server (`protobench.gateway.grpc.channels` of them,
 * plaintext, each one HTTP/2 connection), handed out round-robin.
 */
@Component
class GrpcChannels(private val settings: GatewaySettings) : DisposableBean {
    private val channels: List<ManagedChannel> = List(settings.grpc.channels) { open() }
    private val stubs = channels.map { DataServiceCoroutineStub(it) }
    private val next = AtomicInteger()

    /** Deadline of one call, ms. */
    val deadlineMs: Long get() = settings.timeouts.requestMs

    val target: String get() = "${settings.dataServer.host}:${settings.dataServer.grpcPort}"

    private fun open(): ManagedChannel = NettyChannelBuilder
        .forAddress(settings.dataServer.host, settings.dataServer.grpcPort)
        .usePlaintext()
        .maxInboundMessageSize(settings.grpc.maxInboundMessageBytes)
        .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, settings.timeouts.connectMs.toInt())
        .build()

    /** The stub of the next channel in turn, carrying a deadline of request-ms from now (use it for one call). */
    fun stub(): DataServiceCoroutineStub =
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
    }
}
