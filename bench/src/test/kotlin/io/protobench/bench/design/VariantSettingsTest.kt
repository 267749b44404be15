package io.protobench.bench.design

import io.protobench.bench.scenario.Variant
import io.protobench.contract.Json
import io.protobench.contract.metrics.JvmFacts
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
        val variant = Variant(
            "v",
            gateway = mapOf("protobench.gateway.http.version" to "h2c", "protobench.gateway.grpc.channels" to "4"),
            dataServer = mapOf("protobench.data.complex-encoding" to "per_request"),
        )
        val effective = mapOf(
            "protobench.gateway.http.version" to "H2C",
            "protobench.gateway.grpc.channels" to "1",
            "protobench.data.complex-encoding" to "per-request",
        )
        assertThat(VariantSettings.mismatches(variant, effective))
            .containsExactly("protobench.gateway.grpc.channels: asked '4', the server runs '1'")
        assertThat(VariantSettings.mismatches(variant, emptyMap())).hasSize(3).allSatisfy { assertThat(it).contains("does not report it") }
    }

    @Test
    fun `the JVM's heap, collector and release are checked against the variant`() {
        val variant = Variant("zgc-2g-25", jvmOptions = listOf("-XX:+UseZGC"), heap = "2g", jdk = "25")
        fun facts(version: String, collectors: List<String>, heapMb: Long) = VariantSettings.SERVERS.flatMap {
            VariantSettings.jvm(
                it,
                JvmFacts(
                    version,
                    collectors,
                    heapMb * 1024 * 1024,
                ),
            ).entries
        }
            .associate { it.key to it.value }

        assertThat(VariantSettings.mismatches(variant, facts("25.0.3", listOf("ZGC Minor Cycles", "ZGC Major Cycles"), 2048))).isEmpty()
        assertThat(VariantSettings.mismatches(variant, facts("17.0.15", listOf("G1 Young Generation"), 1024))).containsExactly(
            "heap of api-server: asked 2g, the JVM reports 1024 MB",
            "collector of api-server: asked -XX:+UseZGC, the JVM runs G1 Young Generation",
            "JDK of api-server: asked 25, the JVM is 17.0.15",
            "heap of data-server: asked 2g, the JVM reports 1024 MB",
            "collector of data-server: asked -XX:+UseZGC, the JVM runs G1 Young Generation",
            "JDK of data-server: asked 25, the JVM is 17.0.15",
        )
        // Parallel reports its heap without one survivor space: 491 of 512 MB is still the heap asked for.
        val parallel = Variant("ps", jvmOptions = listOf("-XX:+UseParallelGC"), heap = "512m")
        assertThat(VariantSettings.mismatches(parallel, facts("17.0.15", listOf("PS MarkSweep", "PS Scavenge"), 491))).isEmpty()
    }
}
