package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.TestMember
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.apiserver.support.postMembers
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** The data-server goes away under a gateway that was talking to it. */
@GatewayTest
class DataServerDownEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        /** A data-server of this class's own, since it gets stopped. */
        private val dataServer by lazy { TestDataServer.start() }

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = dataServer.register(registry)

        @JvmStatic
        @AfterAll
        fun stop() = dataServer.close()
    }

    @Test
    fun `a stopped data-server gives 502s to reads and 503s to writes counted as failed, a 503 health and a report without its metrics`() {
        for (protocol in Protocol.entries) {
            assertThat(web.getJson("/api/data/${protocol.pathSegment}?size=1kb").first).isEqualTo(200)
        }
        web.postJson("/benchmark/start?testName=down")
        dataServer.close()

        for (protocol in Protocol.entries) {
            val (status, body) = web.getJson("/api/data/${protocol.pathSegment}?size=1kb")
            assertThat(status).`as`(protocol.label).isEqualTo(502)
            assertThat(body["error"].asText()).isEqualTo("data-server unavailable")
            assertThat(body["protocol"].asText()).isEqualTo(protocol.label)
            assertThat(body["detail"].asText()).isNotBlank()
        }
        assertThat(web.getJson("/api/complex/http/json?complexity=simple").first).isEqualTo(502)
        for (protocol in Protocol.entries) {
            val (status, body) = web.postMembers(protocol.pathSegment, List(2) { TestMember().json() })
            assertThat(status).`as`(protocol.label).isEqualTo(503)
            assertThat(body["error"].asText()).isEqualTo("data-server unavailable")
            assertThat(body["createdBeforeFailure"].asInt()).isZero()
        }

        val (healthStatus, health) = web.getJson("/api/health")
        assertThat(healthStatus).isEqualTo(503)
        assertThat(health["status"].asText()).isEqualTo("DOWN")
        assertThat(health["dataServer"]["http"].asText()).isEqualTo("DOWN")
        assertThat(health["dataServer"]["grpc"].asText()).isEqualTo("DOWN")

        val (endStatus, report) = web.postJson("/benchmark/end")
        assertThat(endStatus).isEqualTo(200)
        assertThat(report["failedRequests"].asInt()).isEqualTo(9)
        assertThat(report["failuresByKind"]["data-server unavailable"].asInt()).isEqualTo(9)
        assertThat(report["successRequests"].asInt()).isZero()
        assertThat(report["processes"]["dataServer"].isNull).isTrue()
        assertThat(report["processes"]["dataServerError"].asText()).startsWith("at end:")
        assertThat(report["dataServerSettings"].isNull).isTrue()
    }
}
