package io.protobench.apiserver.gateway

import com.fasterxml.jackson.core.JsonProcessingException
import com.fasterxml.jackson.core.JsonToken
import com.fasterxml.jackson.databind.JsonMappingException
import com.fasterxml.jackson.databind.ObjectReader
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Json
import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.members.MemberRules
import io.protobench.contract.members.NewMember
import com.fasterxml.jackson.core.JsonParser as Parser

/**
 * The body of `POST /api/members/<protocol>`: seed 003's member object, or a JSON array of
 * them (a batch). Every member is checked by [MemberRules] before anything is sent; a bad
 * field is named as the data-server names one: `email` in a single object,
 * `members[2].email` (0-based) in an array.
 */
class MemberRequest private constructor(val members: List<NewMember>, val isBatch: Boolean) {

    /** How [field] of the member at [index] is named to the caller. */
    fun nameOf(index: Int, field: String): String = if (isBatch) "members[$index].$field" else field

    companion object {
        /** Largest body read: a full batch (32 MiB of images is about 45 MB of base64) plus its text fields. */
        const val MAX_BODY_BYTES = 64 * 1024 * 1024

        const val BODY_ACCEPTED = "a JSON object with the string fields email, password, name, profileImage (base64) and " +
            "etcInfo, or a JSON array of 1 to ${MemberRules.MAX_BATCH_MEMBERS} of them, at most $MAX_BODY_BYTES bytes"

        const val BATCH_ACCEPTED = "1 to ${MemberRules.MAX_BATCH_MEMBERS} members and at most " +
            "${MemberRules.MAX_BATCH_IMAGE_BYTES} image bytes (32 MiB) in one request, as one CreateMembers stream takes"

        private val memberReader: ObjectReader = Json.newMapper().readerFor(CreateMemberJson::class.java)

        /** The checked members of [body]; an [InvalidParameter] naming the first problem. */
        fun parse(body: ByteArray): MemberRequest = try {
            memberReader.createParser(body).use { parser ->
                val request = when (parser.nextToken()) {
                    JsonToken.START_OBJECT -> MemberRequest(listOf(member(parser, null)), isBatch = false)
                    JsonToken.START_ARRAY -> MemberRequest(batch(parser), isBatch = true)
                    else -> throw badBody()
                }
                if (parser.nextToken() != null) throw badBody()
                request
            }
        } catch (e: JsonProcessingException) {
            throw badBody()
        }

        private fun batch(parser: Parser): List<NewMember> {
            val members = ArrayList<NewMember>()
            var imageBytes = 0L
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                if (members.size == MemberRules.MAX_BATCH_MEMBERS) throw overBatch("member ${members.size + 1}")
                if (parser.currentToken() != JsonToken.START_OBJECT) {
                    throw InvalidParameter("members[${members.size}]", null, "a JSON object")
                }
                val member = member(parser, members.size)
                imageBytes += member.profileImage.size
                if (imageBytes > MemberRules.MAX_BATCH_IMAGE_BYTES) throw overBatch("$imageBytes image bytes")
                members += member
            }
            if (members.isEmpty()) throw InvalidParameter("members", "[]", BATCH_ACCEPTED)
            return members
        }

        /** The member object at the parser, the [index]-th of a batch or (null) the only one. */
        private fun member(parser: Parser, index: Int?): NewMember {
            val json = try {
                memberReader.readValue<CreateMemberJson>(parser)
            } catch (e: JsonMappingException) {
                throw wrongType(e, index)
            }
            return if (index == null) MemberRules.fromJson(json) else MemberRules.inStream(index) { MemberRules.fromJson(json) }
        }

        /** A field of the wrong JSON type (an object where a string belongs), named where it is. */
        private fun wrongType(e: JsonMappingException, index: Int?): InvalidParameter {
            val field = e.path.lastOrNull { it.fieldName != null }?.fieldName ?: return badBody()
            return InvalidParameter(if (index == null) field else "members[$index].$field", null, "a JSON string")
        }

        private fun overBatch(reached: String) = InvalidParameter("members", "(reached $reached)", BATCH_ACCEPTED)

        private fun badBody() = InvalidParameter("body", null, BODY_ACCEPTED)
    }
}
