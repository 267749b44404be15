package io.protobench.bench.network

import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.atomic.AtomicBoolean
import java.util.concurrent.atomic.AtomicInteger
import java.util.concurrent.locks.LockSupport

/**
 * A TCP relay on loopback that delays every byte by [oneWayDelay] in each direction: the
 * delay of a link where the kernel has no netem qdisc (this lab's reference machine has
 * none). Bandwidth is left to tbf/htb on a veth, which the kernel does offer.
 *
 * Each direction of a connection has a reader, which stamps every chunk with the moment
 * it is due (arrival + delay) and queues it, and a writer, which writes each chunk when it
 * is due. Chunks in flight overlap, as on a wire: ten chunks sent back to back arrive one
 * delay later, not ten. A half-close is delayed like data; an error on either side closes
 * the connection.
 *
 * What it does not emulate: TCP's own round trip. The sender's connection ends at the
 * relay, a few microseconds away, so its congestion window grows as on loopback and a bulk
 * transfer is not limited by window ÷ RTT as on a real long link (Toxiproxy's latency has
 * the same limit). A connect is not delayed either: only bytes are. The lab measures a
 * profile's RTT by a one-byte echo through the relay, not by timing a connect.
 */
class DelayProxy internal constructor(
    private val upstream: InetSocketAddress,
    val oneWayDelay: Duration,
    bindAddress: InetAddress,
    /** Opens the relay's own connection to [upstream] (a test makes one of them wait). */
    private val dial: (InetSocketAddress) -> Socket,
) : AutoCloseable {
    constructor(upstream: InetSocketAddress, oneWayDelay: Duration, bindAddress: InetAddress = InetAddress.getLoopbackAddress()) :
        this(upstream, oneWayDelay, bindAddress, ::dialUpstream)

    init {
        require(!oneWayDelay.isNegative) { "the delay must not be negative: $oneWayDelay" }
    }

    private val server = ServerSocket(0, 50, bindAddress)
    private val open = AtomicBoolean(true)
    private val sockets = ConcurrentHashMap.newKeySet<Socket>()
    private val delayNanos = oneWayDelay.toNanos()

    /** Where clients connect instead of [upstream]. */
    val address: InetSocketAddress get() = InetSocketAddress(server.inetAddress, server.localPort)

    init {
        daemon("delay-proxy-accept") { acceptLoop() }
    }

    private fun acceptLoop() {
        while (open.get()) {
            val client = runCatching { server.accept() }.getOrNull() ?: continue
            // close() may return while accept() is still inside the kernel with the listening
            // socket alive, so a connection can arrive after it. Registering before checking
            // means close() either sees the socket or this loop sees that the relay is closed.
            if (!register(client)) break
            daemon("delay-proxy-connect") { join(client) }
        }
    }

    /**
     * Connects [client] to [upstream] and relays between them, on a thread of its own: a
     * connect whose SYN or SYN-ACK the link dropped (wan's 0.1% loss) waits a second for TCP
     * to send it again. Made in the accept loop, it held up every connection behind it: 14
     * of a direct trial's 20 users waited past the end of their 1 s warm-up.
     */
    private fun join(client: Socket) {
        val target = runCatching { dial(upstream) }.getOrElse {
            discard(client)
            return
        }
        if (!register(target)) {
            closeBoth(client, target)
            return
        }
        client.tcpNoDelay = true
        // Both sockets close once both directions have ended, or at the first error.
        val ended = AtomicInteger()
        val finish = { if (ended.incrementAndGet() == 2) closeBoth(client, target) }
        relay(client, target, "up", finish)
        relay(target, client, "down", finish)
    }

    /** One direction: [from]'s bytes reach [to] one delay after they arrived; [ended] when it is over. */
    private fun relay(from: Socket, to: Socket, direction: String, ended: () -> Unit) {
        val queue = LinkedBlockingQueue<Chunk>()
        daemon("delay-proxy-read-$direction") { read(from.getInputStream(), queue) { closeBoth(from, to) } }
        daemon("delay-proxy-write-$direction") {
            write(queue, to) { closeBoth(from, to) }
            ended()
        }
    }

    private fun read(input: InputStream, queue: LinkedBlockingQueue<Chunk>, onError: () -> Unit) {
        val buffer = ByteArray(CHUNK_BYTES)
        try {
            while (true) {
                val n = input.read(buffer)
                val due = System.nanoTime() + delayNanos
                if (n < 0) {
                    queue.put(Chunk(due, null))
                    return
                }
                queue.put(Chunk(due, buffer.copyOf(n)))
            }
        } catch (e: IOException) {
            queue.put(Chunk(System.nanoTime(), ERROR))
            onError()
        }
    }

    private fun write(queue: LinkedBlockingQueue<Chunk>, to: Socket, onError: () -> Unit) {
        val output: OutputStream = to.getOutputStream()
        try {
            while (true) {
                val chunk = queue.take()
                if (chunk.bytes === ERROR) return
                // parkNanos, not sleep: Thread.sleep rounds sub-millisecond waits up to a millisecond on JDK 17.
                while (true) {
                    val wait = chunk.dueNanos - System.nanoTime()
                    if (wait <= 0) break
                    LockSupport.parkNanos(wait)
                }
                if (chunk.bytes == null) {
                    to.shutdownOutput()
                    return
                }
                output.write(chunk.bytes)
                output.flush()
            }
        } catch (e: IOException) {
            onError()
        }
    }

    /** Tracks [socket] for [close]; false (and the socket closed) when the relay is already closed. */
    private fun register(socket: Socket): Boolean {
        sockets += socket
        if (open.get()) return true
        discard(socket)
        return false
    }

    private fun closeBoth(a: Socket, b: Socket) = listOf(a, b).forEach(::discard)

    private fun discard(socket: Socket) {
        runCatching { socket.close() }
        sockets -= socket
    }

    override fun close() {
        if (!open.getAndSet(false)) return
        runCatching { server.close() }
        sockets.forEach { runCatching { it.close() } }
        sockets.clear()
    }

    /** Bytes due at [dueNanos] (System.nanoTime); null bytes = the sender half-closed. */
    private class Chunk(val dueNanos: Long, val bytes: ByteArray?)

    private companion object {
        const val CHUNK_BYTES = 64 * 1024
        const val CONNECT_TIMEOUT_MS = 5_000

        /** Marks a reader that failed: its writer stops without writing. */
        val ERROR = ByteArray(0)

        fun daemon(name: String, body: () -> Unit) = Thread(body, name).apply {
            isDaemon = true
            start()
        }

        fun dialUpstream(upstream: InetSocketAddress): Socket = Socket().apply {
            tcpNoDelay = true
            connect(upstream, CONNECT_TIMEOUT_MS)
        }
    }
}
