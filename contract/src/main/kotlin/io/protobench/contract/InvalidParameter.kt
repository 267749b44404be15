package io.protobench.contract

/**
 * A request parameter that is not accepted. The message names the parameter, the
 * value given and what is accepted; servers turn it into a 400 / INVALID_ARGUMENT.
 * An over-long value is shown cut short with its length, so an error never echoes a
 * huge input back (a gRPC status description travels in size-limited trailers).
 */
class InvalidParameter(val parameter: String, value: String?, val accepted: String) :
    RuntimeException("invalid $parameter '${shown(value) ?: ""}': accepted $accepted") {
    /** The value as given (cut short when long); null when the parameter was missing. */
    val value: String? = shown(value)

    private companion object {
        const val SHOWN_CHARS = 32

        fun shown(value: String?): String? = if (value == null || value.length <= ParameterText.MAX_LENGTH) {
            value
        } else {
            value.take(SHOWN_CHARS) + "… (${value.length} characters)"
        }
    }
}
