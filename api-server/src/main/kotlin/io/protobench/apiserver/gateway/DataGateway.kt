package io.protobench.apiserver.gateway

import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.client.Fetched
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.asUnexpectedFailure
import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.apiserver.measure.WindowRecording
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import org.springframework.stereotype.Service
import java.util.UUID
import java.util.concurrent.ThreadLocalRandom
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.Duration
import kotlin.time.DurationUnit
import kotlin.time.TimeSource

/**
 * One gateway request: validate the input (before anything is sent), call the
 * data-server over the chosen protocol (or nobody, for the [NullHop]), time the hop
 * and record it in the open measurement window. Hop latency: from just before the gateway sends the request to
 * the data-server until the response is fully decoded.
 */
@Service
class DataGateway(
    private val clients: DataClients,
    private val window: MeasurementWindow,
    private val timeSource: TimeSource,
    private val shapes: LevelShapes,
) {
    suspend fun data(routeSegment: String, sizeText: String?): DataReply {
        val recording = window.current()
        val (route, size) = validated(recording) { Route.fromPathSegment(routeSegment) to sizeOrDefault(sizeText) }
        val requestId = newRequestId()
        return when (route) {
            Route.Null -> DataReply(requestId, NullHop.LABEL, size.bytes, nullHop(recording))
            is Route.Hop -> {
                val hop = timedHop(route.protocol, recording) { clients.of(route.protocol).fetchData(size, requestId) }
                DataReply(requestId, route.protocol.label, hop.result.payload.size(), hop.latencyMs)
            }
        }
    }

    suspend fun complex(routeSegment: String, complexityText: String?): ComplexReply {
        val recording = window.current()
        val (route, level) =
            validated(recording) { Route.fromPathSegment(routeSegment) to complexityOrDefault(complexityText) }
        val requestId = newRequestId()
        return when (route) {
            // The byte count a protobuf hop would have carried, as /api/complexities reports it.
            Route.Null -> ComplexReply(
                requestId, NullHop.LABEL, level.id, shapes.of(level).protobufBytes.toLong(), nullHop(recording),
            )
            is Route.Hop -> {
                val hop = timedHop(route.protocol, recording) { clients.of(route.protocol).fetchComplex(level, requestId) }
                ComplexReply(requestId, route.protocol.label, level.id, hop.result.wireBytes, hop.latencyMs)
            }
        }
    }

    /**
     * The null hop: nothing is called or built, so the latency recorded is the timer's
     * own cost (about 0) and no bytes cross the hop. Returns the latency, ms.
     */
    private fun nullHop(recording: WindowRecording?): Double {
        val start = timeSource.markNow()
        val latency = start.elapsedNow()
        recording?.recordSuccess(latency, wireBytes = 0)
        return latency.toDouble(DurationUnit.MILLISECONDS)
    }

    /** Bad input is a failed request of the open window too (the load generator sees it fail). */
    private inline fun <T> validated(recording: WindowRecording?, parse: () -> T): T =
        try {
            parse()
        } catch (e: InvalidParameter) {
            recording?.recordFailure(INVALID_REQUEST)
            throw e
        }

    private suspend fun <T : Fetched> timedHop(
        protocol: Protocol,
        recording: WindowRecording?,
        call: suspend () -> T,
    ): Timed<T> {
        val start = timeSource.markNow()
        val result = try {
            call()
        } catch (e: CancellationException) {
            recording?.recordFailure(CANCELLED)
            throw e
        } catch (e: Throwable) {
            val failure = e.asUnexpectedFailure()
            recording?.recordFailure(failure.error)
            throw FailedHop(protocol, failure)
        }
        val latency = start.elapsedNow()
        recording?.recordSuccess(latency, result.wireBytes)
        return Timed(result, latency)
    }

    /**
     * A random version-4 UUID, as the seed's gateway sends. From ThreadLocalRandom rather
     * than UUID.randomUUID(): the id only has to be unique, and SecureRandom's SHA-1 and
     * lock were a measurable part of every request, null hop included.
     */
    private fun newRequestId(): String {
        val random = ThreadLocalRandom.current()
        val high = (random.nextLong() and VERSION_MASK.inv()) or VERSION_4
        val low = (random.nextLong() and VARIANT_MASK.inv()) or VARIANT_IETF
        return UUID(high, low).toString()
    }

    // A missing parameter takes the seed gateway's default (some seed k6 scripts omit it);
    // a present one must be valid, even when empty.
    private fun sizeOrDefault(text: String?): PayloadSize = text?.let(PayloadSize::parse) ?: DEFAULT_SIZE

    private fun complexityOrDefault(text: String?): ComplexityLevel = text?.let(ComplexityLevel::parse) ?: DEFAULT_COMPLEXITY

    companion object {
        /** The failure kinds the window counts besides a [io.protobench.apiserver.client.HopFailure]'s own error. */
        const val INVALID_REQUEST = "invalid request"
        const val CANCELLED = "cancelled (the load generator went away)"
        private const val VERSION_MASK = 0xF000L
        private const val VERSION_4 = 0x4000L
        private const val VARIANT_MASK = -0x4000000000000000L // the top two bits
        private const val VARIANT_IETF = Long.MIN_VALUE // binary 10 in the top two bits

        /** The size of a request without `size`: 1mb, as in the seed project's gateway. */
        val DEFAULT_SIZE = PayloadSize(PayloadSize.MIB)

        /** The level of a request without `complexity`: simple, as in the seed project's gateway. */
        val DEFAULT_COMPLEXITY = ComplexityLevel.SIMPLE
    }

    private class Timed<T>(val result: T, latency: Duration) {
        val latencyMs: Double = latency.toDouble(DurationUnit.MILLISECONDS)
    }
}

/** A hop over [protocol] that failed; the web layer answers 502/503/504 from [failure]. */
class FailedHop(val protocol: Protocol, val failure: HopFailure) : RuntimeException(failure.detail, failure)

/** `GET /api/data/...`: [payloadSize] = payload bytes received and decoded; [latencyMs] = hop latency, ms. */
data class DataReply(val requestId: String, val protocol: String, val payloadSize: Int, val latencyMs: Double)

/** `GET /api/complex/...`: [serializedSize] = bytes of the encoded object as received; [latencyMs] = hop latency, ms. */
data class ComplexReply(
    val requestId: String,
    val protocol: String,
    val complexity: String,
    val serializedSize: Long,
    val latencyMs: Double,
)
