package io.protobench.bench.network

import io.protobench.bench.scenario.NetworkProfile
import java.io.DataInputStream
import java.io.DataOutputStream
import java.io.IOException
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.atomic.AtomicBoolean

/**
 * The far end of a link under test: answers a ping with its byte, and swallows a bulk
 * transfer, answering with how long the bytes took to arrive (first to last). It runs
 * where the data-server would, so what [LinkProbe] measures through it is the link the
 * hop would cross.
 *
 * The exchange: `P` + one byte → that byte back; `B` + length (8 bytes) + that many bytes
 * → the nanoseconds between the first and the last byte's arrival (8 bytes).
 */
class LinkSink(bindAddress: InetAddress = InetAddress.getLoopbackAddress(), port: Int = 0) : AutoCloseable {
    private val server = ServerSocket(port, 50, bindAddress)
    private val open = AtomicBoolean(true)

    val address: InetSocketAddress get() = InetSocketAddress(server.inetAddress, server.localPort)

    init {
        Thread({ acceptLoop() }, "link-sink-accept").apply {
            isDaemon = true
            start()
        }
    }

    private fun acceptLoop() {
        while (open.get()) {
            val socket = runCatching { server.accept() }.getOrNull() ?: continue
            Thread({ socket.use(::serve) }, "link-sink").apply {
                isDaemon = true
                start()
            }
        }
    }

    private fun serve(socket: Socket) {
        socket.tcpNoDelay = true
        val input = DataInputStream(socket.getInputStream().buffered())
        val output = DataOutputStream(socket.getOutputStream())
        try {
            while (true) {
                when (val command = input.read()) {
                    -1 -> return

                    PING -> {
                        output.write(input.readUnsignedByte())
                        output.flush()
                    }

                    BULK -> {
                        output.writeLong(swallow(input, input.readLong()))
                        output.flush()
                    }

                    else -> throw IOException("unknown command $command")
                }
            }
        } catch (e: IOException) {
            // The prober went away or spoke nonsense: this connection is over, the sink is not.
        }
    }

    /** Reads [length] bytes; the nanoseconds from the first byte's arrival to the last's. */
    private fun swallow(input: DataInputStream, length: Long): Long {
        val buffer = ByteArray(64 * 1024)
        var left = length
        var first = 0L
        while (left > 0) {
            val n = input.read(buffer, 0, minOf(buffer.size.toLong(), left).toInt())
            if (n < 0) throw IOException("the transfer ended ${length - left} bytes into $length")
            if (first == 0L) first = System.nanoTime()
            left -= n
        }
        return System.nanoTime() - first
    }

    override fun close() {
        if (open.getAndSet(false)) runCatching { server.close() }
    }

    companion object {
        const val PING = 'P'.code
        const val BULK = 'B'.code
    }
}

/**
 * What a link measured: round trips in ms (each ping), bulk bandwidth in Mbit/s, and how
 * long one answer-sized transfer after a pause took beyond a round trip (in ms).
 */
data class LinkMeasurement(val roundTripsMs: List<Double>, val bandwidthMbit: Double?, val answerMs: Double? = null) {
    /** The median round trip. */
    val rttMs: Double get() = roundTripsMs.sorted().let { if (it.isEmpty()) Double.NaN else it[it.size / 2] }
}

/**
 * Measures a link as the hop would see it: round trips of one byte on an established
 * connection (a connect through a user-space relay would not be delayed), the rate a
 * bulk transfer reached the far end at, timed there, and the time one answer of
 * [answerBytes] takes after a pause, when a token bucket is full and a real link would
 * still send it at its rate.
 *
 * The answer is timed here, from its first byte sent to the far end's reply, less the
 * quickest ping, and the quickest of [ANSWER_TRANSFERS] is kept: being late only adds
 * time. Timed at the far end, first byte to last, it comes out near zero whenever that
 * end is scheduled late (with three busy loops on two cores: 0.00-0.31 ms for 1 MiB at
 * 1 Gbit/s instead of 7.9), as the bytes are then waiting for it all at once
 * (docs/journal/2026-11-26-tbf-bucket.md).
 */
