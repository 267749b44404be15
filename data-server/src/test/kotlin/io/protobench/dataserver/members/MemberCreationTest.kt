package io.protobench.dataserver.members

import io.grpc.Status
import io.grpc.StatusException
import io.grpc.StatusRuntimeException
import io.protobench.contract.members.MemberCreated
import io.protobench.contract.proto.CreateMemberResponse
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.PROTOBUF
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.memberCounts
import io.protobench.dataserver.support.postMember
import kotlinx.coroutines.flow.asFlow
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/** Members created over the four paths land in the database, once, with what was sent. */
@DataServerTest
class MemberCreationTest : MemberServerTest() {
    @Test
    fun `HTTP JSON creates the member and answers 201 with its id in JSON`() {
        val member = TestMember()
        val created = web.postMember(member.json(), MediaType.APPLICATION_JSON)
            .expectStatus().isCreated
            .expectHeader().contentType(MediaType.APPLICATION_JSON)
            .expectBody(MemberCreated::class.java).returnResult().responseBody!!
        member.assertStoredAs(repository.findById(created.id).orElse(null))
    }

    @Test
    fun `HTTP protobuf creates the member and answers 201 with a CreateMemberResponse`() {
        val member = TestMember()
        val id = protobufAnswer(web.postMember(member.proto(), PROTOBUF)).id
        member.assertStoredAs(repository.findById(id).orElse(null))
    }

    @Test
    fun `gRPC CreateMember creates the member and answers its id`() {
        val member = TestMember()
        val id = grpc.members.createMember(member.proto()).id
        member.assertStoredAs(repository.findById(id).orElse(null))
    }

    @Test
    fun `a gRPC stream of N members creates N rows and answers their ids in order`() {
        val members = List(5) { TestMember(name = "member $it") }
        val answer = runBlocking { grpc.memberStreams.createMembers(members.map { it.proto() }.asFlow()) }
        assertThat(answer.count).isEqualTo(5)
        assertThat(answer.idsList).hasSize(5).doesNotHaveDuplicates()
        members.zip(answer.idsList).forEach { (member, id) -> member.assertStoredAs(repository.findById(id).orElse(null)) }
    }

    @Test
    fun `an empty gRPC stream creates nothing and answers a count of 0`() {
        val answer = runBlocking { grpc.memberStreams.createMembers(emptyList<TestMember>().map { it.proto() }.asFlow()) }
        assertThat(answer.count).isZero()
        assertThat(answer.idsList).isEmpty()
    }

    @Test
    fun `the same member as JSON and as protobuf is stored alike`() {
        val viaJson = TestMember()
        val viaProtobuf = viaJson.copy(email = TestMember.uniqueEmail())
        val jsonId = web.postMember(viaJson.json(), MediaType.APPLICATION_JSON).expectStatus().isCreated
            .expectBody(MemberCreated::class.java).returnResult().responseBody!!.id
        val protobufId = protobufAnswer(web.postMember(viaProtobuf.proto(), PROTOBUF)).id
        val (fromJson, fromProtobuf) = listOf(jsonId, protobufId).map { repository.findById(it).orElseThrow() }
        assertThat(fromProtobuf).usingRecursiveComparison().ignoringFields("id", "email").isEqualTo(fromJson)
    }

    @Test
    fun `seed 003's profileImageBase64 field name is read as profileImage`() {
        val member = TestMember()
        val seedBody = mapOf(
            "email" to member.email,
            "password" to member.password,
            "name" to member.name,
            "profileImageBase64" to member.json().profileImage,
            "etcInfo" to member.etcInfo,
        )
        val id = web.postMember(seedBody, MediaType.APPLICATION_JSON).expectStatus().isCreated
            .expectBody(MemberCreated::class.java).returnResult().responseBody!!.id
        member.assertStoredAs(repository.findById(id).orElse(null))
    }

    @ParameterizedTest
    @CsvSource(
        "application/json,       ,                       application/json",
        "application/json,       application/x-protobuf, application/x-protobuf",
        "application/x-protobuf, ,                       application/x-protobuf",
        "application/x-protobuf, application/json,       application/json",
        "application/x-protobuf, */*,                    application/x-protobuf",
    )
    fun `the answer follows Accept, and the request's own form when Accept admits both`(sent: String, accept: String?, answered: String) {
        val member = TestMember()
        val body: Any = if (sent == "application/json") member.json() else member.proto()
        web.postMember(body, MediaType.parseMediaType(sent), accept?.let(MediaType::parseMediaType))
            .expectStatus().isCreated
            .expectHeader().contentType(answered)
    }

