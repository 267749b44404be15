package io.protobench.driver

import io.netty.buffer.ByteBuf
import io.netty.buffer.Unpooled
import io.netty.channel.EventLoop
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpHeaderValues
import io.netty.util.AttributeKey
import reactor.core.publisher.Mono
import reactor.netty.ConnectionObserver
import reactor.netty.http.client.HttpClient
import reactor.netty.internal.shaded.reactor.pool.PoolAcquirePendingLimitException
import reactor.netty.resources.ConnectionProvider
import reactor.netty.resources.LoopResources
import reactor.util.context.Context
import java.time.Duration
import java.util.concurrent.atomic.AtomicLong

/**
 * HTTP/1.1 calls with Reactor Netty, the client the gateway itself uses (for a direct run,
 * where the driver is the calling service): one event loop, a pool of keep-alive
 * connections that grows to [maxConnections] while every connection is busy, and up to
 * [Connections.WAITING_PER_CONNECTION] arrivals per connection waiting for one; an arrival
 * beyond that is dropped, never queued without end.
 */
class ReactorHttpCalls(baseUrl: String, maxConnections: Int) : Calls {
    private val loops = LoopResources.create("driver-io", 1, true)
    override val loop: EventLoop = loops.onClient(true).next() as EventLoop
    private val pool = ConnectionProvider.builder("driver")
        .maxConnections(maxConnections)
        .pendingAcquireMaxCount(maxConnections * Connections.WAITING_PER_CONNECTION)
        .pendingAcquireTimeout(CALL_TIMEOUT)
        .build()
    private val opened = AtomicLong()

    private val client: HttpClient = HttpClient.create(pool)
        .runOn(loops)
        .baseUrl(baseUrl)
        .keepAlive(true)
        .responseTimeout(CALL_TIMEOUT)
        .observe { connection, state ->
            // CONFIGURED comes on every acquisition from the pool; CONNECTED once a connection.
            if (state == ConnectionObserver.State.CONNECTED) {
                opened.incrementAndGet()
                connection.channel().attr(CALLS_ON_CONNECTION).set(AtomicLong())
            }
        }
        .doOnRequest { request, connection ->
            // The call's number on its connection travels to the answer in the call's own context (see call()).
            val calls = connection.channel().attr(CALLS_ON_CONNECTION).get()
            request.currentContextView().get<LongArray>(NUMBER)[0] = calls?.incrementAndGet() ?: 1
        }

    /** The client of each target, its headers set once (a direct run sends protobuf, and asks for it). */
    private val clients = java.util.concurrent.ConcurrentHashMap<CallTarget, HttpClient>()

    override val connectionsOpened: Long get() = opened.get()

    override fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit) {
        val number = longArrayOf(1)
        val answer: Mono<Judged> = request(target, body)
            .responseSingle { response, content ->
                fun judged(buffer: ByteBuf) = Judged.of(check.problem(response.status().code(), buffer), buffer)
                content.map(::judged).defaultIfEmpty(judged(Unpooled.EMPTY_BUFFER))
            }
        answer.contextWrite(Context.of(NUMBER, number)).subscribe(
            { judged -> done(Outcome(judged.problem, number[0], sample = judged.sample)) },
            { error -> done(Outcome(Calls.describe(error), number[0], dropped = error is PoolAcquirePendingLimitException)) },
        )
    }

    private fun request(target: CallTarget, body: ByteArray?): HttpClient.ResponseReceiver<*> {
        val client = clients.computeIfAbsent(target, ::clientFor)
        return if (body == null) {
            client.get().uri(target.path)
        } else {
            client.post().uri(target.path).send(Mono.fromSupplier<ByteBuf> { Unpooled.wrappedBuffer(body) })
        }
    }

    private fun clientFor(target: CallTarget): HttpClient = client.headers { headers ->
        target.accept?.let { headers.set(HttpHeaderNames.ACCEPT, it) }
        if (target.body != null) headers.set(HttpHeaderNames.CONTENT_TYPE, target.contentType ?: JSON)
    }

    /** An answer as checked: why it was wrong and the start of its body, both null when it was right (a Mono holds no null). */
    private class Judged private constructor(val problem: String?, val sample: String?) {
        companion object {
            /** One shared instance for every right answer: a measured call allocates nothing for it. */
            private val RIGHT = Judged(null, null)

            fun of(problem: String?, body: ByteBuf) = if (problem == null) RIGHT else Judged(problem, AnswerCheck.sample(body))
        }
    }

    override fun close() {
        pool.disposeLater().block(Duration.ofSeconds(5))
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(2)).block(Duration.ofSeconds(5))
    }

    companion object {
        /** Longest a call may take, waiting for a connection included, before it counts as failed. */
        val CALL_TIMEOUT: Duration = Duration.ofSeconds(30)
        private const val NUMBER = "protobench.call-number"
        private val CALLS_ON_CONNECTION: AttributeKey<AtomicLong> = AttributeKey.valueOf("protobench.calls")
        private val JSON = HttpHeaderValues.APPLICATION_JSON.toString()
    }
}
