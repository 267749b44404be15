package io.protobench.contract.payload

import java.util.SplittableRandom

/**
 * Payload bytes for a size: pseudo-random (so no layer can compress them away) and
 * deterministic (the same size always gives the same bytes), so a receiver can check
 * what it got against [payloadFor] without any shared state.
 */
object PayloadGenerator {
    fun payloadFor(size: PayloadSize): ByteArray {
        val random = SplittableRandom(size.bytes.toLong() * 31 + 7)
        val bytes = ByteArray(size.bytes)
        var i = 0
        while (i < bytes.size) {
            var word = random.nextLong()
            val end = minOf(i + 8, bytes.size)
            while (i < end) {
                bytes[i++] = word.toByte()
                word = word ushr 8
            }
        }
        return bytes
    }
}
