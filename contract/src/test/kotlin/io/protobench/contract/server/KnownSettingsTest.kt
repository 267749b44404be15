package io.protobench.contract.server

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.context.properties.source.ConfigurationPropertyName

class KnownSettingsTest {
    data class Inner(val poolSize: Int = 1, val version: String = "")

    data class Outer(val http: Inner = Inner(), val grpcPort: Int = 0, val parentPid: Long? = null)

    @Test
    fun `declared names walk nested data classes in kebab case`() {
        assertThat(KnownSettings.declaredBy("protobench.x", Outer::class)).containsExactly(
            "protobench.x.http.pool-size",
            "protobench.x.http.version",
            "protobench.x.grpc-port",
            "protobench.x.parent-pid",
        )
    }

    data class Changes(val version: String? = null)

    data class WithMap(val clients: Map<String, Changes> = emptyMap(), val labels: Map<String, String> = emptyMap())

    @Test
    fun `a map of data classes declares its leaves under any one key, and a given name matches with exactly one`() {
        val declared = KnownSettings.declaredBy("protobench.x", WithMap::class)
        assertThat(declared).containsExactly("protobench.x.clients.*.version", "protobench.x.labels")

        fun declares(given: String) = KnownSettings.declares(declared.first(), ConfigurationPropertyName.of(given))
        assertThat(declares("protobench.x.clients.h2c.version")).isTrue()
        assertThat(declares("protobench.x.clients.channels-4.version")).isTrue()
        assertThat(declares("protobench.x.clients.version")).isFalse()
        assertThat(declares("protobench.x.clients.a.b.version")).isFalse()
        assertThat(declares("protobench.x.clients.h2c.verison")).isFalse()
    }

    @Test
    fun `edit distance counts insertions, deletions and substitutions`() {
        assertThat(KnownSettings.editDistance("version", "version")).isZero()
        assertThat(KnownSettings.editDistance("verison", "version")).isEqualTo(2)
        assertThat(KnownSettings.editDistance("", "abc")).isEqualTo(3)
        assertThat(KnownSettings.editDistance("kitten", "sitting")).isEqualTo(3)
    }

    @Test
    fun `the nearest known name is suggested`() {
        val known = listOf("protobench.gateway.http.version", "protobench.gateway.http.pool-size", "protobench.parent-pid")
        assertThat(KnownSettings.nearest("protobench.gateway.http.verison", known)).isEqualTo("protobench.gateway.http.version")
        assertThat(KnownSettings.nearest("protobench.parentpid", known)).isEqualTo("protobench.parent-pid")
    }
}
