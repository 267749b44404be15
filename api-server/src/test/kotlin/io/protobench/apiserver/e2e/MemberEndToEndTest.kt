package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.TestMember
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.ids
import io.protobench.apiserver.support.postJson
import io.protobench.apiserver.support.postMembers
import io.protobench.contract.Json
import io.protobench.contract.Protocol
import io.protobench.contract.members.MemberCounts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** `POST /api/members/<protocol>` against the real data-server and its database. */
@GatewayTest
class MemberEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        private val dataServer get() = TestDataServer.shared

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = dataServer.register(registry)
    }

    @Test
    fun `each protocol creates a single member and a batch of 3, stored under the ids it answers`() {
        for (protocol in Protocol.entries) {
            val single = TestMember()
            val batch = List(3) { TestMember() }
            val before = dataServer.memberCounts()

            val (singleStatus, singleReply) = web.postMembers(protocol.pathSegment, single.json())
            val (batchStatus, batchReply) = web.postMembers(protocol.pathSegment, batch.map { it.json() })

            assertThat(singleStatus).`as`(protocol.label).isEqualTo(200)
            assertThat(batchStatus).`as`(protocol.label).isEqualTo(200)
            assertThat(singleReply.fieldNames().asSequence().toList())
                .containsExactly("requestId", "protocol", "ids", "created", "latencyMs")
            assertThat(singleReply["protocol"].asText()).isEqualTo(protocol.label)
            assertThat(singleReply["created"].asInt()).isEqualTo(1)
            assertThat(batchReply["created"].asInt()).isEqualTo(3)
            assertThat(batchReply["latencyMs"].asDouble()).isPositive()
            assertThat(dataServer.emailsOf(singleReply.ids + batchReply.ids)).`as`(protocol.label)
                .containsExactlyElementsOf((listOf(single) + batch).map { it.email })
            assertGrewBy(4, before)
        }
    }

    @Test
    fun `the null hop validates and answers without creating anything`() {
        val before = dataServer.memberCounts()

        val (status, reply) = web.postMembers("none", List(3) { TestMember().json() })
        val (badStatus, bad) = web.postMembers("none", TestMember(email = "nobody").json())

        assertThat(status).isEqualTo(200)
        assertThat(reply["protocol"].asText()).isEqualTo("Null hop")
        assertThat(reply["created"].asInt()).isZero()
        assertThat(reply.ids).isEmpty()
        assertThat(badStatus).isEqualTo(400)
        assertThat(bad["parameter"].asText()).isEqualTo("email")
        assertGrewBy(0, before)
    }

    @Test
    fun `a bad email is a 400 naming the field, and nothing reaches the data-server`() {
        for (segment in Protocol.entries.map { it.pathSegment } + "none") {
            val before = dataServer.memberCounts()
            val batch = listOf(TestMember(), TestMember(), TestMember(email = "no-at-sign.example.com"))

            val (singleStatus, single) = web.postMembers(segment, TestMember(email = "two@@example.com").json())
            val (batchStatus, inBatch) = web.postMembers(segment, batch.map { it.json() })

            assertThat(singleStatus).`as`(segment).isEqualTo(400)
            assertThat(single["parameter"].asText()).isEqualTo("email")
            assertThat(single["value"].asText()).isEqualTo("two@@example.com")
            assertThat(batchStatus).`as`(segment).isEqualTo(400)
            assertThat(inBatch["parameter"].asText()).isEqualTo("members[2].email")
            assertGrewBy(0, before)
        }
    }

    @Test
    fun `bodies that are no member or batch are 400s naming what is wrong`() {
        val expected = mapOf(
            "not json" to "body",
            "[]" to "members",
            "42" to "body",
            """{"email": {"nested": 1}}""" to "email",
            """[${TestMember().jsonText()}, "text"]""" to "members[1]",
            """[${TestMember().jsonText()}, {"email": ["a"]}]""" to "members[1].email",
            """${TestMember().jsonText()} {}""" to "body",
        )
        for ((body, parameter) in expected) {
            val (status, answer) = web.postMembers("grpc", body)
            assertThat(status).`as`(body).isEqualTo(400)
            assertThat(answer["parameter"].asText()).`as`(body).isEqualTo(parameter)
        }
        val (tooMany, answer) = web.postMembers("grpc", List(1_001) { TestMember(image = ByteArray(1)).json() })
        assertThat(tooMany).isEqualTo(400)
        assertThat(answer["parameter"].asText()).isEqualTo("members")
    }

    @Test
    fun `a taken email is a 409 from each protocol, naming it, and creates nothing`() {
        val taken = TestMember()
        assertThat(web.postMembers("http/json", taken.json()).first).isEqualTo(200)
        for (protocol in Protocol.entries) {
            val before = dataServer.memberCounts()

            val (status, answer) = web.postMembers(protocol.pathSegment, TestMember(email = taken.email).json())

            assertThat(status).`as`(protocol.label).isEqualTo(409)
            assertThat(answer["error"].asText()).isEqualTo("duplicate email")
            assertThat(answer["protocol"].asText()).isEqualTo(protocol.label)
            assertThat(answer["parameter"].asText()).isEqualTo("email")
            assertThat(answer["value"].asText()).isEqualTo(taken.email)
            assertThat(answer["createdBeforeFailure"].asInt()).isZero()
            assertGrewBy(0, before)
        }
    }

    @Test
    fun `a batch failing at member 2 keeps member 1 when each member is its own call, and nothing as one stream`() {
        val taken = TestMember()
        assertThat(web.postMembers("http/json", taken.json()).first).isEqualTo(200)
        for (protocol in Protocol.entries) {
            val expectedCreated = if (protocol == Protocol.GRPC_STREAM) 0 else 1
            val batch = listOf(TestMember(), TestMember(email = taken.email), TestMember())
            val before = dataServer.memberCounts()

            val (status, answer) = web.postMembers(protocol.pathSegment, batch.map { it.json() })

            assertThat(status).`as`(protocol.label).isEqualTo(409)
            assertThat(answer["createdBeforeFailure"].asInt()).`as`(protocol.label).isEqualTo(expectedCreated)
            assertGrewBy(expectedCreated, before)
            val stored = dataServer.storedEmails()
            assertThat(batch[0].email in stored).`as`("member 1 stored").isEqualTo(expectedCreated == 1)
            assertThat(batch[2].email in stored).`as`("member 3 stored").isFalse()
            if (expectedCreated == 1) {
                assertThat(answer["parameter"].asText()).isEqualTo("members[1].email")
                assertThat(answer["value"].asText()).isEqualTo(taken.email)
            }
        }
    }

    @Test
    fun `the window counts member successes, failures by kind and the bytes sent`() {
        val taken = TestMember()
        assertThat(web.postMembers("http/binary", taken.json()).first).isEqualTo(200)
        val batch = List(3) { TestMember() }
        val single = TestMember(image = ByteArray(5_000) { it.toByte() })
        web.postJson("/benchmark/start?protocol=gRPC/Unary&testName=members&replace=true")

        assertThat(web.postMembers("grpc", batch.map { it.json() }).first).isEqualTo(200)
        assertThat(web.postMembers("http/binary", single.json()).first).isEqualTo(200)
        assertThat(web.postMembers("grpc", TestMember(email = "bad").json()).first).isEqualTo(400)
        assertThat(web.postMembers("grpc/stream", TestMember(email = taken.email).json()).first).isEqualTo(409)
        val (status, report) = web.postJson("/benchmark/end")

        assertThat(status).isEqualTo(200)
        assertThat(report["successRequests"].asLong()).isEqualTo(2)
        assertThat(report["failedRequests"].asLong()).isEqualTo(2)
        assertThat(report["failuresByKind"]["invalid request"].asLong()).isEqualTo(1)
        assertThat(report["failuresByKind"]["duplicate email"].asLong()).isEqualTo(1)
        assertThat(report["dataTransfer"]["totalBytes"].asLong()).`as`("the request bytes sent by the two successes")
            .isEqualTo((batch + single).sumOf { it.proto().serializedSize.toLong() })
        assertThat(report["latency"]["maxMs"].asDouble()).isPositive()
    }

    @Test
    fun `other methods on the member paths are 405`() {
        for (path in listOf("/api/members/grpc", "/api/members/none")) {
            val (status, body) = web.getJson(path)
            assertThat(status).`as`(path).isEqualTo(405)
            assertThat(body["error"].asText()).isEqualTo("method not allowed")
        }
    }

    private fun TestMember.jsonText() = Json.newMapper().writeValueAsString(json())

    /** The data-server's rows and its count of created members both grew by [count] since [before]. */
    private fun assertGrewBy(count: Int, before: MemberCounts) {
        val after = dataServer.memberCounts()
        assertThat(after.rows - before.rows).`as`("new rows").isEqualTo(count.toLong())
        assertThat(after.created - before.created).`as`("members created").isEqualTo(count.toLong())
    }
}
