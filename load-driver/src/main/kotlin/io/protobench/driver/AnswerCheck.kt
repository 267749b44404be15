package io.protobench.driver

import io.netty.buffer.ByteBuf

/**
 * Whether an answer is the one [target] must get. The gateway answers a small JSON object
 * (`{"requestId":…,"payloadSize":1024,…}`): the field's number is read where its key
 * stands, without parsing the rest, so a 1 KB call costs a scan of about a hundred bytes.
 * A body checked by size ([CallTarget.field] null, or [CallTarget.minBytes]) is only counted.
 */
class AnswerCheck(private val target: CallTarget) {
    private val key = target.field?.let { "\"$it\"".toByteArray(Charsets.US_ASCII) }

    /** Null when correct, else why not (a reason kept in the summary). */
    fun problem(status: Int, body: ByteBuf): String? {
        if (status != target.status) return "status $status, expected ${target.status}"
        val size = body.readableBytes().toLong()
        target.minBytes?.let { least -> if (size < least) return "body of $size bytes, expected at least $least" }
        if (key == null) return if (size == target.value) null else "body of $size bytes, expected ${target.value}"
        val found = numberAfter(body) ?: return "no number for \"${target.field}\" in the answer"
        val expected = target.value
        return when {
            expected == null && found > 0 -> null
            found == expected -> null
            else -> "\"${target.field}\" was $found, expected ${expected ?: "above 0"}"
        }
    }

    companion object {
        /** The most of a wrong answer's body a summary keeps, characters. */
        const val SAMPLE_CHARS = 200

        /**
         * The start of a wrong answer's [body] as text, for a person to read why it was wrong:
         * at most [SAMPLE_CHARS] characters of UTF-8 (bytes that are not text shown as `\uFFFD`),
         * line breaks as spaces, "…" where it was cut; "(empty body)" for none.
         */
        fun sample(body: ByteBuf): String {
            val size = body.readableBytes()
            if (size == 0) return "(empty body)"
            val head = body.toString(body.readerIndex(), minOf(size, SAMPLE_CHARS * 4), Charsets.UTF_8)
            val text = head.take(SAMPLE_CHARS).replace(Regex("\\s+"), " ")
            return if (head.length > SAMPLE_CHARS || size > SAMPLE_CHARS * 4) "$text…" else text
        }
    }

    /** The integer after `"field":` in [body], or null when the key or a number is not there. */
    private fun numberAfter(body: ByteBuf): Long? {
        val key = key!!
        val start = body.readerIndex()
        val end = body.writerIndex()
        var at = start
        while (at <= end - key.size) {
            if (matchesAt(body, at, key)) {
                var i = skipSpaces(body, at + key.size, end)
                if (i < end && body.getByte(i) == ':'.code.toByte()) return digits(body, skipSpaces(body, i + 1, end), end)
            }
            at++
        }
        return null
    }

    private fun matchesAt(body: ByteBuf, at: Int, key: ByteArray): Boolean {
        for (k in key.indices) if (body.getByte(at + k) != key[k]) return false
        return true
    }

    private fun skipSpaces(body: ByteBuf, from: Int, end: Int): Int {
        var i = from
        while (i < end && body.getByte(i).toInt().toChar().isWhitespace()) i++
        return i
    }

    private fun digits(body: ByteBuf, from: Int, end: Int): Long? {
        var i = from
        val negative = i < end && body.getByte(i) == '-'.code.toByte()
        if (negative) i++
        var value = 0L
        var any = false
        while (i < end) {
            val d = body.getByte(i) - '0'.code.toByte()
            if (d !in 0..9) break
            value = value * 10 + d
            any = true
            i++
        }
        return if (!any) {
            null
        } else if (negative) {
            -value
        } else {
            value
        }
    }
}
