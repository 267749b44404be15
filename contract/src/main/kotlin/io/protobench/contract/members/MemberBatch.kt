package io.protobench.contract.members

import io.protobench.contract.InvalidParameter
import io.protobench.contract.proto.CreateMemberRequest

/**
 * The members of one CreateMembers stream, checked as they arrive: each by [MemberRules]
 * (a bad field named with its position, `members[3].email`), the whole against the batch
 * limits, since a batch is held in memory until it is written in one transaction.
 */
class MemberBatch {
    private val accepted = ArrayList<NewMember>()
    private var imageBytes = 0L

    /** The members added so far, in stream order. */
    val members: List<NewMember> get() = accepted

    fun add(request: CreateMemberRequest) {
        if (accepted.size == MemberRules.MAX_BATCH_MEMBERS) throw overLimit("member ${accepted.size + 1}")
        val member = MemberRules.inStream(accepted.size) { MemberRules.fromProto(request) }
        imageBytes += member.profileImage.size
        if (imageBytes > MemberRules.MAX_BATCH_IMAGE_BYTES) throw overLimit("$imageBytes image bytes")
        accepted += member
    }

    private fun overLimit(reached: String) = InvalidParameter("members", "(reached $reached)", ACCEPTED)

    companion object {
        const val ACCEPTED = "at most ${MemberRules.MAX_BATCH_MEMBERS} members and ${MemberRules.MAX_BATCH_IMAGE_BYTES} image " +
            "bytes (32 MiB) per stream"
    }
}
