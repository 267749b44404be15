package io.protobench.apiserver.config

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.apiserver.config.GatewaySettings.BinaryBody
import io.protobench.apiserver.config.GatewaySettings.Compression
import io.protobench.apiserver.config.GatewaySettings.GrpcExecutor
import io.protobench.apiserver.config.GatewaySettings.HttpVersion
import io.protobench.contract.Json
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.springframework.boot.context.properties.bind.Binder
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource

class GatewaySettingsTest {

    private fun bind(vararg properties: Pair<String, String>): GatewaySettings = Binder(MapConfigurationPropertySource(properties.toMap()))
        .bindOrCreate(GatewaySettings.PREFIX, GatewaySettings::class.java)

    private fun violationsOf(block: () -> Any): List<Violation> {
        var violations = emptyList<Violation>()
        assertThatThrownBy { block() }.isInstanceOfSatisfying(InvalidSettings::class.java) { violations = it.violations }
        return violations
    }

    @Test
    fun `defaults are those of the seed setup`() {
        val settings = bind()

        assertThat(settings.dataServer).isEqualTo(GatewaySettings.DataServer("127.0.0.1", 8081, 9091))
        assertThat(settings.http.version).isEqualTo(HttpVersion.HTTP_1_1)
        assertThat(settings.http.poolSize).isEqualTo(500)
        assertThat(settings.grpc.channels).isEqualTo(1)
        assertThat(settings.grpc.maxInboundMessageBytes).isGreaterThanOrEqualTo(9 * 1024 * 1024)
        assertThat(settings.compression).isEqualTo(Compression.NONE)
        assertThat(settings.http.binaryBody).isEqualTo(BinaryBody.PROTOBUF)
        assertThat(settings.grpc.executor).isEqualTo(GrpcExecutor.DEFAULT)
        assertThat(settings.grpc.eventLoopThreads).isEqualTo(0)
        assertThat(settings.timeouts).isEqualTo(GatewaySettings.Timeouts(connectMs = 2_000, requestMs = 10_000, controlMs = 5_000))
    }

    @Test
    fun `properties bind with relaxed names`() {
        val settings = bind(
            "protobench.gateway.data-server.grpc-port" to "19091",
            "protobench.gateway.http.version" to "h2c",
            "protobench.gateway.grpc.channels" to "4",
            "protobench.gateway.timeouts.request-ms" to "250",
        )

        assertThat(settings.dataServer.grpcPort).isEqualTo(19091)
        assertThat(settings.http.version).isEqualTo(HttpVersion.H2C)
        assertThat(settings.grpc.channels).isEqualTo(4)
        assertThat(settings.timeouts.requestMs).isEqualTo(250)
    }

    @Test
    fun `compression, binary body, gRPC executor and event loops bind by their documented values in any case`() {
        val settings = bind(
            "protobench.gateway.compression" to "gzip",
            "protobench.gateway.http.binary-body" to "RAW",
            "protobench.gateway.grpc.executor" to "Direct",
            "protobench.gateway.grpc.event-loop-threads" to "2",
        )

        assertThat(settings.compression).isEqualTo(Compression.GZIP)
        assertThat(settings.http.binaryBody).isEqualTo(BinaryBody.RAW)
        assertThat(settings.grpc.executor).isEqualTo(GrpcExecutor.DIRECT)
        assertThat(settings.grpc.eventLoopThreads).isEqualTo(2)
    }

    @Test
    fun `the closed sets are reported by their lowercase ids`() {
        val json = Json.newMapper().valueToTree<JsonNode>(
            bind("protobench.gateway.compression" to "GZIP", "protobench.gateway.http.binary-body" to "raw"),
        )

        assertThat(json["compression"].asText()).isEqualTo("gzip")
        assertThat(json["http"]["binaryBody"].asText()).isEqualTo("raw")
        assertThat(json["grpc"]["executor"].asText()).isEqualTo("default")
        assertThat(json["grpc"]["eventLoopThreads"].asInt()).isEqualTo(0)
    }

    @ParameterizedTest
    @CsvSource("-1", "65")
    fun `an event-loop thread count outside 0 to 64 is refused with what is accepted`(threads: Int) {
        val violations = violationsOf { GatewaySettings(grpc = GatewaySettings.Grpc(eventLoopThreads = threads)) }

        assertThat(violations).containsExactly(
            Violation("protobench.gateway.grpc.event-loop-threads", "$threads", "0 (grpc-netty's default) or 1..64"),
        )
    }