object LinkProbe {
    /** Answer-sized transfers timed; the quickest is kept. */
    private const val ANSWER_TRANSFERS = 5

    /** The pause before each answer-sized transfer: long enough to refill any bucket this lab sets (0.5 ms at the rate). */
    private const val PAUSE_MS = 20L

    fun measure(
        far: InetSocketAddress,
        pings: Int = 10,
        bulkBytes: Long = 0,
        answerBytes: Long = 0,
        timeoutMs: Int = 10_000,
    ): LinkMeasurement {
        require(pings >= 1) { "at least one ping: $pings" }
        require(bulkBytes >= 0 && answerBytes >= 0) { "transfer sizes must not be negative: $bulkBytes, $answerBytes" }
        Socket().use { socket ->
            socket.tcpNoDelay = true
            socket.soTimeout = timeoutMs
            socket.connect(far, timeoutMs)
            val input = DataInputStream(socket.getInputStream())
            val output = DataOutputStream(socket.getOutputStream())
            val trips = (1..pings).map { i ->
                val started = System.nanoTime()
                output.write(LinkSink.PING)
                output.write(i and 0xff)
                output.flush()
                val echoed = input.readUnsignedByte()
                check(echoed == i and 0xff) { "the far end echoed $echoed for ${i and 0xff}" }
                (System.nanoTime() - started) / 1e6
            }
            val bandwidth = if (bulkBytes == 0L) null else bulkBytes * 8 / (transferNanos(input, output, bulkBytes) / 1e9) / 1e6
            val answer = if (answerBytes == 0L) {
                null
            } else {
                (1..ANSWER_TRANSFERS).minOf {
                    Thread.sleep(PAUSE_MS)
                    val started = System.nanoTime()
                    transferNanos(input, output, answerBytes)
                    (System.nanoTime() - started) / 1e6
                } - trips.min()
            }
            return LinkMeasurement(trips, bandwidth, answer)
        }
    }

    /** Sends [bytes] to the sink; the nanoseconds between their first and last byte's arrival there (at least 1). */
    private fun transferNanos(input: DataInputStream, output: DataOutputStream, bytes: Long): Long {
        output.write(LinkSink.BULK)
        output.writeLong(bytes)
        val block = ByteArray(64 * 1024) { it.toByte() }
        var left = bytes
        while (left > 0) {
            val n = minOf(block.size.toLong(), left).toInt()
            output.write(block, 0, n)
            left -= n
        }
        output.flush()
        return input.readLong().coerceAtLeast(1)
    }
}

/** A profile's round trip as measured, against what it asks for. */
data class RttCheck(val profileMs: Double, val measuredMs: Double, val baselineMs: Double) {
    /** How far the measured round trip is from the profile's, relative to it. */
    val offBy: Double get() = kotlin.math.abs(measuredMs / profileMs - 1)
    val holds: Boolean get() = offBy <= TOLERANCE

    companion object {
        /** The rule: a profile is applied when its measured RTT is within 10% of it. */
        const val TOLERANCE = 0.10

        /**
         * The profile's delay through the user-space relay on loopback: a sink, the relay at
         * half the RTT each way, [pings] one-byte round trips (median), and the loopback's own
         * round trip beside it. Sub-millisecond profiles do not hold: a relay thread wakes
         * tens of microseconds late, twice a round trip.
         */
        fun throughRelay(profile: NetworkProfile, pings: Int = 21): RttCheck = LinkSink().use { sink ->
            val baseline = LinkProbe.measure(sink.address, pings).rttMs
            val oneWay = java.time.Duration.ofNanos((profile.rttMs / 2 * 1e6).toLong())
            val measured = DelayProxy(sink.address, oneWay).use { LinkProbe.measure(it.address, pings).rttMs }
            RttCheck(profile.rttMs, measured, baseline)
        }
    }
}
