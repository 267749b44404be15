package io.protobench.dataserver.members

import io.grpc.Status
import io.grpc.StatusRuntimeException
import io.protobench.contract.proto.DataRequest
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.PROTOBUF
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.postMember
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.h2.tools.Server
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.http.MediaType
import org.springframework.test.annotation.DirtiesContext
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import java.util.UUID

/**
 * The members database behind an H2 TCP server that the test stops: creations answer 503 /
 * UNAVAILABLE, nothing is counted, and the data-server goes on serving its read paths.
 */
@DataServerTest
@DirtiesContext
class DatabaseDownTest : MemberServerTest() {
    @AfterAll
    fun stopDatabase() = database.stop()

    @Test
    fun `with the database gone, creations answer 503 and UNAVAILABLE and the read paths still answer`() {
        web.postMember(TestMember().json(), MediaType.APPLICATION_JSON).expectStatus().isCreated
        database.stop()

        for ((body, type) in listOf(TestMember().json() to MediaType.APPLICATION_JSON, TestMember().proto() to PROTOBUF)) {
            web.postMember(body, type)
                .expectStatus().isEqualTo(503)
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$.error").value<String> { assertThat(it).startsWith("the members database is unavailable") }
        }
        val error = catchThrowableOfType(StatusRuntimeException::class.java) { grpc.members.createMember(TestMember().proto()) }
        assertThat(error.status.code).isEqualTo(Status.Code.UNAVAILABLE)
        web.get().uri("/internal/members").exchange().expectStatus().isEqualTo(503)

        web.get().uri("/data/json?size=1kb").exchange().expectStatus().isOk
        assertThat(grpc.data.getData(DataRequest.newBuilder().setSize("1kb").build()).size).isEqualTo(1024)
    }

    companion object {
        /** An H2 server on a free port; the database lives in this JVM's memory while the JVM runs. */
        private val database: Server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start()

        @JvmStatic
        @DynamicPropertySource
        fun database(registry: DynamicPropertyRegistry) {
            registry.add("protobench.data.db.url") {
                "jdbc:h2:tcp://127.0.0.1:${database.port}/mem:down-${UUID.randomUUID()};DB_CLOSE_DELAY=-1"
            }
            registry.add("protobench.data.db.pool-size") { "2" }
            registry.add("protobench.data.db.connection-timeout-ms") { "500" }
        }
    }
}
