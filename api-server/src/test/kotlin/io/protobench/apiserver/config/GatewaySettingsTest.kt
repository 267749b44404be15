package io.protobench.apiserver.config

import io.protobench.apiserver.config.GatewaySettings.HttpVersion
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.springframework.boot.context.properties.bind.Binder
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource

class GatewaySettingsTest {

    private fun bind(vararg properties: Pair<String, String>): GatewaySettings =
        Binder(MapConfigurationPropertySource(properties.toMap()))
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
                grpc = GatewaySettings.Grpc(maxInboundMessageBytes = 4 * 1024 * 1024),
                timeouts = GatewaySettings.Timeouts(connectMs = 0, requestMs = -5),
            )
        }

        assertThat(violations.map { it.property.removePrefix("protobench.gateway.") }).containsExactly(
            "data-server.host",
            "data-server.http-port",
            "http.pool-size",
            "http.pending-acquire-max",
            "grpc.max-inbound-message-bytes",
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
}
