package io.protobench.apiserver.client.http

import io.protobench.apiserver.client.CreatedMembers
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.MemberClient
import io.protobench.apiserver.client.oneCallEach
import io.protobench.apiserver.client.toJson
import io.protobench.apiserver.client.toProto
import io.protobench.contract.Json
import io.protobench.contract.members.MemberCreated
import io.protobench.contract.members.NewMember
import io.protobench.contract.proto.CreateMemberResponse

/**
 * HTTP/JSON and HTTP/Binary member creation: one `POST /api/members` per member, the body
 * in [format], sent one after the other (see [oneCallEach]). The data-server's refusals
 * keep their meaning: 400 names the field, 409 is a taken email, 503 a database it cannot
 * reach; any other error status is [HopFailure.Rejected], as on the read paths.
 */
class HttpMemberClient(private val http: DataServerHttp, private val format: MemberBodyFormat) : MemberClient {
    override val oneCallPerMember = true

    override suspend fun create(members: List<NewMember>, created: CreatedMembers) = created.oneCallEach(members) { member ->
        val body = format.encode(member)
        created.sent(body.size)
        val reply = http.post(MEMBERS, body, format.mediaType)
        if (reply.status !in 200..299) throw failureOf(reply)
        decoded(reply.body)
    }

    private fun decoded(body: ByteArray): Long = try {
        format.idOf(body)
    } catch (e: Exception) {
        throw HopFailure.BadResponse(
            "undecodable answer to POST $MEMBERS (${body.size} bytes): ${e.message?.lineSequence()?.first()}",
            e,
        )
    }

    private fun failureOf(reply: HttpReply): HopFailure {
        val detail = "HTTP ${reply.status} from ${http.target}$MEMBERS: ${DataServerHttp.errorMessage(reply.body)}"
        return when (reply.status) {
            400 -> HopFailure.MemberRejected(namedParameter(reply.body), detail)
            409 -> HopFailure.DuplicateEmail(detail)
            503 -> HopFailure.DatabaseUnavailable(detail)
            else -> HopFailure.Rejected(detail)
        }
    }

    /** The field a data-server 400 names (its `parameter`), else the whole body. */
    private fun namedParameter(body: ByteArray): String =
        DataServerHttp.errorJson(body)?.get("parameter")?.takeIf { it.isTextual }?.asText() ?: "body"

    private companion object {
        const val MEMBERS = "/api/members"
    }
}

/** How a member travels in an HTTP body, and how the data-server's 201 carries its new id. */
enum class MemberBodyFormat(val mediaType: String) {
    /** HTTP/JSON: seed 003's JSON object, the image as base64 text; answered `{"id": …}`. */
    JSON("application/json") {
        override fun encode(member: NewMember): ByteArray = jsonMapper.writeValueAsBytes(member.toJson())

        override fun idOf(body: ByteArray): Long = createdReader.readValue<MemberCreated>(body).id
    },

    /** HTTP/Binary: a serialized `CreateMemberRequest`; answered with a `CreateMemberResponse`. */
    PROTOBUF("application/x-protobuf") {
        override fun encode(member: NewMember): ByteArray = member.toProto().toByteArray()

        override fun idOf(body: ByteArray): Long = CreateMemberResponse.parseFrom(body).id
    }, ;

    abstract fun encode(member: NewMember): ByteArray

    abstract fun idOf(body: ByteArray): Long
}

private val jsonMapper = Json.newMapper()
private val createdReader = jsonMapper.readerFor(MemberCreated::class.java)
