package io.protobench.dataserver.grpc

import io.grpc.Status
import io.protobench.contract.InvalidParameter
import io.protobench.contract.members.MemberBatch
import io.protobench.contract.members.MemberRules
import io.protobench.contract.proto.CreateMemberRequest
import io.protobench.contract.proto.CreateMemberResponse
import io.protobench.contract.proto.CreateMembersResponse
import io.protobench.contract.proto.MemberServiceGrpcKt
import io.protobench.dataserver.members.DatabaseUnavailable
import io.protobench.dataserver.members.DuplicateEmail
import io.protobench.dataserver.members.MemberStore
import kotlinx.coroutines.flow.Flow
import kotlin.coroutines.CoroutineContext

/**
 * `protobench.MemberService`: member creation over gRPC, one by one or a client stream
 * written as one transaction once the client has closed it. A bad member fails the call
 * with INVALID_ARGUMENT naming the field (in a stream, with its position), a taken email
 * with ALREADY_EXISTS, an unreachable database with UNAVAILABLE; a failed stream wrote
 * nothing. Handlers run in [handlerContext] (see GrpcConfig); the database calls leave it
 * for [MemberStore]'s JDBC threads.
 */
class MemberGrpcService(private val store: MemberStore, handlerContext: CoroutineContext) :
    MemberServiceGrpcKt.MemberServiceCoroutineImplBase(handlerContext) {

    override suspend fun createMember(request: CreateMemberRequest): CreateMemberResponse = answering {
        CreateMemberResponse.newBuilder().setId(store.create(MemberRules.fromProto(request))).build()
    }

    override suspend fun createMembers(requests: Flow<CreateMemberRequest>): CreateMembersResponse = answering {
        val batch = MemberBatch()
        requests.collect { batch.add(it) }
        val ids = store.createAll(batch.members)
        CreateMembersResponse.newBuilder().addAllIds(ids).setCount(ids.size).build()
    }

    private inline fun <T> answering(call: () -> T): T = try {
        call()
    } catch (e: InvalidParameter) {
        throw e.asStatus()
    } catch (e: DuplicateEmail) {
        throw Status.ALREADY_EXISTS.withDescription(e.message).asException()
    } catch (e: DatabaseUnavailable) {
        throw Status.UNAVAILABLE.withDescription(e.message).withCause(e).asException()
    }
}
