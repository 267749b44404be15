package io.protobench.bench.runner

import io.protobench.bench.scenario.Variant
import io.protobench.contract.Json
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class VariantSettingsTest {
    private val json = Json.newMapper()

    @Test
    fun `settings JSON as the servers report it becomes property names`() {
        val gateway = json.readTree("""{"http": {"version": "H2C", "poolSize": 10}, "grpc": {"channels": 4}}""")
        val data = json.readTree("""{"grpcPayloadMode": "copy", "grpc": {"address": "127.0.0.1", "port": 40000}}""")
        val flat = VariantSettings.flatten("protobench.gateway", gateway) + VariantSettings.flatten("protobench.data", data)
        assertThat(flat).containsEntry("protobench.gateway.http.version", "H2C")
            .containsEntry("protobench.gateway.http.pool-size", "10")
            .containsEntry("protobench.gateway.grpc.channels", "4")
            .containsEntry("protobench.data.grpc-payload-mode", "copy")
            .containsEntry("protobench.data.grpc.port", "40000")
        assertThat(VariantSettings.flatten("protobench.data", null)).isEmpty()
    }

    @Test
    fun `a setting that did not take effect or is not reported is named, and the spelling of enum values does not matter`() {
        val variant = Variant("v", gateway = mapOf("protobench.gateway.http.version" to "h2c", "protobench.gateway.grpc.channels" to "4"),
            dataServer = mapOf("protobench.data.complex-encoding" to "per_request"))
        val effective = mapOf("protobench.gateway.http.version" to "H2C", "protobench.gateway.grpc.channels" to "1",
            "protobench.data.complex-encoding" to "per-request")
        assertThat(VariantSettings.mismatches(variant, effective)).containsExactly("protobench.gateway.grpc.channels: asked '4', the server runs '1'")
        assertThat(VariantSettings.mismatches(variant, emptyMap())).hasSize(3).allSatisfy { assertThat(it).contains("does not report it") }
    }
}
