package io.protobench.apiserver.gateway

import io.protobench.contract.InvalidParameter
import io.protobench.contract.ParameterText
import io.protobench.contract.Protocol

/**
 * The harness control: `/api/data/none` and `/api/complex/none` validate and answer
 * like the real paths but call nobody, so a load run against them measures what the
 * load driver and the gateway cost on their own; the bench subtracts it from every protocol.
 * It is no [Protocol]: nothing crosses the hop under test.
 */
object NullHop {
    /** The path segment that selects it: `/api/data/none?size=`. */
    const val PATH_SEGMENT = "none"

    /** The `protocol` field of its answers. */
    const val LABEL = "Null hop"
}

/** Where a gateway request goes: to the data-server over a protocol, or nowhere (the null hop). */
sealed interface Route {
    data class Hop(val protocol: Protocol) : Route

    data object Null : Route

    companion object {
        /** Every accepted path segment: the four protocols' and the null hop's. */
        val acceptedSegments: String = Protocol.acceptedSegments + ", " + NullHop.PATH_SEGMENT

        fun fromPathSegment(segment: String): Route = when (ParameterText.bounded("protocol", segment, acceptedSegments)) {
            NullHop.PATH_SEGMENT -> Null

            else -> Protocol.entries.firstOrNull { it.pathSegment == segment }?.let(::Hop)
                ?: throw InvalidParameter("protocol", segment, acceptedSegments)
        }
    }
}
