package io.protobench.apiserver.gateway

import io.protobench.apiserver.client.CreatedMembers
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.MemberClient
import io.protobench.apiserver.client.MemberClients
import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.contract.Protocol
import org.springframework.stereotype.Service

/**
 * One write request (`POST /api/members/<protocol>`, seed 003's member creation): validate
 * the route and every member before anything is sent, create the members on the
 * data-server over the chosen protocol (or nowhere, for the [NullHop]), time the hop and
 * record it in the open window, as [DataGateway] does for reads.
 *
 * A batch of N goes as N calls, one after the other, over HTTP/JSON, HTTP/Binary and
 * gRPC/Unary, and as one client stream over gRPC/Stream (see [MemberClient]). Hop latency:
 * from just before the first member is encoded and sent until the last answer is decoded.
 * Hop bytes: the request bytes sent (see [CreatedMembers]). A failed batch is one failed
 * request of the window, whatever it created before failing; the answer says how many.
 */
@Service
class MemberGateway(private val clients: MemberClients, private val window: MeasurementWindow, private val hops: HopTiming) {
    /** [readBody] is called after the route is checked; a body over the limit is an invalid request too. */
    suspend fun create(routeSegment: String, readBody: suspend () -> ByteArray): MembersReply {
        val recording = window.current()
        val route = validated(recording) { Route.fromPathSegment(routeSegment) }
        val request = validated(recording) { MemberRequest.parse(readBody()) }
        val requestId = newRequestId()
        return when (route) {
            Route.Null -> MembersReply(requestId, NullHop.LABEL, emptyList(), 0, hops.nullHop(recording))

            is Route.Hop -> {
                val client = clients.of(route.protocol)
                val created = CreatedMembers()
                val hop = hops.timed(recording, { created.also { client.create(request.members, it) } }) {
                    FailedMemberHop.of(route.protocol, it, request, client, created)
                }
                MembersReply(requestId, route.protocol.label, hop.result.ids, hop.result.ids.size, hop.latencyMs)
            }
        }
    }
}

/**
 * `POST /api/members/...`: [ids] of the members created, in request order; [created] = how
 * many (0 on the null hop, which creates none); [latencyMs] = hop latency of the whole batch, ms.
 */
data class MembersReply(val requestId: String, val protocol: String, val ids: List<Long>, val created: Int, val latencyMs: Double)

/**
 * A member creation over [protocol] that failed. [createdBeforeFailure]: members the
 * data-server confirmed before the failure (each its own transaction; always 0 for
 * gRPC/Stream, whose batch is one). After a timeout or a lost connection the failed call
 * may still have committed, unconfirmed. [parameter] and [value] name the member field at
 * fault when that is known: the field the data-server refused, or the email of the member
 * whose email was taken.
 */
class FailedMemberHop(
    val protocol: Protocol,
    val failure: HopFailure,
    val createdBeforeFailure: Int,
    val parameter: String?,
    val value: String?,
) : RuntimeException(failure.detail, failure) {
    companion object {
        fun of(protocol: Protocol, failure: HopFailure, request: MemberRequest, client: MemberClient, created: CreatedMembers) =
            FailedMember(request, client.oneCallPerMember, created.ids.size).let {
                FailedMemberHop(protocol, failure, created.ids.size, it.parameter(failure), it.value(failure))
            }
    }
}

/** Which member of [request] a failure is about, [createdBefore] of them created, and how it is named. */
private class FailedMember(private val request: MemberRequest, private val oneCallPerMember: Boolean, private val createdBefore: Int) {
    /** With one call per member, the one after those created; in one stream, the only member, or (null) any of them. */
    private val index: Int? =
        if (oneCallPerMember) createdBefore.takeIf { it < request.members.size } else 0.takeIf { request.members.size == 1 }

    fun parameter(failure: HopFailure): String? = when (failure) {
        // A stream's refusal names the member's position itself (members[3].email).
        is HopFailure.MemberRejected -> if (oneCallPerMember) request.nameOf(createdBefore, failure.parameter) else failure.parameter

        is HopFailure.DuplicateEmail -> index?.let { request.nameOf(it, "email") } ?: "members"

        else -> null
    }

    fun value(failure: HopFailure): String? = if (failure is HopFailure.DuplicateEmail) index?.let { request.members[it].email } else null
}
