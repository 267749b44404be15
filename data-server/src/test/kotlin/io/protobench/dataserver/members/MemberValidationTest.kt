package io.protobench.dataserver.members

import io.grpc.Status
import io.grpc.StatusRuntimeException
import io.protobench.contract.members.MemberRules
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.MEMBERS
import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.PROTOBUF
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.postMember
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.Arguments
import org.junit.jupiter.params.provider.MethodSource
import org.junit.jupiter.params.provider.ValueSource
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.Base64

/** A bad member is the client's fault on every path: 400 / INVALID_ARGUMENT naming the field and what is accepted, and no row. */
@DataServerTest
class MemberValidationTest : MemberServerTest() {
    private var rowsBefore = 0L

    @BeforeEach
    fun countRows() {
        rowsBefore = repository.count()
    }

    @AfterEach
    fun noRowWasAdded() {
        assertThat(repository.count()).describedAs("rows after a refused creation").isEqualTo(rowsBefore)
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badMembers")
    fun `a bad field is refused over HTTP JSON, HTTP protobuf and gRPC, naming it`(field: String, case: String, member: TestMember) {
        for ((body, type) in listOf(member.json() to MediaType.APPLICATION_JSON, member.proto() to PROTOBUF)) {
            expectRefusal(web.postMember(body, type), field)
        }
        val error = catchThrowableOfType(StatusRuntimeException::class.java) { grpc.members.createMember(member.proto()) }
        assertThat(error.status.code).isEqualTo(Status.Code.INVALID_ARGUMENT)
        assertThat(error.status.description).startsWith("invalid $field ").contains("accepted")
    }

    @ParameterizedTest
    @ValueSource(strings = ["email", "password", "name", "profileImage", "etcInfo"])
    fun `a field missing from the JSON body is named`(field: String) {
        val body = TestMember().json().let {
            mapOf(
                "email" to it.email,
                "password" to it.password,
                "name" to it.name,
                "profileImage" to it.profileImage,
                "etcInfo" to it.etcInfo,
            )
        }
        expectRefusal(web.postMember(body - field, MediaType.APPLICATION_JSON), field)
            .jsonPath("$.value").isEmpty()
    }

    @Test
    fun `an image that is not base64 is refused naming profileImage and the base64 rule`() {
        expectRefusal(web.postMember(TestMember().json().copy(profileImage = "not base64!"), MediaType.APPLICATION_JSON), "profileImage")
            .jsonPath("$.accepted").isEqualTo(MemberRules.BASE64_IMAGE_ACCEPTED)
    }

    @Test
    fun `a refused password is not echoed back`() {
        expectRefusal(web.postMember(TestMember(password = "hunter2").json(), MediaType.APPLICATION_JSON), "password")
            .jsonPath("$.error").value<String> { assertThat(it).doesNotContain("hunter2") }
            .jsonPath("$.value").isEqualTo("(7 characters, not shown)")
    }

    @Test
    fun `a JSON field of the wrong type is named`() {
        val body = mapOf("email" to mapOf("not" to "text"))
        expectRefusal(web.postMember(body, MediaType.APPLICATION_JSON), "email").jsonPath("$.accepted").isEqualTo("a JSON string")
    }

    @Test
    fun `a body that is not JSON, not protobuf or missing is refused naming the body`() {
        val cases = listOf("{\"email\": " to MediaType.APPLICATION_JSON, "\u00ff\u00ff\u00ff" to PROTOBUF)
        for ((text, type) in cases) {
            expectRefusal(web.postMember(text.toByteArray(Charsets.ISO_8859_1), type), "body")
        }
        expectRefusal(web.post().uri(MEMBERS).contentType(MediaType.APPLICATION_JSON).exchange(), "body")
            .jsonPath("$.accepted").value<String> { assertThat(it).startsWith("a JSON object with the string fields email") }
    }

    @Test
    fun `a body over the 4 MB codec limit answers 413 naming the body and the limit`() {
        val image = Base64.getEncoder().encodeToString(ByteArray(4 * 1024 * 1024))
        web.postMember(TestMember().json().copy(profileImage = image), MediaType.APPLICATION_JSON)
            .expectStatus().isEqualTo(413)
            .expectBody()
            .jsonPath("$.parameter").isEqualTo("body")
            .jsonPath("$.accepted").value<String> { assertThat(it).endsWith("at most 4194304 bytes") }
    }

    private fun expectRefusal(response: WebTestClient.ResponseSpec, field: String): WebTestClient.BodyContentSpec =
        response.expectStatus().isBadRequest
            .expectHeader().contentType(MediaType.APPLICATION_JSON)
            .expectBody()
            .jsonPath("$.parameter").isEqualTo(field)
            .jsonPath("$.error").value<String> { assertThat(it).startsWith("invalid $field ").contains("accepted") }
            .jsonPath("$.accepted").value<String> { assertThat(it).isNotBlank() }

    private fun badMembers() = listOf(
        bad("email", "blank", TestMember(email = "")),
        bad("email", "no @", TestMember(email = "bigload.http.com")),
        bad("email", "no dot in the domain", TestMember(email = "bigload@localhost")),
        bad("email", "a space", TestMember(email = "big load@http.com")),
        bad("email", "over 254 characters", TestMember(email = "a@" + "b".repeat(250) + ".com")),
        bad("password", "blank", TestMember(password = "")),
        bad("password", "under 8 characters", TestMember(password = "test12!")),
        bad("password", "over 128 characters", TestMember(password = "p".repeat(129))),
        bad("name", "blank", TestMember(name = "   ")),
        bad("name", "over 100 characters", TestMember(name = "n".repeat(101))),
        bad("profileImage", "empty", TestMember(image = ByteArray(0))),
        bad("profileImage", "over 2 MiB", TestMember(image = ByteArray(MemberRules.MAX_IMAGE_BYTES + 1))),
        bad("etcInfo", "blank", TestMember(etcInfo = " ")),
        bad("etcInfo", "over 10000 characters", TestMember(etcInfo = "e".repeat(10_001))),
    )

    private fun bad(field: String, case: String, member: TestMember) = Arguments.of(field, case, member)
}
