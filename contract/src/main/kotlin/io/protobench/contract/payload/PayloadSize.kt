package io.protobench.contract.payload

import io.protobench.contract.InvalidParameter
import io.protobench.contract.ParameterText

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

        /** Most digits in the number: enough for 8mb in bytes (7), few enough that no product overflows a Long. */
        private const val MAX_DIGITS = 10

        /**
         * Parses `[spaces] digits [spaces] [b|kb|mb] [spaces]`, unit in any case. Hand-written
         * and linear in the (capped) length: a backtracking regex here once let one crafted
         * gRPC request burn seconds of CPU.
         */
        fun parse(text: String?): PayloadSize {
            val bounded = ParameterText.bounded("size", text, ACCEPTED) ?: throw invalid(null)
            val bytes = SizeText(bounded).bytes() ?: throw invalid(text)
            if (bytes < 1 || bytes > MAX_BYTES) throw invalid(text)
            return PayloadSize(bytes.toInt())
        }

        private fun invalid(text: String?) = InvalidParameter("size", text, ACCEPTED)

        /** One pass over a size text; [bytes] is null when it does not follow the grammar. */
        private class SizeText(private val text: String) {
            private var at = 0

            fun bytes(): Long? {
                skipSpaces()
                val digitsStart = at
                while (at < text.length && text[at] in '0'..'9') at++
                val digits = at - digitsStart
                if (digits == 0 || digits > MAX_DIGITS) return null
                val number = text.substring(digitsStart, at).toLong()
                skipSpaces()
                val unitStart = at
                while (at < text.length && text[at].isLetter()) at++
                val multiplier = multiplierOf(text.substring(unitStart, at).lowercase()) ?: return null
                skipSpaces()
                return if (at == text.length) number * multiplier else null
            }

            private fun skipSpaces() {
                while (at < text.length && isSpace(text[at])) at++
            }

            /** The whitespace `\s` matched in the old pattern: ASCII space, tab, line breaks, form feed. */
            private fun isSpace(c: Char) = c == ' ' || c in '\t'..'\r'

            private fun multiplierOf(unit: String): Long? = when (unit) {
                "", "b" -> 1L
                "kb" -> KIB.toLong()
                "mb" -> MIB.toLong()
                else -> null
            }
        }

        /** Shortest exact label: 1048576 -> "1mb", 10240 -> "10kb", 1500 -> "1500". */
        fun label(bytes: Int): String = when {
            bytes % MIB == 0 -> "${bytes / MIB}mb"
            bytes % KIB == 0 -> "${bytes / KIB}kb"
            else -> "$bytes"
        }
    }
}