    @ParameterizedTest
    @CsvSource("compression, brotli", "http.binary-body, bytes", "grpc.executor, virtual")
    fun `an unknown value of a closed set is refused by the binder naming the property`(property: String, value: String) {
        assertThatThrownBy { bind("protobench.gateway.$property" to value) }
            .hasMessageContaining("protobench.gateway.$property")
    }

    @Test
    fun `a bad value is refused naming the property, the value and what is accepted`() {
        val violations = violationsOf { GatewaySettings(grpc = GatewaySettings.Grpc(channels = 0)) }

        assertThat(violations).containsExactly(Violation("protobench.gateway.grpc.channels", "0", "1..64"))
        assertThat(violations.single().toString()).isEqualTo("protobench.gateway.grpc.channels = '0': accepted 1..64")
    }

    @Test
    fun `every bad value is reported, not just the first`() {
        val violations = violationsOf {
            GatewaySettings(
                dataServer = GatewaySettings.DataServer(host = " ", httpPort = 70_000),
                http = GatewaySettings.Http(poolSize = 0, pendingAcquireMax = 0),
                grpc = GatewaySettings.Grpc(maxInboundMessageBytes = 4 * 1024 * 1024, eventLoopThreads = 100),
                timeouts = GatewaySettings.Timeouts(connectMs = 0, requestMs = -5),
            )
        }

        assertThat(violations.map { it.property.removePrefix("protobench.gateway.") }).containsExactly(
            "data-server.host",
            "data-server.http-port",
            "http.pool-size",
            "http.pending-acquire-max",
            "grpc.max-inbound-message-bytes",
            "grpc.event-loop-threads",
            "timeouts.connect-ms",
            "timeouts.request-ms",
        )
    }

    @Test
    fun `binding invalid properties fails with the violations`() {
        assertThatThrownBy { bind("protobench.gateway.http.pool-size" to "-1") }
            .rootCause()
            .isInstanceOf(InvalidSettings::class.java)
            .hasMessageContaining("protobench.gateway.http.pool-size = '-1': accepted 1..100000")
    }

    @Test
    fun `an unknown HTTP version is refused by the binder`() {
        assertThatThrownBy { bind("protobench.gateway.http.version" to "HTTP3") }
            .hasMessageContaining("protobench.gateway.http.version")
    }

    @Test
    fun `a named client changes only what it names and keeps the gateway's other settings`() {
        val settings = bind(
            "protobench.gateway.http.pool-size" to "50",
            "protobench.gateway.grpc.executor" to "direct",
            "protobench.gateway.clients.h2c.http.version" to "h2c",
            "protobench.gateway.clients.channels-4.grpc.channels" to "4",
        )

        assertThat(settings.clients.keys).containsExactlyInAnyOrder("h2c", "channels-4")
        val h2c = settings.forClient("h2c")
        assertThat(h2c.http).isEqualTo(settings.http.copy(version = HttpVersion.H2C))
        assertThat(h2c.grpc).isEqualTo(settings.grpc)
        assertThat(h2c.clients).isEmpty()
        val channels = settings.forClient("channels-4")
        assertThat(channels.grpc).isEqualTo(settings.grpc.copy(channels = 4))
        assertThat(channels.grpc.executor).isEqualTo(GrpcExecutor.DIRECT)
        assertThat(channels.http).isEqualTo(settings.http)
    }

    @Test
    fun `a named client's bad name or values are refused with the rest`() {
        val violations = violationsOf {
            GatewaySettings(
                clients = mapOf(
                    "H2C!" to GatewaySettings.ClientChanges(),
                    "pool" to GatewaySettings.ClientChanges(http = GatewaySettings.HttpChanges(poolSize = 0)),
                    "wide" to GatewaySettings.ClientChanges(grpc = GatewaySettings.GrpcChanges(channels = 65)),
                ),
            )
        }

        assertThat(violations).containsExactly(
            Violation("protobench.gateway.clients", "H2C!", "names of lowercase letters, digits and '-', at most 32"),
            Violation("protobench.gateway.clients.pool.http.pool-size", "0", "1..100000"),
            Violation("protobench.gateway.clients.wide.grpc.channels", "65", "1..64"),
        )
    }

    @Test
    fun `the settings report names the clients only when there are some`() {
        val mapper = Json.newMapper()
        assertThat(mapper.valueToTree<JsonNode>(bind()).has("clients")).isFalse()
        val named = mapper.valueToTree<JsonNode>(bind("protobench.gateway.clients.h2c.http.version" to "H2C"))
        assertThat(named["clients"]["h2c"]["http"]["version"].asText()).isEqualTo("H2C")
    }
}
