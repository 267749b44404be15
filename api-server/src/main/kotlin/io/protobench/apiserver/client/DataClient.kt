package io.protobench.apiserver.client

import com.google.protobuf.ByteString
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.LevelRecord
import io.protobench.contract.complex.ProtoMapping
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData

/**
 * One way of calling the data-server (one [io.protobench.contract.Protocol]). Each call
 * sends one request, receives the whole response and decodes it fully, as a real
 * service would; failures are thrown as [HopFailure].
 */
interface DataClient {
    /** Fetches the payload of [size]; the result holds the bytes actually received and decoded. */
    suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData

    /** Fetches the object of [level], decoded into objects (JSON) or a message (protobuf). */
    suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex

    /** Fetches a batch of [count] items of the user's message, each decoded into a record (JSON) or a generated message. */
    suspend fun fetchItems(count: Int, requestId: String): FetchedItems
}

/**
 * What a hop moved: [wireBytes] = response bytes received (HTTP body bytes; gRPC
 * serialized message bytes). Under `protobench.gateway.compression: gzip` they stay the
 * decoded sizes (the HTTP body after gzip decoding, the gRPC message as serialized), so
 * figures compare across variants; the compressed bytes on the wire are not counted.
 */
sealed interface Fetched {
    val wireBytes: Long
}

/** A decoded payload. [payload] is a view of the received bytes (no copy). */
class FetchedData(val payload: ByteString, override val wireBytes: Long) : Fetched

/**
 * A decoded level object; [wireBytes] is the size of the encoded object as received.
 * It is computed on first use, which the gateway makes only after the hop's timer has
 * stopped: for a parsed gRPC message it means walking the whole message
 * (`serializedSize`), work the HTTP hops do not have and the hop latency must not include.
 */
class FetchedComplex(val body: ComplexBody, wireBytes: () -> Long) : Fetched {
    override val wireBytes: Long by lazy(LazyThreadSafetyMode.NONE, wireBytes)
}

/**
 * A decoded batch of the user's message: model records (HTTP/JSON) or generated messages; [wireBytes]
 * as for [FetchedComplex], computed after the hop's timer has stopped.
 */
class FetchedItems(val items: List<Any>, wireBytes: () -> Long) : Fetched {
    override val wireBytes: Long by lazy(LazyThreadSafetyMode.NONE, wireBytes)
}

/** Fails unless a batch holds the [count] items asked for. */
internal fun checkItemCount(count: Int, items: List<*>) {
    if (items.size != count) throw HopFailure.BadResponse("asked for $count items, got ${items.size}")
}

/** A level object in the form its protocol decodes it to. */
sealed interface ComplexBody {
    /** HTTP/JSON: Jackson decoded the body into the level's Kotlin class. */
    data class Objects(val record: LevelRecord) : ComplexBody

    /** HTTP/Binary and gRPC: protobuf parsed the body into a [ComplexData] message. */
    data class Message(val message: ComplexData) : ComplexBody

    /** The Kotlin object whatever the protocol (converts a message; for comparisons in tests). */
    fun toRecord(): LevelRecord = when (this) {
        is Objects -> record
        is Message -> ProtoMapping.fromProto(message)
    }
}

/** The [ComplexData] case that carries [level] (the oneof field numbers follow the level order). */
internal fun ComplexData.carries(level: ComplexityLevel): Boolean = recordCase.number == level.ordinal + 1
