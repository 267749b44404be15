package io.protobench.apiserver.gateway

import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.message.ItemCount
import io.protobench.contract.payload.PayloadSize
import org.springframework.stereotype.Service

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
    private val hops: HopTiming,
    private val shapes: LevelShapes,
    private val message: GatewayMessage,
) {
    /** [client]: which of the gateway's sets of hop clients carries the hop (null: its own). */
    suspend fun data(routeSegment: String, sizeText: String?, client: String? = null): DataReply {
        val recording = window.current()
        val (route, size) = validated(recording) { Route.fromPathSegment(routeSegment) to sizeOrDefault(sizeText) }
        val set = validated(recording) { clients.set(client) }
        val requestId = newRequestId()
        return when (route) {
            Route.Null -> DataReply(requestId, NullHop.LABEL, size.bytes, hops.nullHop(recording))

            is Route.Hop -> {
                val hop = hops.timed(recording, { set.of(route.protocol).fetchData(size, requestId) }) {
                    FailedHop(route.protocol, it)
                }
                DataReply(requestId, route.protocol.label, hop.result.payload.size(), hop.latencyMs)
            }
        }
    }

    suspend fun complex(routeSegment: String, complexityText: String?, client: String? = null): ComplexReply {
        val recording = window.current()
        val (route, level) =
            validated(recording) { Route.fromPathSegment(routeSegment) to complexityOrDefault(complexityText) }
        val set = validated(recording) { clients.set(client) }
        val requestId = newRequestId()
        return when (route) {
            // The byte count a protobuf hop would have carried, as /api/complexities reports it.
            Route.Null -> ComplexReply(
                requestId,
                NullHop.LABEL,
                level.id,
                shapes.of(level).protobufBytes.toLong(),
                hops.nullHop(recording),
            )

            is Route.Hop -> {
                val hop = hops.timed(recording, { set.of(route.protocol).fetchComplex(level, requestId) }) {
                    FailedHop(route.protocol, it)
                }
                ComplexReply(requestId, route.protocol.label, level.id, hop.result.wireBytes, hop.latencyMs)
            }
        }
    }

    suspend fun items(routeSegment: String, countText: String?, client: String? = null): ItemsReply {
        val recording = window.current()
        val (route, count) = validated(recording) {
            message.required()
            Route.fromPathSegment(routeSegment) to ItemCount.parse(countText)
        }
        val set = validated(recording) { clients.set(client) }
        val requestId = newRequestId()
        return when (route) {
            // The bytes a protobuf batch would have carried.
            Route.Null -> ItemsReply(requestId, NullHop.LABEL, count, count * message.itemBytes, hops.nullHop(recording))

            is Route.Hop -> {
                val hop = hops.timed(recording, { set.of(route.protocol).fetchItems(count, requestId) }) {
                    FailedHop(route.protocol, it)
                }
                ItemsReply(requestId, route.protocol.label, hop.result.items.size, hop.result.wireBytes, hop.latencyMs)
            }
        }
    }

    // A missing parameter takes the seed gateway's default (some seed k6 scripts omit it);
    // a present one must be valid, even when empty.
    private fun sizeOrDefault(text: String?): PayloadSize = text?.let(PayloadSize::parse) ?: DEFAULT_SIZE

    private fun complexityOrDefault(text: String?): ComplexityLevel = text?.let(ComplexityLevel::parse) ?: DEFAULT_COMPLEXITY

    companion object {
        /** The size of a request without `size`: 1mb, as in the seed project's gateway. */
        val DEFAULT_SIZE = PayloadSize(PayloadSize.MIB)

        /** The level of a request without `complexity`: simple, as in the seed project's gateway. */
        val DEFAULT_COMPLEXITY = ComplexityLevel.SIMPLE
    }
}

/** A hop over [protocol] that failed; the web layer answers 502/503/504 from [failure]. */
class FailedHop(val protocol: Protocol, val failure: HopFailure) : RuntimeException(failure.detail, failure)

/** `GET /api/data/...`: [payloadSize] = payload bytes received and decoded; [latencyMs] = hop latency, ms. */
data class DataReply(val requestId: String, val protocol: String, val payloadSize: Int, val latencyMs: Double)

/** `GET /api/message/...`: [count] = items received and decoded; [serializedSize] = bytes of the batch as received. */
data class ItemsReply(val requestId: String, val protocol: String, val count: Int, val serializedSize: Long, val latencyMs: Double)

/** `GET /api/complex/...`: [serializedSize] = bytes of the encoded object as received; [latencyMs] = hop latency, ms. */
data class ComplexReply(
    val requestId: String,
    val protocol: String,
    val complexity: String,
    val serializedSize: Long,
    val latencyMs: Double,
)
