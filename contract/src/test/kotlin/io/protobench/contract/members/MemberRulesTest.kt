package io.protobench.contract.members

import com.google.protobuf.ByteString
import io.protobench.contract.InvalidParameter
import io.protobench.contract.proto.CreateMemberRequest
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import java.util.Base64

class MemberRulesTest {
    private val image = byteArrayOf(1, 2, 3, 4, 5)
    private val json = CreateMemberJson("ada@example.com", "test123!", "Ada", Base64.getEncoder().encodeToString(image), "Writes programs.")
    private val proto = CreateMemberRequest.newBuilder()
        .setEmail("ada@example.com").setPassword("test123!").setName("Ada")
        .setProfileImage(ByteString.copyFrom(image)).setEtcInfo("Writes programs.").build()

    @Test
    fun `a JSON body and a protobuf request of the same member give the same member`() {
        for (member in listOf(MemberRules.fromJson(json), MemberRules.fromProto(proto))) {
            assertThat(listOf(member.email, member.password, member.name, member.etcInfo))
                .containsExactly("ada@example.com", "test123!", "Ada", "Writes programs.")
            assertThat(member.profileImage).isEqualTo(image)
        }
    }

    @ParameterizedTest
    @ValueSource(
        strings = ["", " ", "ada", "ada@", "@example.com", "ada@example", "ada@.com", "ada@example.", "a da@example.com", "a@b@c.com"],
    )
    fun `a malformed email is refused naming the field and what is accepted`(email: String) {
        val error = refusal { MemberRules.fromJson(json.copy(email = email)) }
        assertThat(error.parameter).isEqualTo("email")
        assertThat(error.accepted).isEqualTo(MemberRules.EMAIL_ACCEPTED)
    }

    @Test
    fun `emails at the length limits pass, one character over does not`() {
        val local = "a".repeat(MemberRules.MAX_EMAIL_LOCAL_CHARS)
        val longest = "$local@" + "b".repeat(MemberRules.MAX_EMAIL_CHARS - local.length - 5) + ".com"
        assertThat(MemberRules.fromJson(json.copy(email = longest)).email).hasSize(MemberRules.MAX_EMAIL_CHARS)
        assertThat(refusal { MemberRules.fromJson(json.copy(email = "b$longest")) }.parameter).isEqualTo("email")
        assertThat(refusal { MemberRules.fromJson(json.copy(email = "a$local@example.com")) }.parameter).isEqualTo("email")
    }

    @Test
    fun `a missing field is named in request order`() {
        assertThat(refusal { MemberRules.fromJson(CreateMemberJson()) }.parameter).isEqualTo("email")
        assertThat(refusal { MemberRules.fromJson(json.copy(password = null)) }.parameter).isEqualTo("password")
        assertThat(refusal { MemberRules.fromJson(json.copy(name = null)) }.parameter).isEqualTo("name")
        assertThat(refusal { MemberRules.fromJson(json.copy(profileImage = null)) }.parameter).isEqualTo("profileImage")
        assertThat(refusal { MemberRules.fromJson(json.copy(etcInfo = null)) }.parameter).isEqualTo("etcInfo")
        assertThat(refusal { MemberRules.fromProto(CreateMemberRequest.getDefaultInstance()) }.parameter).isEqualTo("email")
    }

    @Test
    fun `blank or over-long text fields are refused`() {
        assertThat(refusal { MemberRules.fromJson(json.copy(name = "  ")) }.parameter).isEqualTo("name")
        assertThat(refusal { MemberRules.fromJson(json.copy(name = "n".repeat(MemberRules.MAX_NAME_CHARS + 1))) }.parameter)
            .isEqualTo("name")
        assertThat(refusal { MemberRules.fromProto(proto.toBuilder().setEtcInfo("\t").build()) }.parameter).isEqualTo("etcInfo")
        assertThat(refusal { MemberRules.fromJson(json.copy(etcInfo = "e".repeat(MemberRules.MAX_ETC_INFO_CHARS + 1))) }.parameter)
            .isEqualTo("etcInfo")
    }

    @Test
    fun `a refused password is never echoed`() {
        val error = refusal { MemberRules.fromJson(json.copy(password = "secret7")) }
        assertThat(error.parameter).isEqualTo("password")
        assertThat(error.value).isEqualTo("(7 characters, not shown)")
        assertThat(error.message).doesNotContain("secret7").contains(MemberRules.PASSWORD_ACCEPTED)
        assertThat(refusal { MemberRules.fromJson(json.copy(password = " ".repeat(8))) }.value).isEqualTo("(8 characters, not shown)")
    }

    @Test
    fun `the image must be strict base64 of 1 byte to 2 MiB`() {
        for (text in listOf("", "not base64!", "AQID\nBAU=", "AQIDB")) {
            val error = refusal { MemberRules.fromJson(json.copy(profileImage = text)) }
            assertThat(error.parameter).describedAs(text).isEqualTo("profileImage")
            assertThat(error.accepted).isEqualTo(MemberRules.BASE64_IMAGE_ACCEPTED)
        }
        val largest = ByteArray(MemberRules.MAX_IMAGE_BYTES)
        assertThat(MemberRules.fromJson(json.copy(profileImage = Base64.getEncoder().encodeToString(largest))).profileImage)
            .hasSize(largest.size)
        val over = Base64.getEncoder().encodeToString(ByteArray(MemberRules.MAX_IMAGE_BYTES + 1))
        assertThat(refusal { MemberRules.fromJson(json.copy(profileImage = over)) }.value).endsWith("(${over.length} characters)")
    }

    @Test
    fun `a protobuf image is refused when empty or over 2 MiB, by its size`() {
        for (size in listOf(0, MemberRules.MAX_IMAGE_BYTES + 1)) {
            val error = refusal { MemberRules.fromProto(proto.toBuilder().setProfileImage(ByteString.copyFrom(ByteArray(size))).build()) }
            assertThat(error.parameter).isEqualTo("profileImage")
            assertThat(error.value).isEqualTo("($size bytes)")
            assertThat(error.accepted).isEqualTo(MemberRules.IMAGE_ACCEPTED)
        }
    }

    @Test
    fun `a stream names a bad member's field with its position`() {
        val batch = MemberBatch()
        batch.add(proto)
        val error = refusal { batch.add(proto.toBuilder().setEmail("nope").build()) }
        assertThat(error.parameter).isEqualTo("members[1].email")
        assertThat(error.message).startsWith("invalid members[1].email 'nope'")
        assertThat(batch.members).hasSize(1)
    }

    @Test
    fun `a stream holds at most 1000 members and 32 MiB of images`() {
        val counted = MemberBatch()
        repeat(MemberRules.MAX_BATCH_MEMBERS) { counted.add(proto) }
        assertThat(refusal { counted.add(proto) }.accepted).isEqualTo(MemberBatch.ACCEPTED)

        val heavy = MemberBatch()
        val biggest = proto.toBuilder().setProfileImage(ByteString.copyFrom(ByteArray(MemberRules.MAX_IMAGE_BYTES))).build()
        repeat(MemberRules.MAX_BATCH_IMAGE_BYTES / MemberRules.MAX_IMAGE_BYTES) { heavy.add(biggest) }
        assertThat(refusal { heavy.add(proto) }.parameter).isEqualTo("members")
    }

    private fun refusal(call: () -> Any): InvalidParameter {
        val error = catchThrowableOfType(InvalidParameter::class.java) { call() }
        assertThat(error).describedAs("refused").isNotNull
        return error
    }
}
