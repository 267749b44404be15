package io.protobench.apiserver.gateway

import io.protobench.apiserver.client.Fetched
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.asUnexpectedFailure
import io.protobench.apiserver.measure.WindowRecording
import io.protobench.contract.InvalidParameter
import org.springframework.stereotype.Component
import java.util.UUID
import java.util.concurrent.ThreadLocalRandom
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.Duration
import kotlin.time.DurationUnit
import kotlin.time.TimeSource

/**
 * What every gateway request does around its hop, reads ([DataGateway]) and writes
 * ([MemberGateway]) alike: time it and record it in the open measurement window, as a
 * success with its bytes or a failure under its kind. Inline, so a hop pays no more than
 * the code written out at its call site.
 */
@Component
class HopTiming(@PublishedApi internal val timeSource: TimeSource) {

    /**
     * The null hop: nothing is called or built, so the latency recorded is the timer's
     * own cost (about 0) and no bytes cross the hop. Returns the latency, ms.
     */
    fun nullHop(recording: WindowRecording?): Double {
        val start = timeSource.markNow()
        val latency = start.elapsedNow()
        recording?.recordSuccess(latency, wireBytes = 0)
        return latency.toDouble(DurationUnit.MILLISECONDS)
    }

    companion object {
        /** The failure kinds the window counts besides a [HopFailure]'s own error. */
        const val INVALID_REQUEST = "invalid request"
        const val CANCELLED = "cancelled (the load generator went away)"
    }
}

/**
 * Runs [call], the hop, timed from just before it until it returns (its answer fully
 * decoded). An extension, not a member: Spring makes a component's members open, and an
 * open member cannot be inline. A failure is counted under its [HopFailure.error] and
 * thrown as [failed] makes it.
 */
suspend inline fun <T : Fetched> HopTiming.timed(recording: WindowRecording?, call: () -> T, failed: (HopFailure) -> Throwable): Timed<T> {
    val start = timeSource.markNow()
    val result = try {
        call()
    } catch (e: CancellationException) {
        recording?.recordFailure(HopTiming.CANCELLED)
        throw e
    } catch (e: Throwable) {
        val failure = e.asUnexpectedFailure()
        recording?.recordFailure(failure.error)
        throw failed(failure)
    }
    val latency = start.elapsedNow()
    recording?.recordSuccess(latency, result.wireBytes)
    return Timed(result, latency)
}

/** A hop's result and its latency, ms. */
class Timed<T>(val result: T, latency: Duration) {
    val latencyMs: Double = latency.toDouble(DurationUnit.MILLISECONDS)
}

/** Bad input is a failed request of the open window too (the load generator sees it fail). */
inline fun <T> validated(recording: WindowRecording?, parse: () -> T): T = try {
    parse()
} catch (e: InvalidParameter) {
    recording?.recordFailure(HopTiming.INVALID_REQUEST)
    throw e
}

/**
 * A random version-4 UUID, as the seed's gateway sends. From ThreadLocalRandom rather
 * than UUID.randomUUID(): the id only has to be unique, and SecureRandom's SHA-1 and
 * lock are a measurable part of every request, null hop included
 * (docs/journal/2026-11-22-leaner-harness.md).
 */
fun newRequestId(): String {
    val random = ThreadLocalRandom.current()
    val high = (random.nextLong() and VERSION_MASK.inv()) or VERSION_4
    val low = (random.nextLong() and VARIANT_MASK.inv()) or VARIANT_IETF
    return UUID(high, low).toString()
}

private const val VERSION_MASK = 0xF000L
private const val VERSION_4 = 0x4000L
private const val VARIANT_MASK = -0x4000000000000000L // the top two bits
private const val VARIANT_IETF = Long.MIN_VALUE // binary 10 in the top two bits
