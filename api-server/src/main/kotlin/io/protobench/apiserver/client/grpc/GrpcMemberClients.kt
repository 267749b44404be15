package io.protobench.apiserver.client.grpc

import io.protobench.apiserver.client.CreatedMembers
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.MemberClient
import io.protobench.apiserver.client.oneCallEach
import io.protobench.apiserver.client.toProto
import io.protobench.contract.members.NewMember
import io.protobench.contract.proto.CreateMemberRequest
import kotlinx.coroutines.flow.asFlow

/** gRPC/Unary member creation: one `CreateMember` call per member, one after the other (see [oneCallEach]). */
class GrpcUnaryMemberClient(private val channels: GrpcChannels) : MemberClient {
    override val oneCallPerMember = true

    override suspend fun create(members: List<NewMember>, created: CreatedMembers) = created.oneCallEach(members) { member ->
        val request = member.toProto()
        created.sent(request.serializedSize)
        channels.memberCall { it.memberStub().createMember(request) }.id
    }
}

/**
 * gRPC/Stream member creation: the whole batch in one `CreateMembers` client stream, which
 * the data-server writes in one transaction once the stream is closed: all members or none.
 */
class GrpcStreamMemberClient(private val channels: GrpcChannels) : MemberClient {
    override val oneCallPerMember = false

    override suspend fun create(members: List<NewMember>, created: CreatedMembers) {
        val requests: List<CreateMemberRequest> = members.map { it.toProto() }
        requests.forEach { created.sent(it.serializedSize) }
        val answer = channels.memberCall { it.memberStub().createMembers(requests.asFlow()) }
        // The answer comes after the commit: whatever ids it carries exist, even when their count is wrong.
        answer.idsList.forEach(created::add)
        if (answer.idsCount != members.size) {
            throw HopFailure.BadResponse("streamed ${members.size} members, the data-server answered ${answer.idsCount} ids")
        }
    }
}
