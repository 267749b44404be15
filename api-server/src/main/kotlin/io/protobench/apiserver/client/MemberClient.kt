package io.protobench.apiserver.client

import com.google.protobuf.UnsafeByteOperations
import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.members.NewMember
import io.protobench.contract.proto.CreateMemberRequest
import java.util.Base64

/**
 * One way of creating members on the data-server (one [io.protobench.contract.Protocol]).
 * [create] sends the members in order and adds each creation the data-server confirmed to
 * `created` as soon as its answer is decoded, so that when a later member fails, `created`
 * still says exactly which members exist. Failures are thrown as [HopFailure].
 */
interface MemberClient {
    /**
     * True when every member is a call, and a transaction, of its own (a failure is then
     * about the member after the created ones); false when the whole batch is one call
     * and one transaction (a failure created none).
     */
    val oneCallPerMember: Boolean

    suspend fun create(members: List<NewMember>, created: CreatedMembers)
}

/**
 * The members one gateway request has created so far, ids in request order. [wireBytes]:
 * the request bytes sent to the data-server (HTTP body bytes; gRPC serialized message
 * bytes). For a write the payload goes up, so a write hop counts what it sent, where a
 * read hop counts what it received.
 */
class CreatedMembers : Fetched {
    private val createdIds = ArrayList<Long>()

    val ids: List<Long> get() = createdIds

    override var wireBytes: Long = 0
        private set

    fun sent(bytes: Int) {
        wireBytes += bytes
    }

    fun add(id: Long) {
        createdIds += id
    }
}

/**
 * Creates [members] one call each, in order, each call sent only after the previous one
 * was answered: every member is its own transaction on the data-server, and the batch
 * stops at the first failure with the members before it created. Sequential, not
 * concurrent, so that a protocol's cost per member is that of one call and compares
 * across protocols (a concurrent batch would measure the pool and the data-server's
 * parallelism instead). [createOne] sends one member and returns its new id.
 */
internal suspend inline fun CreatedMembers.oneCallEach(members: List<NewMember>, createOne: (NewMember) -> Long) {
    for (member in members) add(createOne(member))
}

/** [this] as the HTTP/JSON body carries it: seed 003's shape, the image as base64 text. */
internal fun NewMember.toJson() = CreateMemberJson(email, password, name, Base64.getEncoder().encodeToString(profileImage), etcInfo)

/** [this] as HTTP/Binary and gRPC carry it; the image is wrapped, not copied (nothing changes it once checked). */
internal fun NewMember.toProto(): CreateMemberRequest = CreateMemberRequest.newBuilder()
    .setEmail(email)
    .setPassword(password)
    .setName(name)
    .setProfileImage(UnsafeByteOperations.unsafeWrap(profileImage))
    .setEtcInfo(etcInfo)
    .build()
