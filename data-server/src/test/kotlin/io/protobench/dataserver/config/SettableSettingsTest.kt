package io.protobench.dataserver.config

import io.protobench.contract.server.KnownSettings
import io.protobench.contract.server.ProcessSettings
import io.protobench.contract.server.SettableSettings
import io.protobench.contract.server.SettableSettings.Server
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/** The settings a scenario variant may give the data-server are this server's, with its values and limits. */
class SettableSettingsTest {
    private val catalogue = SettableSettings.of(Server.DATA_SERVER)
    private val runner = ApplicationContextRunner().withUserConfiguration(SettingsValidationTest.SettingsOnly::class.java)

    @Test
    fun `every setting the server declares is settable or the lab's, and no other`() {
        val declared = KnownSettings.declaredBy(Server.DATA_SERVER.prefix, DataServerSettings::class) +
            KnownSettings.declaredBy(KnownSettings.PREFIX, ProcessSettings::class)
        assertThat(catalogue.map { it.name } + SettableSettings.setByLab(Server.DATA_SERVER)).containsExactlyInAnyOrderElementsOf(declared)
    }

    @Test
    fun `the closed sets are the modes' ids`() {
        assertThat(choices("grpc-payload-mode")).containsExactlyElementsOf(GrpcPayloadMode.entries.map { it.id })
        assertThat(choices("complex-encoding")).containsExactlyElementsOf(ComplexEncoding.entries.map { it.id })
    }

    @Test
    fun `the server starts with every value the catalogue accepts and refuses every other at the edges`() {
        for (setting in catalogue) {
            for (value in setting.edges()) {
                runner.withPropertyValues("${setting.name}=$value").run { context ->
                    assertThat(context.startupFailure == null).describedAs("%s=%s starts", setting.name, value)
                        .isEqualTo(setting.valid(value))
                }
            }
        }
    }

    private fun choices(leaf: String) = SettableSettings.setting(Server.DATA_SERVER, "${Server.DATA_SERVER.prefix}.$leaf")!!.choices
}
