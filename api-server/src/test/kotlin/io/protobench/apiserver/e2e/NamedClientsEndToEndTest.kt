package io.protobench.apiserver.e2e

import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** Two named sets of hop clients in one gateway (h2c for HTTP, four gRPC channels), picked per request with `client=`. */
@GatewayTest
@TestPropertySource(
    properties = [
        "protobench.gateway.clients.h2c.http.version=H2C",
        "protobench.gateway.clients.channels-4.grpc.channels=4",
    ],
)
class NamedClientsEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var clients: DataClients

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `every protocol answers exactly over every named client and the gateway's own`() {
        for (client in listOf("", "&client=h2c", "&client=channels-4")) {
            for (segment in listOf("http/json", "http/binary", "grpc", "grpc/stream")) {
                for (size in listOf("1kb", "100kb")) {
                    val (status, body) = web.getJson("/api/data/$segment?size=$size$client")
                    assertThat(status).`as`("$segment $size $client").isEqualTo(200)
                    assertThat(body["payloadSize"].asInt()).`as`("$segment $size $client").isEqualTo(PayloadSize.parse(size).bytes)
                }
                val (status, body) = web.getJson("/api/complex/$segment?complexity=${ComplexityLevel.COMPLEX.id}$client")
                assertThat(status).`as`("$segment complex $client").isEqualTo(200)
                assertThat(body["serializedSize"].asInt()).isPositive()
            }
        }
    }

    @Test
    fun `each named client is a set of its own and the gateway's own is picked without a name`() {
        val own = clients.set(null)
        for (protocol in Protocol.entries) {
            assertThat(clients.set("h2c").of(protocol)).isNotSameAs(own.of(protocol))
            assertThat(clients.set("channels-4").of(protocol)).isNotSameAs(clients.set("h2c").of(protocol))
            assertThat(own.of(protocol)).isSameAs(clients.of(protocol))
        }
        assertThatThrownBy { clients.set("h3") }.isInstanceOf(InvalidParameter::class.java)
    }

    @Test
    fun `an unknown client answers 400 naming the parameter and the clients there are, counted as invalid`() {
        web.postJson("/benchmark/start?protocol=HTTP/Binary")
        val (status, body) = web.getJson("/api/data/http/binary?size=1kb&client=h3")
        val (_, report) = web.postJson("/benchmark/end")

        assertThat(status).isEqualTo(400)
        assertThat(body["parameter"].asText()).isEqualTo("client")
        assertThat(body["accepted"].asText()).contains("h2c", "channels-4")
        assertThat(report["successRequests"].asLong()).isEqualTo(0)
        assertThat(report["clientSettings"]["clients"]["h2c"]["http"]["version"].asText()).isEqualTo("H2C")
        assertThat(report["clientSettings"]["clients"]["channels-4"]["grpc"]["channels"].asInt()).isEqualTo(4)
    }
}
