package io.protobench.dataserver.support

import com.google.protobuf.ByteString
import io.protobench.contract.Json
import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.members.MemberCounts
import io.protobench.contract.proto.CreateMemberRequest
import io.protobench.dataserver.members.MemberEntity
import org.assertj.core.api.Assertions.assertThat
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.Base64
import java.util.UUID

/** One member as a test sends it: the same fields as a JSON body and as a protobuf request. */
data class TestMember(
    val email: String = uniqueEmail(),
    val password: String = "test123!",
    val name: String = "LargeDataTester",
    val image: ByteArray = ByteArray(3_000) { (it * 31).toByte() },
    val etcInfo: String = "A long sentence of free text, as seed 003 sends.",
) {
    fun json() = CreateMemberJson(email, password, name, Base64.getEncoder().encodeToString(image), etcInfo)

    fun proto(): CreateMemberRequest = CreateMemberRequest.newBuilder()
        .setEmail(email).setPassword(password).setName(name).setProfileImage(ByteString.copyFrom(image)).setEtcInfo(etcInfo)
        .build()

    /** Asserts [row] holds exactly this member. */
    fun assertStoredAs(row: MemberEntity?) {
        assertThat(row).describedAs("row of %s", email).isNotNull
        assertThat(listOf(row!!.email, row.password, row.name, row.etcInfo)).containsExactly(email, password, name, etcInfo)
        assertThat(row.profileImage).isEqualTo(image)
    }

    companion object {
        fun uniqueEmail() = "member-${UUID.randomUUID()}@example.com"
    }
}

const val MEMBERS = "/api/members"
val PROTOBUF: MediaType = MediaType.parseMediaType("application/x-protobuf")

/** POST [body] to /api/members as [contentType], accepting [accept] (none when null). */
fun WebTestClient.postMember(body: Any, contentType: MediaType, accept: MediaType? = null): WebTestClient.ResponseSpec =
    post().uri(MEMBERS).contentType(contentType)
        .headers { if (accept != null) it.accept = listOf(accept) }
        .bodyValue(if (body is CreateMemberRequest) body.toByteArray() else body)
        .exchange()

/** What GET /internal/members answers now (it also ends the server's database-time interval). */
fun WebTestClient.memberCounts(): MemberCounts =
    Json.newMapper().readValue(bodyOf("/internal/members", MediaType.APPLICATION_JSON_VALUE), MemberCounts::class.java)
