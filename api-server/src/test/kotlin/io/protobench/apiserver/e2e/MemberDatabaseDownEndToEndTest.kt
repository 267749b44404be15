package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.TestMember
import io.protobench.apiserver.support.postJson
import io.protobench.apiserver.support.postMembers
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.h2.tools.Server
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.UUID

/**
 * The data-server is up but its database (an H2 TCP server the test stops) is gone: every
 * protocol's write is a 503 counted as "database unavailable", told apart from a data-server
 * out of reach (over gRPC both are UNAVAILABLE).
 */
@GatewayTest
class MemberDatabaseDownEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        private val database: Server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start()

        private val dataServer by lazy {
            TestDataServer.start(
                "--protobench.data.db.url=jdbc:h2:tcp://127.0.0.1:${database.port}/mem:gateway-down-${UUID.randomUUID()};DB_CLOSE_DELAY=-1",
                "--protobench.data.db.pool-size=2",
                "--protobench.data.db.connection-timeout-ms=500",
            )
        }

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = dataServer.register(registry)

        @JvmStatic
        @AfterAll
        fun stop() {
            dataServer.close()
            database.stop()
        }
    }

    @Test
    fun `with the database gone, every protocol's write is a 503 counted as database unavailable`() {
        assertThat(web.postMembers("grpc", TestMember().json()).first).isEqualTo(200)
        database.stop()
        web.postJson("/benchmark/start?testName=database-down&replace=true")

        for (protocol in Protocol.entries) {
            val (status, body) = web.postMembers(protocol.pathSegment, TestMember().json())
            assertThat(status).`as`(protocol.label).isEqualTo(503)
            assertThat(body["error"].asText()).`as`(protocol.label).isEqualTo("database unavailable")
            assertThat(body["detail"].asText()).contains("the members database is unavailable")
            assertThat(body["createdBeforeFailure"].asInt()).isZero()
        }
        val (_, report) = web.postJson("/benchmark/end")

        assertThat(report["failuresByKind"]["database unavailable"].asInt()).isEqualTo(Protocol.entries.size)
        assertThat(report["successRequests"].asInt()).isZero()
    }
}
