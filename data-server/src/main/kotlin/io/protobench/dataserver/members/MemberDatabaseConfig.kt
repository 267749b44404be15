package io.protobench.dataserver.members

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import io.protobench.dataserver.config.DataServerSettings
import org.springframework.boot.autoconfigure.flyway.FlywayConfigurationCustomizer
import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.jdbc.core.JdbcTemplate
import java.sql.DriverManager

/**
 * The members database. Spring Data JPA (as seed 003) over this pool; Flyway, run by
 * Spring Boot at start-up, creates the schema from db/migration. The pool is built from
 * `protobench.data.db.*`, so Spring Boot's own `spring.datasource.*` backs off and the
 * settings have one home.
 */
@Configuration(proxyBeanMethods = false)
@MembersEnabled
class MemberDatabaseConfig {
    /**
     * A fixed pool (minimum idle = maximum, as HikariCP advises for steady load), so a trial
     * never pays for opening connections. Start-up fails when the database cannot be reached.
     */
    @Bean(destroyMethod = "close")
    fun dataSource(settings: DataServerSettings): HikariDataSource {
        val db = settings.db
        db.schema?.let { ensureSchema(db, it) }
        return HikariDataSource(
            HikariConfig().apply {
                poolName = POOL_NAME
                jdbcUrl = db.url
                username = db.user
                password = db.password
                maximumPoolSize = db.poolSize
                minimumIdle = db.poolSize
                connectionTimeout = db.connectionTimeoutMs
                // Every connection, Flyway's included, then names the table unqualified in it.
                db.schema?.let { schema = it }
            },
        )
    }

    /**
     * The schema exists before the pool names it on every connection: H2 refuses to switch
     * to a schema that is not there. Created only when missing, since PostgreSQL asks for
     * the right to create schemas even of `CREATE SCHEMA IF NOT EXISTS` on one that exists.
     */
    private fun ensureSchema(db: DataServerSettings.Db, schema: String) {
        DriverManager.getConnection(db.url, db.user, db.password).use { connection ->
            val exists = connection.prepareStatement("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?").use {
                it.setString(1, schema)
                it.executeQuery().use { rows -> rows.next() && rows.getLong(1) > 0 }
            }
            // The name is checked by DataServerSettings.Db (lower-case letters, digits, _), so quoting is all it needs.
            if (!exists) connection.createStatement().use { it.execute("CREATE SCHEMA \"$schema\"") }
        }
    }

    /**
     * Flyway migrates [DataServerSettings.Db.schema] when one is set, keeping its history
     * table there: a schema with that history is the lab's own.
     */
    @Bean
    fun migratedSchema(settings: DataServerSettings) = FlywayConfigurationCustomizer { flyway ->
        settings.db.schema?.let { flyway.schemas(it).defaultSchema(it) }
    }

    /**
     * Flyway's migrations, then the email index as `protobench.data.members.unique-emails`
     * asks: kept (created again if a database outside this server lost it) or dropped.
     * Done after every migration rather than as one, because the same database may serve
     * a run that wants it and then one that does not.
     */
    @Bean
    fun emailIndex(settings: DataServerSettings) = FlywayMigrationStrategy { flyway ->
        flyway.migrate()
        val sql = if (settings.members.uniqueEmails) {
            "CREATE UNIQUE INDEX IF NOT EXISTS $EMAIL_INDEX ON members (email)"
        } else {
            "DROP INDEX IF EXISTS $EMAIL_INDEX"
        }
        JdbcTemplate(flyway.configuration.dataSource).execute(sql)
    }

    companion object {
        /** Names the pool's threads and metrics. */
        const val POOL_NAME = "members"

        /** The unique index on email (db/migration/V1__members.sql) that answers a duplicate 409 / ALREADY_EXISTS. */
        const val EMAIL_INDEX = "members_email_key"
    }
}
