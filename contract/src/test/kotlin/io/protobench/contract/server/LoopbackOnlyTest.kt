package io.protobench.contract.server

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

class LoopbackOnlyTest {
    @ParameterizedTest
    @ValueSource(
        strings = [
            "localhost", "LOCALHOST:8080", "127.0.0.1", "127.0.0.1:65535", "127.255.3.4:1", "[::1]", "[::1]:8081",
            "[0:0:0:0:0:0:0:1]:80",
        ],
    )
    fun `loopback hosts pass`(host: String) {
        assertThat(LoopbackOnly.isLoopbackHost(host)).isTrue()
        assertThat(LoopbackOnly.refusal(host, null, null)).isNull()
    }

    @ParameterizedTest
    @ValueSource(
        strings = [
            "", "evil.example", "localhost.evil.example", "127.0.0.1.evil.example", "128.0.0.1", "127.0.0", "127.0.0.256",
            "0.0.0.0", "10.0.0.1:8080", "[::2]", "[::1]x", "localhost:", "localhost:99999", "localhost:80:80", "[::1",
            "127.0.0.1:8o",
        ],
    )
    fun `other hosts are refused naming what is accepted`(host: String) {
        assertThat(LoopbackOnly.isLoopbackHost(host)).isFalse()
        assertThat(LoopbackOnly.refusal(host, null, null)).contains(LoopbackOnly.ACCEPTED_HOSTS)
    }

    @Test
    fun `names given as internal hosts pass with any port, others are still refused naming both`() {
        val extra = setOf("10.201.0.2", "data-server.lab")
        assertThat(LoopbackOnly.refusal("10.201.0.2:8081", null, null, extra)).isNull()
        assertThat(LoopbackOnly.refusal("DATA-SERVER.lab", null, null, extra)).isNull()
        assertThat(LoopbackOnly.refusal("localhost:8081", null, null, extra)).isNull()
        assertThat(LoopbackOnly.refusal("10.201.0.3:8081", null, null, extra))
            .contains(LoopbackOnly.ACCEPTED_HOSTS, "10.201.0.2, data-server.lab")
        assertThat(LoopbackOnly.refusal("10.201.0.2:99999", null, null, extra)).isNotNull()
        // A browser on a foreign page is still refused, whatever Host it names.
        assertThat(LoopbackOnly.refusal("10.201.0.2", "http://evil.example", null, extra)).contains("cross-site")
        assertThat(LoopbackOnly.refusal("10.201.0.2:8081", null, null)).isNotNull()
    }

    @Test
    fun `internal hosts are names or addresses without a port`() {
        assertThat(listOf("10.201.0.2", "data-server", "a.b-c.d", "[fd00::2]"))
            .allSatisfy { assertThat(LoopbackOnly.isHostName(it)).`as`(it).isTrue() }
        assertThat(listOf("", "10.201.0.2:80", "*.lab", "a b", "-x", "http://x"))
            .allSatisfy { assertThat(LoopbackOnly.isHostName(it)).`as`(it).isFalse() }
        assertThat(runCatching { ProcessSettings(internalHosts = listOf("10.0.0.1:80")) }.exceptionOrNull())
            .hasMessageContaining("protobench.internal-hosts").hasMessageContaining("'10.0.0.1:80'")
    }

    @Test
    fun `a missing Host is refused`() {
        assertThat(LoopbackOnly.refusal(null, null, null)).contains("no Host header")
    }

    @Test
    fun `a loopback origin passes and any other origin is a cross-site request`() {
        assertThat(LoopbackOnly.refusal("localhost:8080", "http://localhost:3000", null)).isNull()
        assertThat(LoopbackOnly.refusal("localhost:8080", "https://127.0.0.1", null)).isNull()
        for (origin in listOf("http://evil.example", "null", "file://", "http://localhost:3000/path", "ftp://localhost")) {
            assertThat(LoopbackOnly.refusal("localhost:8080", origin, null)).`as`(origin).contains("cross-site")
        }
    }

    @Test
    fun `Sec-Fetch-Site cross-site is refused, same-site and same-origin pass`() {
        assertThat(LoopbackOnly.refusal("localhost", null, "cross-site")).contains("Sec-Fetch-Site: cross-site")
        assertThat(LoopbackOnly.refusal("localhost", null, "same-site")).isNull()
        assertThat(LoopbackOnly.refusal("localhost", null, "same-origin")).isNull()
        assertThat(LoopbackOnly.refusal("localhost", null, "none")).isNull()
    }

    @Test
    fun `only benchmark and internal paths are guarded, in any case`() {
        assertThat(LoopbackOnly.guards("benchmark")).isTrue()
        assertThat(LoopbackOnly.guards("Internal")).isTrue()
        assertThat(LoopbackOnly.guards("api")).isFalse()
        assertThat(LoopbackOnly.guards("data")).isFalse()
        assertThat(LoopbackOnly.guards(null)).isFalse()
    }
}
