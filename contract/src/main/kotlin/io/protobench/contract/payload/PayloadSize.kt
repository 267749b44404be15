package io.protobench.contract.payload

import io.protobench.contract.InvalidParameter

/**
 * A payload size in bytes. Written as plain bytes ("4096") or with a binary unit:
 * "10kb" = 10 × 1024 bytes, "1mb" = 1024 × 1024 bytes (case-insensitive).
 */
@JvmInline
value class PayloadSize(val bytes: Int) {
    override fun toString(): String = label(bytes)

    companion object {
        const val KIB = 1024
        const val MIB = 1024 * 1024

        /** The largest payload the lab serves: 8 MiB. gRPC channels are sized for it. */
        const val MAX_BYTES = 8 * MIB

        /** The sizes the seed project measured, in their order. */
        val SEED_SIZES: List<String> = listOf("1kb", "10kb", "50kb", "100kb", "200kb", "500kb", "1mb")

        const val ACCEPTED = "a whole number of bytes (e.g. 4096) or kb/mb (e.g. 10kb, 1mb; 1kb = 1024 bytes), " +
            "from 1 byte up to 8mb"

        private val pattern = Regex("""^\s*(\d{1,10})\s*(b|kb|mb)?\s*$""", RegexOption.IGNORE_CASE)

        fun parse(text: String?): PayloadSize {
            val match = text?.let { pattern.matchEntire(it) }
                ?: throw InvalidParameter("size", text, ACCEPTED)
            val (number, unit) = match.destructured
            val multiplier = when (unit.lowercase()) {
                "kb" -> KIB.toLong()
                "mb" -> MIB.toLong()
                else -> 1L
            }
            val bytes = number.toLong() * multiplier
            if (bytes < 1 || bytes > MAX_BYTES) throw InvalidParameter("size", text, ACCEPTED)
            return PayloadSize(bytes.toInt())
        }

        /** Shortest exact label: 1048576 -> "1mb", 10240 -> "10kb", 1500 -> "1500". */
        fun label(bytes: Int): String = when {
            bytes % MIB == 0 -> "${bytes / MIB}mb"
            bytes % KIB == 0 -> "${bytes / KIB}kb"
            else -> "$bytes"
        }
    }
}
