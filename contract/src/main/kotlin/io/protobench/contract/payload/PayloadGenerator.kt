package io.protobench.contract.payload

import java.util.SplittableRandom

/**
 * Payload bytes for a size: pseudo-random (so no layer can compress them away) and
 * deterministic, so a receiver can check what it got against [payloadFor] without any
 * shared state. Every size is a prefix of one fixed stream (the payload of n bytes is
 * the first n bytes of the 8 MiB one), so a server can serve every size as a slice of
 * one buffer.
 */
object PayloadGenerator {
    private const val SEED = 0x5EED_0F_B17E5L

    fun payloadFor(size: PayloadSize): ByteArray {
        val random = SplittableRandom(SEED)
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
