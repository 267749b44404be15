package io.protobench.driver

import io.netty.bootstrap.Bootstrap
import io.netty.buffer.Unpooled
import io.netty.channel.Channel
import io.netty.channel.ChannelHandlerContext
import io.netty.channel.ChannelInitializer
import io.netty.channel.ChannelOption
import io.netty.channel.EventLoop
import io.netty.channel.EventLoopGroup
import io.netty.channel.SimpleChannelInboundHandler
import io.netty.channel.epoll.Epoll
import io.netty.channel.epoll.EpollEventLoopGroup
import io.netty.channel.epoll.EpollSocketChannel
import io.netty.channel.nio.NioEventLoopGroup
import io.netty.channel.socket.nio.NioSocketChannel
import io.netty.handler.codec.http.DefaultFullHttpRequest
import io.netty.handler.codec.http.FullHttpResponse
import io.netty.handler.codec.http.HttpClientCodec
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpHeaderValues
import io.netty.handler.codec.http.HttpMethod
import io.netty.handler.codec.http.HttpObjectAggregator
import io.netty.handler.codec.http.HttpUtil
import io.netty.handler.codec.http.HttpVersion
import java.net.URI
import java.util.ArrayDeque
import java.util.concurrent.TimeUnit

/**
 * The lean HTTP/1.1 client the driver uses through the gateway, where it is the harness and
 * not the system judged: one Netty event loop does everything (arrivals come as its own
 * timers, so a call costs no hand-off between threads), and a pool of keep-alive
 * connections, confined to that loop, grows to [maxConnections] while every one is busy.
 * Arrivals wait for a connection up to [Connections.WAITING_PER_CONNECTION] per connection;
 * one beyond is dropped. A server that ends a connection (Tomcat does after 100 calls) is
 * followed by a new one.
 */
class Http1Calls(baseUrl: String, private val maxConnections: Int, private val callTimeout: java.time.Duration = CALL_TIMEOUT) : Calls {
    private val uri = URI(baseUrl)
    private val host = "${uri.host}:${if (uri.port > 0) uri.port else 80}"
    private val group: EventLoopGroup = if (Epoll.isAvailable()) EpollEventLoopGroup(1, threads) else NioEventLoopGroup(1, threads)
    override val loop: EventLoop = group.next()

    // Everything below is touched on [loop] only.
    private val idle = ArrayDeque<Channel>()
    private val waiting = ArrayDeque<Pending>()
    private var open = 0
    private var connecting = 0
    private var opened = 0L

    @Volatile override var connectionsOpened: Long = 0
        private set

    private val bootstrap = Bootstrap().group(group)
        .channel(if (Epoll.isAvailable()) EpollSocketChannel::class.java else NioSocketChannel::class.java)
        .option(ChannelOption.TCP_NODELAY, true)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
        .handler(object : ChannelInitializer<Channel>() {
            override fun initChannel(channel: Channel) {
                channel.pipeline().addLast(HttpClientCodec(), HttpObjectAggregator(MAX_ANSWER_BYTES), AnswerHandler())
            }
        })

    private class Pending(val target: CallTarget, val check: AnswerCheck, val body: ByteArray?, val done: (Outcome) -> Unit) {
        var calls = 0L
    }

    /** What a connection is doing: its call now, when that was sent, and how many it has made. */
    private class Line {
        var current: Pending? = null
        var sentAt = 0L
        var calls = 0L
        var timedOut = false
    }

    /** Every open connection, for [sweep]. */
    private val lines = HashSet<Channel>()

    init {
        loop.scheduleAtFixedRate(::sweep, SWEEP_S, SWEEP_S, TimeUnit.SECONDS)
    }

    /**
     * Closes every connection whose call has waited [callTimeout] for its answer: the call
     * counts as wrong and the connection's place goes to a new one. Once a second over the
     * open connections, rather than a timer per call, which would cost every call.
     */
    private fun sweep() {
        val limit = System.nanoTime() - callTimeout.toNanos()
        for (channel in lines.toList()) {
            val line = channel.attr(LINE).get() ?: continue
            if (line.current != null && line.sentAt < limit) {
                line.timedOut = true
                channel.close()
            }
        }
    }

