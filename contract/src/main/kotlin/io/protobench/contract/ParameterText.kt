package io.protobench.contract

/**
 * The first check on every request parameter, on both servers: a length cap, applied
 * before the text is looked at any further, so no input can make parsing slow or
 * memory-hungry. Every accepted value is far shorter than the caps.
 */
object ParameterText {
    /** Longest size, complexity, protocol or request id accepted, characters. */
    const val MAX_LENGTH = 64

    /** Longest free-text label (the benchmark window's protocol and testName), characters. */
    const val MAX_LABEL_LENGTH = 256

    /**
     * [text] unchanged when it has at most [maxLength] characters (null passes: missing
     * is for the caller to judge); otherwise [InvalidParameter] naming the limit and [accepted].
     */
    fun bounded(parameter: String, text: String?, accepted: String, maxLength: Int = MAX_LENGTH): String? {
        if (text != null && text.length > maxLength) {
            throw InvalidParameter(parameter, text, "at most $maxLength characters: $accepted")
        }
        return text
    }
}
