package io.protobench.dataserver.payload

import com.google.protobuf.ByteString
import com.google.protobuf.UnsafeByteOperations
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import org.springframework.stereotype.Component
import java.util.concurrent.ConcurrentHashMap

/**
 * The payload of one size, generated once and shared by every request for that size.
 * Nobody may modify [bytes]: [byteString] is a zero-copy view over them.
 */
class CachedPayload(val size: PayloadSize, val bytes: ByteArray) {
    val byteString: ByteString = UnsafeByteOperations.unsafeWrap(bytes)
}

/**
 * Payloads by size. The seed sizes are generated when the server starts, any other
 * size on its first request, so generating payload bytes is never part of a
 * measured request once a size has been warmed up.
 */
@Component
class PayloadCatalog {
    private val bySize = ConcurrentHashMap<Int, CachedPayload>()

    init {
        PayloadSize.SEED_SIZES.forEach { payloadFor(PayloadSize.parse(it)) }
    }

    fun payloadFor(size: PayloadSize): CachedPayload =
        bySize.computeIfAbsent(size.bytes) { CachedPayload(size, PayloadGenerator.payloadFor(size)) }

    /** Sizes generated so far, bytes, ascending. */
    fun cachedSizes(): List<Int> = bySize.keys.sorted()
}
