package io.protobench.apiserver.config

import io.protobench.contract.server.KnownSettings
import io.protobench.contract.server.ProcessSettings
import io.protobench.contract.server.SettableSettings
import io.protobench.contract.server.SettableSettings.Server
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.context.properties.bind.Binder
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource

/** The settings a scenario variant may give the gateway are this server's, with its values and limits. */
class SettableSettingsTest {
    private val catalogue = SettableSettings.of(Server.GATEWAY)

    @Test
    fun `every setting the gateway declares is settable or the lab's, and no other`() {
        val declared = KnownSettings.declaredBy(GatewaySettings.PREFIX, GatewaySettings::class) +
            KnownSettings.declaredBy(KnownSettings.PREFIX, ProcessSettings::class)
        assertThat(catalogue.map { it.name } + SettableSettings.setByLab(Server.GATEWAY)).containsExactlyInAnyOrderElementsOf(declared)
    }

    @Test
    fun `the HTTP versions are the enum's names`() {
        val version = SettableSettings.setting(Server.GATEWAY, "${GatewaySettings.PREFIX}.http.version")!!
        assertThat(version.choices).containsExactlyElementsOf(GatewaySettings.HttpVersion.entries.map { it.name })
    }

    @Test
    fun `the gateway binds every value the catalogue accepts and refuses every other at the edges`() {
        for (setting in catalogue) {
            for (value in setting.edges()) {
                assertThat(binds(setting.name, value)).describedAs("%s=%s binds", setting.name, value).isEqualTo(setting.valid(value))
            }
        }
    }

    private fun binds(name: String, value: String): Boolean = runCatching {
        Binder(MapConfigurationPropertySource(mapOf(name to value))).bindOrCreate(GatewaySettings.PREFIX, GatewaySettings::class.java)
    }.isSuccess
}
