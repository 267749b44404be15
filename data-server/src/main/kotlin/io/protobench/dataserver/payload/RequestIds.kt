package io.protobench.dataserver.payload

import io.protobench.contract.ParameterText

/** The request id a payload response echoes: opaque text, empty when not given, limited in length. */
object RequestIds {
    const val ACCEPTED = "an opaque id (the gateway sends a UUID)"

    fun bounded(text: String): String = ParameterText.bounded("requestId", text, ACCEPTED)!!
}
