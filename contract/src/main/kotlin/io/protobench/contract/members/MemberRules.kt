package io.protobench.contract.members

import com.google.protobuf.ByteString
import io.protobench.contract.InvalidParameter
import io.protobench.contract.proto.CreateMemberRequest
import java.util.Base64

/**
 * A member that passed [MemberRules]: what the data-server stores. The password is kept as
 * sent: the rows are synthetic benchmark data, and a real password hash (bcrypt: tens of
 * milliseconds of CPU) would swamp the protocol difference this path measures.
 */
class NewMember(val email: String, val password: String, val name: String, val profileImage: ByteArray, val etcInfo: String)

/**
 * What a member creation accepts, field by field, for both servers and every protocol:
 * a bad field is an [InvalidParameter] naming it, the value (never a password) and what is
 * accepted. Fields are checked in request order; the first bad one is reported. Every
 * check is linear in the input and bounds the length before looking further (a
 * backtracking email regex could be made to burn CPU). The limits match the columns of
 * the data-server's schema (db/migration).
 */
object MemberRules {
    /** Longest email, characters (the SMTP path limit, RFC 5321). */
    const val MAX_EMAIL_CHARS = 254

    /** Longest part before the '@', characters (RFC 5321). */
    const val MAX_EMAIL_LOCAL_CHARS = 64

    const val MIN_PASSWORD_CHARS = 8
    const val MAX_PASSWORD_CHARS = 128
    const val MAX_NAME_CHARS = 100

    /** Longest etcInfo, characters: "one sentence" with room to spare. */
    const val MAX_ETC_INFO_CHARS = 10_000

    /**
     * Largest profile image, bytes (2 MiB). Seed 003 suggests images "of 1 MB or more" to
     * load the path; 2 MiB leaves room for that while a JSON body (base64, 4/3 larger) stays
     * under 3 MB, within the data-server's body limit and gRPC's message limit.
     */
    const val MAX_IMAGE_BYTES = 2 * 1024 * 1024

    /** Most members in one CreateMembers stream: the batch is held in memory until it is written. */
    const val MAX_BATCH_MEMBERS = 1_000

    /** Most image bytes in one CreateMembers stream (32 MiB), for the same reason. */
    const val MAX_BATCH_IMAGE_BYTES = 32 * 1024 * 1024

    const val EMAIL_ACCEPTED = "an address like name@example.com (no spaces, one @, at most $MAX_EMAIL_LOCAL_CHARS " +
        "characters before it, a domain with a dot after it), at most $MAX_EMAIL_CHARS characters"
    const val PASSWORD_ACCEPTED = "$MIN_PASSWORD_CHARS to $MAX_PASSWORD_CHARS characters, not blank"
    const val NAME_ACCEPTED = "1 to $MAX_NAME_CHARS characters, not blank"
    const val ETC_INFO_ACCEPTED = "1 to $MAX_ETC_INFO_CHARS characters, not blank"
    const val IMAGE_ACCEPTED = "1 to $MAX_IMAGE_BYTES bytes (2 MiB)"
    const val BASE64_IMAGE_ACCEPTED = "base64 text (RFC 4648 standard alphabet, no line breaks) of $IMAGE_ACCEPTED"

    /** Base64 text of the largest image, characters: longer text is refused before it is decoded. */
    private const val MAX_BASE64_CHARS = (MAX_IMAGE_BYTES + 2) / 3 * 4

    /** The member of an HTTP/JSON body; the image is decoded from its base64 text. */
    fun fromJson(body: CreateMemberJson): NewMember =
        checked(body.email, body.password, body.name, { validBase64Image(body.profileImage) }, body.etcInfo)

    /** The member of a protobuf request (HTTP/Binary or gRPC); proto3 cannot tell a missing field from an empty one. */
    fun fromProto(request: CreateMemberRequest): NewMember =
        checked(request.email, request.password, request.name, { validImage(request.profileImage) }, request.etcInfo)

    /** Each field checked in request order; [image] gives the checked image bytes. */
    private inline fun checked(email: String?, password: String?, name: String?, image: () -> ByteArray, etcInfo: String?) = NewMember(
        email = validEmail(email),
        password = validPassword(password),
        name = validName(name),
        profileImage = image(),
        etcInfo = validEtcInfo(etcInfo),
    )

    /**
     * [check] of the member at [index] (0-based) of a stream: a bad field is named with its
     * position, `members[3].email`.
     */
    fun <T> inStream(index: Int, check: () -> T): T = try {
        check()
    } catch (e: InvalidParameter) {
        throw InvalidParameter("members[$index].${e.parameter}", e.value, e.accepted)
    }

    private fun validEmail(text: String?): String =
        text?.takeIf { it.length <= MAX_EMAIL_CHARS && isEmailAddress(it) } ?: throw InvalidParameter("email", text, EMAIL_ACCEPTED)

    private fun validPassword(text: String?): String =
        text?.takeIf { it.length in MIN_PASSWORD_CHARS..MAX_PASSWORD_CHARS && it.isNotBlank() }
            ?: throw InvalidParameter("password", text?.let { "(${it.length} characters, not shown)" }, PASSWORD_ACCEPTED)

    private fun validName(text: String?): String = notBlank("name", text, MAX_NAME_CHARS, NAME_ACCEPTED)

    private fun validEtcInfo(text: String?): String = notBlank("etcInfo", text, MAX_ETC_INFO_CHARS, ETC_INFO_ACCEPTED)

    private fun notBlank(field: String, text: String?, maxChars: Int, accepted: String): String =
        text?.takeIf { it.length <= maxChars && it.isNotBlank() } ?: throw InvalidParameter(field, text, accepted)

    private fun validBase64Image(text: String?): ByteArray {
        if (text == null || text.length > MAX_BASE64_CHARS) throw InvalidParameter("profileImage", text, BASE64_IMAGE_ACCEPTED)
        val bytes = try {
            Base64.getDecoder().decode(text)
        } catch (e: IllegalArgumentException) {
            throw InvalidParameter("profileImage", text, BASE64_IMAGE_ACCEPTED)
        }
        return bytes.takeIf { it.size in 1..MAX_IMAGE_BYTES } ?: throw InvalidParameter("profileImage", text, BASE64_IMAGE_ACCEPTED)
    }

    private fun validImage(bytes: ByteString): ByteArray {
        if (bytes.size() !in 1..MAX_IMAGE_BYTES) throw InvalidParameter("profileImage", "(${bytes.size()} bytes)", IMAGE_ACCEPTED)
        return bytes.toByteArray()
    }

    /** One '@' with something before it, a dotted domain after it, no whitespace anywhere. */
    private fun isEmailAddress(text: String): Boolean {
        val at = text.indexOf('@')
        if (at !in 1..MAX_EMAIL_LOCAL_CHARS || text.indexOf('@', at + 1) >= 0) return false
        val domain = text.substring(at + 1)
        return text.none { it.isWhitespace() } && '.' in domain && !domain.startsWith('.') && !domain.endsWith('.')
    }
}
