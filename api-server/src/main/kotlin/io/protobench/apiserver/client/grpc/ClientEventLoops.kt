package io.protobench.apiserver.client.grpc

import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder
import io.grpc.netty.shaded.io.netty.channel.Channel
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollSocketChannel
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioSocketChannel
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory
import java.util.concurrent.TimeUnit

/**
 * One event-loop group of [threads] threads shared by the gateway's gRPC channels
 * (`protobench.gateway.grpc.event-loop-threads`), named [THREAD_PREFIX]…. It uses the
 * transport grpc-netty picks for its default loops (epoll where the shaded native
 * library loads, else NIO), so a sized variant differs from the default in its thread
 * count alone. grpc-java does not shut down a group it is given: [close] does, once the
 * channels have terminated.
 */
class ClientEventLoops(threads: Int) : AutoCloseable {
    private val group: EventLoopGroup = DefaultThreadFactory(THREAD_PREFIX, true).let { factory ->
        if (Epoll.isAvailable()) EpollEventLoopGroup(threads, factory) else NioEventLoopGroup(threads, factory)
    }

    /** Makes [builder]'s channel run on this group. */
    fun applyTo(builder: NettyChannelBuilder): NettyChannelBuilder = builder.eventLoopGroup(group).channelType(channelType())

    override fun close() {
        group.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS).awaitUninterruptibly(2 * SHUTDOWN_SECONDS, TimeUnit.SECONDS)
    }

    companion object {
        /** Name prefix of the threads (Netty appends the group and thread numbers). */
        const val THREAD_PREFIX = "grpc-gateway-loop"

        private const val SHUTDOWN_SECONDS = 2L

        private fun channelType(): Class<out Channel> =
            if (Epoll.isAvailable()) EpollSocketChannel::class.java else NioSocketChannel::class.java
    }
}
