package io.protobench.dataserver.config

import io.protobench.contract.server.KnownSettings
import io.protobench.contract.server.SettingsRejected
import io.protobench.dataserver.members.MemberDatabaseConfig
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import javax.sql.DataSource

/** The members database as start-up meets it: a mistyped setting or an unreachable database stops the server. */
class DatabaseStartupTest {
    @Configuration(proxyBeanMethods = false)
    class SettingsChecked {
        @Bean
        fun knownSettings(context: ConfigurableApplicationContext) = KnownSettings(context)
    }

    private val runner = ApplicationContextRunner()
        .withUserConfiguration(SettingsValidationTest.SettingsOnly::class.java, MemberDatabaseConfig::class.java)

    @Test
    fun `a mistyped database setting is refused, naming the one meant`() {
        runner.withUserConfiguration(SettingsChecked::class.java).withPropertyValues("protobench.data.db.pool-sise=20").run {
            assertThat(it).hasFailed()
            assertThat(it.startupFailure).isInstanceOf(SettingsRejected::class.java)
                .hasMessageContaining("unknown setting 'protobench.data.db.pool-sise' (did you mean protobench.data.db.pool-size?)")
        }
    }

    @Test
    fun `the default pool opens a connection to H2 in memory`() {
        runner.run { context ->
            context.getBean(DataSource::class.java).connection.use { assertThat(it.metaData.databaseProductName).isEqualTo("H2") }
        }
    }

    @Test
    fun `an unreachable PostgreSQL database stops start-up with the driver's reason`() {
        runner.withPropertyValues(
            "protobench.data.db.url=jdbc:postgresql://127.0.0.1:1/members",
            "protobench.data.db.connection-timeout-ms=250",
        )
            .run {
                assertThat(it).hasFailed()
                val messages = generateSequence(it.startupFailure) { e -> e.cause }.joinToString("\n") { e -> e.message.orEmpty() }
                assertThat(messages).contains("Connection to 127.0.0.1:1 refused")
            }
    }
}
