package io.protobench.dataserver.grpc

import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.ServerChannel
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerSocketChannel
import io.grpc.netty.shaded.io.netty.channel.nio.NioEventLoopGroup
import io.grpc.netty.shaded.io.netty.channel.socket.nio.NioServerSocketChannel
import io.grpc.netty.shaded.io.netty.util.concurrent.DefaultThreadFactory
import java.util.concurrent.TimeUnit

/**
 * Event loops of a fixed size for the gRPC server (`protobench.data.grpc.event-loop-threads`):
 * one boss thread accepting connections and [workerThreads] serving them, named
 * [WORKER_THREAD_PREFIX]… They use the transport grpc-netty picks for its default loops
 * (epoll where the shaded native library loads, else NIO), so a sized variant differs
 * from the default in its thread count alone. grpc-java does not shut down loops it is
 * given: [close] does, once the server has stopped.
 */
class ServerEventLoops(workerThreads: Int) : AutoCloseable {
    private val boss = group(1, "grpc-data-boss")
    private val workers = group(workerThreads, WORKER_THREAD_PREFIX)

    /** Makes [builder] serve on these loops. */
    fun applyTo(builder: NettyServerBuilder): NettyServerBuilder =
        builder.bossEventLoopGroup(boss).workerEventLoopGroup(workers).channelType(serverChannelType())

    override fun close() {
        listOf(boss, workers)
            .map { it.shutdownGracefully(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS) }
            .forEach { it.awaitUninterruptibly(2 * SHUTDOWN_SECONDS, TimeUnit.SECONDS) }
    }

    companion object {
        /** Name prefix of the worker threads (Netty appends the group and thread numbers). */
        const val WORKER_THREAD_PREFIX = "grpc-data-worker"

        private const val SHUTDOWN_SECONDS = 2L

        private fun group(threads: Int, name: String): EventLoopGroup {
            val factory = DefaultThreadFactory(name, true)
            return if (Epoll.isAvailable()) EpollEventLoopGroup(threads, factory) else NioEventLoopGroup(threads, factory)
        }

        private fun serverChannelType(): Class<out ServerChannel> =
            if (Epoll.isAvailable()) EpollServerSocketChannel::class.java else NioServerSocketChannel::class.java
    }
}
