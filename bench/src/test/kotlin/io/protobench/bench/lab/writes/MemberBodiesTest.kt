package io.protobench.bench.lab.writes

import io.protobench.bench.scenario.Target
import io.protobench.contract.Json
import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.members.MemberRules
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.CreateMemberRequest
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.Base64

class MemberBodiesTest {
    @TempDir
    lateinit var dir: Path

    private val json = Json.newMapper()

    /** [body] with every email's placeholder parts filled as k6 fills them. */
    private fun filled(body: MemberBodies.Body, tag: String, vu: Int, iteration: Long): ByteArray {
        val bytes = Files.readAllBytes(body.path)
        fun write(at: Int, text: String) = text.forEachIndexed { i, c -> bytes[at + i] = c.code.toByte() }
        for (at in body.emailOffsets) {
            write(at + EmailLayout.TAG_AT, tag)
            write(at + EmailLayout.VU_AT, vu.toString().padStart(EmailLayout.VU_DIGITS, '0'))
            write(at + EmailLayout.ITERATION_AT, iteration.toString().padStart(EmailLayout.ITERATION_DIGITS, '0'))
        }
        return bytes
    }

    @Test
    fun `a batch body holds seed 003's members with the image bytes, and filled emails the write path accepts`() {
        val body = MemberBodies(dir).of(Target.Members("1kb", 3))
        val members = json.readTree(filled(body, "abc12345", 17, 4_321))
        assertThat(members.size()).isEqualTo(3)
        assertThat(members.map { it.path("email").asText() })
            .containsExactly(
                "mabc12345.000017.0000004321.0000@protobench.test",
                "mabc12345.000017.0000004321.0001@protobench.test",
                "mabc12345.000017.0000004321.0002@protobench.test",
            )
        assertThat(Base64.getDecoder().decode(members[0].path("profileImage").asText()))
            .isEqualTo(PayloadGenerator.payloadFor(PayloadSize.parse("1kb")))
        assertThat(members[2].path("etcInfo").asText()).isEqualTo(MemberBodies.SEED_003_ETC_INFO)
        members.forEach { member ->
            MemberRules.fromJson(json.treeToValue(member, CreateMemberJson::class.java))
        }
    }

    @Test
    fun `a protobuf body is seed 003's member as CreateMemberRequest, its email filled in place as in JSON`() {
        val body = MemberBodies(dir).of(Target.Members("1kb", 1), MemberBodies.Form.PROTOBUF)
        assertThat(body.path.fileName.toString()).endsWith(".pb")
        val member = CreateMemberRequest.parseFrom(filled(body, "abc12345", 3, 99))
        assertThat(member.email).isEqualTo("mabc12345.000003.0000000099.0000@protobench.test")
        assertThat(member.profileImage.toByteArray()).isEqualTo(PayloadGenerator.payloadFor(PayloadSize.parse("1kb")))
        assertThat(member.etcInfo).isEqualTo(MemberBodies.SEED_003_ETC_INFO)
        MemberRules.fromProto(member)
        // The same member as the JSON body: k6 builds the gRPC messages from that one.
        val fromJson = json.readValue(
            filled(MemberBodies(dir).of(Target.Members("1kb", 1)), "abc12345", 3, 99),
            CreateMemberJson::class.java,
        )
        assertThat(MemberRules.fromJson(fromJson)).usingRecursiveComparison().isEqualTo(MemberRules.fromProto(member))
    }

    @Test
    fun `one member is an object, and each image and batch is written once`() {
        val bodies = MemberBodies(dir)
        val one = bodies.of(Target.Members("100kb", 1))
        assertThat(json.readTree(Files.readAllBytes(one.path)).isObject).isTrue()
        assertThat(bodies.of(Target.Members("100kb", 1))).isSameAs(one)
        assertThat(bodies.of(Target.Members("100kb", 2)).path).isNotEqualTo(one.path)
    }
}
