package io.protobench.bench.lab.writes

import com.google.protobuf.ByteString
import io.protobench.bench.scenario.Target
import io.protobench.contract.Json
import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.CreateMemberRequest
import java.nio.file.Files
import java.nio.file.Path
import java.util.Base64

/**
 * The bodies the load driver sends to create members, written once per image size, batch
 * and form into the run's folder, with every email a fixed-width placeholder that the
 * driver overwrites in its copy for each call ([EmailLayout]): seed 003's JSON (through
 * the gateway, and to the data-server's `POST /api/members`), or one serialized
 * `CreateMemberRequest` (`topology: direct`: HTTP/Binary's body, gRPC's message). The
 * email is a string field, so its bytes stand in the protobuf as they are and keep their
 * length: the driver writes into them the same way.
 *
 * Written once, a body costs the driver a copy of its bytes per request, not a member
 * built: building a 100 KB member per request costs a load generator milliseconds of CPU
 * (docs/journal/2026-11-24-write-path-load-and-table.md).
 */
class MemberBodies(private val dir: Path) {
    private val written = mutableMapOf<Pair<Target.Members, Form>, Body>()

    /** A body on disk and the byte offsets of its emails, one per member. */
    data class Body(val path: Path, val emailOffsets: List<Int>)

    /** How a body is encoded, and its file's extension. */
    enum class Form(val extension: String) { JSON("json"), PROTOBUF("pb") }

    /** The body of [target]: one member object, or an array of `batch` of them (JSON only). */
    @Synchronized
    fun of(target: Target.Members, form: Form = Form.JSON): Body = written.getOrPut(target to form) { write(target, form) }

    /**
     * The body seed 003's tools post ([SeedTool]): one member with one fixed email, as the
     * seed's hey and ghz sent it (neither can vary a body), valid both as the HTTP/JSON body
     * and as `CreateMemberRequest` in proto3 JSON (the image as base64 bytes).
     */
    @Synchronized
    fun fixed(target: Target.Members): Path {
        val path = dir.resolve("members-${target.image}-fixed.json")
        if (Files.exists(path)) return path.toAbsolutePath()
        val image = PayloadGenerator.payloadFor(PayloadSize.parse(target.image))
        Files.createDirectories(dir)
        Files.write(path, json.writeValueAsBytes(member(FIXED_EMAIL, Base64.getEncoder().encodeToString(image))))
        return path.toAbsolutePath()
    }

    private fun write(target: Target.Members, form: Form): Body {
        val image = PayloadGenerator.payloadFor(PayloadSize.parse(target.image))
        val bytes = when (form) {
            Form.JSON -> {
                val members = List(target.batch) { index ->
                    member(EmailLayout.placeholder(index), Base64.getEncoder().encodeToString(image))
                }
                json.writeValueAsBytes(if (target.batch == 1) members.single() else members)
            }

            Form.PROTOBUF -> {
                require(target.batch == 1) { "a protobuf body holds one member, not ${target.batch}" }
                protobufMember(EmailLayout.placeholder(0), image).toByteArray()
            }
        }
        val offsets = EmailLayout.offsetsIn(bytes)
        check(offsets.size == target.batch) { "expected ${target.batch} email placeholders, found ${offsets.size}" }
        Files.createDirectories(dir)
        val path = dir.resolve("members-${target.image}-x${target.batch}.${form.extension}")
        Files.write(path, bytes)
        return Body(path.toAbsolutePath(), offsets)
    }

    companion object {
        private val json = Json.newMapper()

        /** Seed 003's member with [email] and the base64 [image]: its password, name and free text, exactly. */
        fun member(email: String, image: String) = CreateMemberJson(
            email = email,
            password = SEED_003_PASSWORD,
            name = SEED_003_NAME,
            profileImage = image,
            etcInfo = SEED_003_ETC_INFO,
        )

        /** The same member as the protobuf message, the [image] as bytes. */
        fun protobufMember(email: String, image: ByteArray): CreateMemberRequest = CreateMemberRequest.newBuilder()
            .setEmail(email).setPassword(SEED_003_PASSWORD).setName(SEED_003_NAME)
            .setProfileImage(ByteString.copyFrom(image)).setEtcInfo(SEED_003_ETC_INFO).build()

        /** The one email of every member the seed tools create (the data-server then runs without a unique index on email). */
        const val FIXED_EMAIL = "seed003-tools@protobench.test"
        const val SEED_003_PASSWORD = "test123!"
        const val SEED_003_NAME = "LargeDataTester"

        /** Seed 003's own `etcInfo` example: Korean text with embedded JSON, 104 characters (182 bytes of UTF-8). */
        const val SEED_003_ETC_INFO =
            "이곳에는 정말 길고 긴 텍스트나 JSON, 혹은 대규모 문자열을 넣어서 직렬화 부담을 높일 수 있습니다. " +
                "예: {\"key\":\"value\",\"nested\":{\"key2\":\"value2\"}}"
    }
}

/**
 * Member emails of fixed width, `m<tag>.<vu>.<iteration>.<index>@protobench.test`: the
 * load driver writes into its copy of the body, digit by digit, its process's tag, its
 * instance (in the `vu` place) and the call's number (in the `iteration` place). The index
 * is the member's place in its batch, fixed in the file. The local part is 32 characters
 * (64 allowed).
 */
object EmailLayout {
    const val TAG_DIGITS = 8
    const val VU_DIGITS = 6
    const val ITERATION_DIGITS = 10
    const val INDEX_DIGITS = 4
    const val DOMAIN = "@protobench.test"

    /** Where each part starts, counted from the email's first character ('m'). */
    const val TAG_AT = 1
    const val VU_AT = TAG_AT + TAG_DIGITS + 1
    const val ITERATION_AT = VU_AT + VU_DIGITS + 1

    private val START = "m" + "T".repeat(TAG_DIGITS) + "."

    fun placeholder(index: Int): String =
        START + "V".repeat(VU_DIGITS) + "." + "I".repeat(ITERATION_DIGITS) + "." + index.toString().padStart(INDEX_DIGITS, '0') + DOMAIN

    /** Offsets of every placeholder's first character in [bytes] (none of the other fields can hold a '.' after base64). */
    fun offsetsIn(bytes: ByteArray): List<Int> {
        val start = START.toByteArray(Charsets.US_ASCII)
        return (0..bytes.size - start.size).filter { at -> start.indices.all { bytes[at + it] == start[it] } }
    }
}
