package io.protobench.contract

/**
 * A request parameter that is not accepted. The message names the parameter, the
 * value given and what is accepted; servers turn it into a 400 / INVALID_ARGUMENT.
 */
class InvalidParameter(
    val parameter: String,
    val value: String?,
    val accepted: String,
) : RuntimeException("invalid $parameter '${value ?: ""}': accepted $accepted")