    @Test
    fun `a taken email answers 409 over HTTP and ALREADY_EXISTS over gRPC, and adds no row`() {
        val member = TestMember()
        web.postMember(member.json(), MediaType.APPLICATION_JSON).expectStatus().isCreated
        val rows = repository.count()

        for ((body, type) in listOf(member.json() to MediaType.APPLICATION_JSON, member.proto() to PROTOBUF)) {
            web.postMember(body, type)
                .expectStatus().isEqualTo(409)
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.parameter").isEqualTo("email")
                .jsonPath("$.value").isEqualTo(member.email)
                .jsonPath("$.error").value<String> { assertThat(it).contains("already exists") }
        }
        val unary = catchThrowableOfType(StatusRuntimeException::class.java) { grpc.members.createMember(member.proto()) }
        assertThat(unary.status.code).isEqualTo(Status.Code.ALREADY_EXISTS)
        assertThat(unary.status.description).contains(member.email)
        assertThat(repository.count()).isEqualTo(rows)
    }

    @Test
    fun `a stream with a taken or repeated email fails ALREADY_EXISTS and creates none of its members`() {
        val taken = TestMember()
        grpc.members.createMember(taken.proto())
        val rows = repository.count()
        val fresh = TestMember()
        for (stream in listOf(listOf(TestMember(), taken, TestMember()), listOf(fresh, TestMember(), fresh))) {
            val error = streamFailure(stream)
            assertThat(error.status.code).isEqualTo(Status.Code.ALREADY_EXISTS)
        }
        assertThat(repository.count()).isEqualTo(rows)
    }

    @Test
    fun `a stream with one invalid member fails INVALID_ARGUMENT naming it and creates none`() {
        val rows = repository.count()
        val error = streamFailure(listOf(TestMember(), TestMember(), TestMember(name = " "), TestMember()))
        assertThat(error.status.code).isEqualTo(Status.Code.INVALID_ARGUMENT)
        assertThat(error.status.description).startsWith("invalid members[2].name ' '")
        assertThat(repository.count()).isEqualTo(rows)
    }

    @Test
    fun `8 threads creating 50 members each leave as many rows as creations`() {
        val before = web.memberCounts()
        val pool = Executors.newFixedThreadPool(8)
        try {
            val paths = listOf<(TestMember) -> Long>(
                { m ->
                    web.postMember(m.json(), MediaType.APPLICATION_JSON).expectStatus().isCreated
                        .expectBody(MemberCreated::class.java).returnResult().responseBody!!.id
                },
                { m -> protobufAnswer(web.postMember(m.proto(), PROTOBUF)).id },
                { m -> grpc.members.createMember(m.proto()).id },
            )
            val ids = (0 until 8).map { thread ->
                pool.submit(Callable { List(50) { paths[(thread + it) % paths.size](TestMember()) } })
            }.flatMap { it.get(120, TimeUnit.SECONDS) }
            assertThat(ids).hasSize(400).doesNotHaveDuplicates()
        } finally {
            pool.shutdownNow()
        }
        val after = web.memberCounts()
        assertThat(after.created - before.created).isEqualTo(400)
        assertThat(after.rows).isEqualTo(after.created)
        assertThat(after.dbTime.count).isEqualTo(400)
    }

    @Test
    fun `the members endpoint counts rows and creations and gives the database time since its last call`() {
        web.memberCounts()
        grpc.members.createMember(TestMember().proto())
        runBlocking { grpc.memberStreams.createMembers(List(3) { TestMember().proto() }.asFlow()) }
        val counts = web.memberCounts()
        assertThat(counts.rows).isEqualTo(counts.created).isEqualTo(repository.count())
        assertThat(counts.dbTime.count).describedAs("one unary creation and one stream batch").isEqualTo(2)
        assertThat(counts.dbTime.maxMs).isPositive().isGreaterThanOrEqualTo(counts.dbTime.p50Ms)
        assertThat(web.memberCounts().dbTime.count).describedAs("a new interval").isZero()
    }

    private fun streamFailure(stream: List<TestMember>): StatusException {
        val error = catchThrowableOfType(StatusException::class.java) {
            runBlocking { grpc.memberStreams.createMembers(stream.map { it.proto() }.asFlow()) }
        }
        assertThat(error).describedAs("the stream fails").isNotNull
        return error
    }

    private fun protobufAnswer(response: WebTestClient.ResponseSpec): CreateMemberResponse = CreateMemberResponse.parseFrom(
        response.expectStatus().isCreated
            .expectHeader().contentType(PROTOBUF)
            .expectBody(ByteArray::class.java).returnResult().responseBody!!,
    )
}