    override fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit) {
        if (!loop.inEventLoop()) return loop.execute { call(target, check, body, done) }
        val pending = Pending(target, check, body, done)
        idle.pollLast()?.let { return send(it, pending) }
        if (waiting.size >= maxConnections * Connections.WAITING_PER_CONNECTION) {
            return done(Outcome("every connection busy and ${waiting.size} arrivals waiting", 0, dropped = true))
        }
        waiting.addLast(pending)
        if (open + connecting < maxConnections) connect()
    }

    private fun connect() {
        connecting++
        bootstrap.connect(uri.host, if (uri.port > 0) uri.port else 80).addListener { future ->
            connecting--
            if (future.isSuccess) {
                val channel = (future as io.netty.channel.ChannelFuture).channel()
                open++
                connectionsOpened = ++opened
                channel.attr(LINE).set(Line())
                lines.add(channel)
                channel.closeFuture().addListener { closed(channel) }
                release(channel)
            } else {
                waiting.pollFirst()?.done?.invoke(Outcome("cannot connect to $host: ${future.cause()?.message}", 1))
            }
        }
    }

    private fun send(channel: Channel, pending: Pending) {
        val line = channel.attr(LINE).get()
        line.current = pending
        line.sentAt = System.nanoTime()
        pending.calls = ++line.calls
        val content = pending.body?.let(Unpooled::wrappedBuffer) ?: Unpooled.EMPTY_BUFFER
        val method = if (pending.body == null) HttpMethod.GET else HttpMethod.POST
        val request = DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, pending.target.path, content)
        request.headers().set(HttpHeaderNames.HOST, host)
        pending.target.accept?.let { request.headers().set(HttpHeaderNames.ACCEPT, it) }
        if (pending.body != null) {
            request.headers().set(HttpHeaderNames.CONTENT_TYPE, pending.target.contentType ?: HttpHeaderValues.APPLICATION_JSON.toString())
            request.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, pending.body.size)
        }
        channel.writeAndFlush(request, channel.voidPromise())
    }

    /** A connection free again: the oldest waiting arrival takes it, or it waits idle. */
    private fun release(channel: Channel) {
        val next = waiting.pollFirst()
        if (next != null) send(channel, next) else idle.addLast(channel)
    }

    private fun answered(channel: Channel, response: FullHttpResponse) {
        val line = channel.attr(LINE).get() ?: return
        val pending = line.current ?: return
        line.current = null
        val problem = pending.check.problem(response.status().code(), response.content())
        pending.done(Outcome(problem, pending.calls, sample = problem?.let { AnswerCheck.sample(response.content()) }))
        if (HttpUtil.isKeepAlive(response)) release(channel) else channel.close()
    }

    private fun closed(channel: Channel) {
        open--
        idle.remove(channel)
        lines.remove(channel)
        val line = channel.attr(LINE).get()
        line?.current?.let { pending ->
            val why = if (line.timedOut) "no answer within ${callTimeout.toMillis()} ms" else "the connection closed before the answer"
            pending.done(Outcome(why, pending.calls))
        }
        // Arrivals still waiting need a connection of their own now.
        if (waiting.isNotEmpty() && open + connecting < maxConnections) connect()
    }

    private inner class AnswerHandler : SimpleChannelInboundHandler<FullHttpResponse>() {
        override fun channelRead0(context: ChannelHandlerContext, response: FullHttpResponse) = answered(context.channel(), response)

        override fun exceptionCaught(context: ChannelHandlerContext, cause: Throwable) {
            context.close()
        }
    }

    override fun close() {
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS)
    }

    companion object {
        private val LINE = io.netty.util.AttributeKey.valueOf<Line>("protobench.line")
        private const val CONNECT_TIMEOUT_MS = 5_000

        /** Longest a call may wait for its answer, by default (the gateway's own deadline is shorter). */
        val CALL_TIMEOUT: java.time.Duration = java.time.Duration.ofSeconds(30)
        private const val SWEEP_S = 1L

        /** The largest answer read whole: a gateway answer is small; a direct 1 MB payload fits many times. */
        private const val MAX_ANSWER_BYTES = 64 * 1024 * 1024
        private val threads = io.netty.util.concurrent.DefaultThreadFactory("driver-io", true)
    }
}
