package io.protobench.driver

import java.nio.file.Files
import java.nio.file.Path
import java.security.SecureRandom

/**
 * Member bodies with an email no other call uses. The runner writes each body once with
 * placeholders (`mTTTTTTTT.VVVVVV.IIIIIIIIII.0000@protobench.test`, at the byte offsets
 * [CallTarget.emails]); every call gets a copy with this driver's tag (random per
 * process), its [Plan.instance] and a number no other call of this process had.
 */
class Emails(target: CallTarget, private val instance: Int) {
    private val template: ByteArray = Files.readAllBytes(Path.of(checkNotNull(target.body)))
    private val offsets: List<Int> = target.emails.orEmpty()

    init {
        offsets.forEach { at ->
            require(at >= 0 && at + ITERATION_AT + ITERATION_DIGITS <= template.size) {
                "email offset $at lies outside the body ${target.body}"
            }
        }
    }

    /** The body of the next call. */
    fun body(): ByteArray {
        val number = calls.getAndIncrement()
        val bytes = template.copyOf()
        for (at in offsets) {
            TAG.copyInto(bytes, at + TAG_AT)
            writeDigits(bytes, at + INSTANCE_AT, instance.toLong(), INSTANCE_DIGITS)
            writeDigits(bytes, at + ITERATION_AT, number, ITERATION_DIGITS)
        }
        return bytes
    }

    private fun writeDigits(bytes: ByteArray, at: Int, number: Long, width: Int) {
        var n = number
        for (i in width - 1 downTo 0) {
            bytes[at + i] = ('0'.code + (n % 10).toInt()).toByte()
            n /= 10
        }
    }

    companion object {
        // The layout the runner's placeholders follow (bench's EmailLayout).
        const val TAG_DIGITS = 8
        const val TAG_AT = 1
        const val INSTANCE_AT = TAG_AT + TAG_DIGITS + 1
        const val INSTANCE_DIGITS = 6
        const val ITERATION_AT = INSTANCE_AT + INSTANCE_DIGITS + 1
        const val ITERATION_DIGITS = 10

        /** Calls of this process so far, over all its runs (a soak's, then each trial's). */
        private val calls = java.util.concurrent.atomic.AtomicLong()

        /** Eight base-36 characters, new in every driver process: two drivers' numbers never meet. */
        private val TAG: ByteArray = java.lang.Long.toString(SecureRandom().nextLong() and Long.MAX_VALUE, 36)
            .padStart(TAG_DIGITS, '0').takeLast(TAG_DIGITS).toByteArray(Charsets.US_ASCII)
    }
}
