package io.protobench.contract.server

import io.protobench.contract.server.SettableSettings.Server
import io.protobench.contract.text.EditDistance
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class SettableSettingsTest {
    private fun names(server: Server) = SettableSettings.of(server).map { it.name }

    @Test
    fun `each server's settable names lie under its prefix, once, apart from what the lab sets`() {
        for (server in Server.entries) {
            assertThat(names(server)).isNotEmpty.doesNotHaveDuplicates().allSatisfy { assertThat(it).startsWith("${server.prefix}.") }
            assertThat(names(server)).doesNotContainAnyElementsOf(SettableSettings.setByLab(server))
        }
        assertThat(names(Server.DATA_SERVER))
            .containsExactly(
                "protobench.data.grpc-payload-mode", "protobench.data.complex-encoding", "protobench.data.chunk-size-bytes",
                "protobench.data.compression", "protobench.data.http-binary-payload-mode", "protobench.data.grpc.executor",
                "protobench.data.grpc.event-loop-threads", "protobench.data.db.pool-size", "protobench.data.db.connection-timeout-ms",
            )
    }

    @Test
    fun `the shared process settings are the lab's on both servers`() {
        val process = KnownSettings.declaredBy(KnownSettings.PREFIX, ProcessSettings::class)
        assertThat(Server.entries).allSatisfy { assertThat(SettableSettings.setByLab(it)).containsAll(process) }
    }

    @Test
    fun `the members database is the lab's to choose, its pool a variant's`() {
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.db.url", "jdbc:postgresql://db/members"))
            .startsWith("'protobench.data.db.url' is set by the lab, not by a scenario")
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.db.pool-size", "20")).isNull()
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.db.pool-size", "0"))
            .endsWith("accepted 1..200 (connections)")
    }

    @Test
    fun `accepted values pass and keep one spelling`() {
        val version = SettableSettings.setting(Server.GATEWAY, "protobench.gateway.http.version")!!
        assertThat(version.normalised("h2c")).isEqualTo("H2C")
        assertThat(version.choices).containsExactly("HTTP_1_1", "H2C")
        val pending = SettableSettings.setting(Server.GATEWAY, "protobench.gateway.http.pending-acquire-max")!!
        assertThat(listOf("-1", "1", "1000000")).allSatisfy { assertThat(pending.valid(it)).isTrue() }
        assertThat(listOf("0", "-2", "1000001", "1.0", " 5", "", "99999999999999999999"))
            .allSatisfy { assertThat(pending.valid(it)).isFalse() }
        assertThat(SettableSettings.setting(Server.GATEWAY, "protobench.gateway.grpc.channels")!!.normalised("04")).isEqualTo("4")
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.grpc-payload-mode", "COPY")).isNull()
        assertThat(SettableSettings.problem(Server.GATEWAY, "protobench.gateway.grpc.max-inbound-message-bytes", "9437184")).isNull()
    }

    @Test
    fun `a value not accepted is named with what is`() {
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.grpc-payload-mode", "copyy"))
            .isEqualTo("protobench.data.grpc-payload-mode = 'copyy': accepted shared or copy")
        assertThat(SettableSettings.refusal(Server.GATEWAY, "protobench.gateway.grpc.channels", "65"))
            .isEqualTo(SettableSettings.Refusal(null, "1..64"))
        assertThat(SettableSettings.problem(Server.GATEWAY, "protobench.gateway.grpc.max-inbound-message-bytes", "9437183"))
            .contains("accepted 9437184 (9 MiB)")
    }

    @Test
    fun `an unknown name gets the nearest settable one, or the list`() {
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.grpc-payload-mod", "copy"))
            .startsWith("unknown setting 'protobench.data.grpc-payload-mod' (did you mean protobench.data.grpc-payload-mode?)")
        assertThat(SettableSettings.refusal(Server.DATA_SERVER, "grpc-payload-mode", "copy")!!.problem)
            .isEqualTo("unknown setting 'grpc-payload-mode' (did you mean protobench.data.grpc-payload-mode?)")
        val far = SettableSettings.refusal(Server.GATEWAY, "spring.main.banner-mode", "off")!!
        assertThat(far.problem).isEqualTo("unknown setting 'spring.main.banner-mode'")
        assertThat(far.accepted).startsWith("the gateway settings a variant may set: ").contains(names(Server.GATEWAY))
    }

    @Test
    fun `what the lab sets, or the other server reads, is refused as such`() {
        assertThat(SettableSettings.problem(Server.DATA_SERVER, "protobench.data.grpc.port", "9999"))
            .startsWith("'protobench.data.grpc.port' is set by the lab, not by a scenario: accepted the data-server settings")
        assertThat(SettableSettings.refusal(Server.GATEWAY, "protobench.parent-pid", "1")!!.problem).contains("set by the lab")
        assertThat(SettableSettings.refusal(Server.GATEWAY, "protobench.gateway.timeouts.control-ms", "1")!!.problem)
            .contains("set by the lab")
        assertThat(SettableSettings.refusal(Server.DATA_SERVER, "protobench.gateway.grpc.channels", "2")!!.problem)
            .isEqualTo("'protobench.gateway.grpc.channels' is a gateway setting: write it under gateway")
    }

    @Test
    fun `a plausible typo is within a third of the name`() {
        val known = listOf("protobench.gateway.http.version", "protobench.gateway.grpc.channels")
        assertThat(EditDistance.suggestion("protobench.gateway.http.verison", known)).isEqualTo("protobench.gateway.http.version")
        assertThat(EditDistance.suggestion("threads", known)).isNull()
    }
}
