package io.protobench.bench.message

import com.fasterxml.jackson.databind.ObjectMapper
import com.google.protobuf.Message
import io.protobench.contract.message.UserMessage

/**
 * What one item of a user's message costs each codec apart from any transport, ns per item: the
 * model's record written and read by Jackson (the HTTP/JSON arm's work) and the generated message
 * written and parsed by protobuf (the binary arms'). Medians of [rounds] timed rounds after a warm-up.
 */
data class CodecTimes(
    val jsonEncodeNs: Double,
    val jsonDecodeNs: Double,
    val protobufEncodeNs: Double,
    val protobufDecodeNs: Double,
    val rounds: Int,
)

/**
 * Times the two codecs on one item in the runner's own JVM, before any fork starts (nothing else
 * runs then): a plain timed loop per operation, warmed for [warmUpNanos], then [rounds] rounds of
 * [roundNanos], each round's time per item kept and their median reported. Smaller than a JMH
 * benchmark (one JVM, no forks of its own), but on the code the servers run, generated from the
 * user's .proto, with the same Jackson settings as the servers.
 */
class CodecBench(private val warmUpNanos: Long = 1_000_000_000, private val roundNanos: Long = 400_000_000, private val rounds: Int = 5) {
    /** Defeats dead-code elimination: every operation's result feeds it. */
    private var sink = 0L

    fun measure(message: UserMessage, item: Message, mapper: ObjectMapper): CodecTimes {
        val record = message.fromProto(item)
        val json = mapper.writeValueAsBytes(record)
        val protobuf = item.toByteArray()
        val reader = mapper.readerFor(message.modelClass)
        val times = CodecTimes(
            jsonEncodeNs = time { mapper.writeValueAsBytes(record).size.toLong() },
            jsonDecodeNs = time { reader.readValue<Any>(json).hashCode().toLong() },
            protobufEncodeNs = time { item.toByteArray().size.toLong() },
            protobufDecodeNs = time { message.parse(protobuf).serializedSize.toLong() },
            rounds = rounds,
        )
        check(sink != Long.MIN_VALUE) // reads the sink, so no operation is dead
        return times
    }

    /** [operation]'s median time over the rounds, ns per call. */
    private fun time(operation: () -> Long): Double {
        loop(operation, warmUpNanos)
        return List(rounds) { loop(operation, roundNanos) }.sorted()[rounds / 2]
    }

    /** Calls [operation] in batches until [nanos] have passed; ns per call. */
    private fun loop(operation: () -> Long, nanos: Long): Double {
        val start = System.nanoTime()
        var calls = 0L
        var now: Long
        do {
            repeat(BATCH) { sink += operation() }
            calls += BATCH
            now = System.nanoTime()
        } while (now - start < nanos)
        return (now - start).toDouble() / calls
    }

    private companion object {
        /** Calls between clock reads: a read costs tens of ns, a small item's encoding about as much. */
        const val BATCH = 16
    }
}
