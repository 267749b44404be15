package io.protobench.apiserver.support

import com.fasterxml.jackson.databind.JsonNode
import com.google.protobuf.ByteString
import io.protobench.contract.proto.CreateMemberRequest
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.Base64
import java.util.UUID

/** One member as a load generator sends it to the gateway (seed 003's JSON object). */
data class TestMember(
    val email: String = "member-${UUID.randomUUID()}@example.com",
    val image: ByteArray = ByteArray(3_000) { (it * 31).toByte() },
) {
    fun json(): Map<String, String> = mapOf(
        "email" to email,
        "password" to "test123!",
        "name" to "LargeDataTester",
        "profileImage" to Base64.getEncoder().encodeToString(image),
        "etcInfo" to "A long sentence of free text, as seed 003 sends.",
    )

    /** The same member as HTTP/Binary and gRPC carry it to the data-server. */
    fun proto(): CreateMemberRequest = json().let {
        CreateMemberRequest.newBuilder().setEmail(email).setPassword(it["password"]).setName(it["name"])
            .setProfileImage(ByteString.copyFrom(image)).setEtcInfo(it["etcInfo"]).build()
    }
}

/** POSTs [body] (a member's JSON map, a list of them, or raw text) to `/api/members/<segment>`; the status and JSON body. */
fun WebTestClient.postMembers(segment: String, body: Any): Pair<Int, JsonNode> = postJson("/api/members/$segment", body)

/** The ids of a 200 answer. */
val JsonNode.ids: List<Long> get() = this["ids"].map { it.asLong() }
