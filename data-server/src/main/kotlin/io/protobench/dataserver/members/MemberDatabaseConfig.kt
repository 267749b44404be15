package io.protobench.dataserver.members

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import io.protobench.dataserver.config.DataServerSettings
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

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
        return HikariDataSource(
            HikariConfig().apply {
                poolName = POOL_NAME
                jdbcUrl = db.url
                username = db.user
                password = db.password
                maximumPoolSize = db.poolSize
                minimumIdle = db.poolSize
                connectionTimeout = db.connectionTimeoutMs
            },
        )
    }

    companion object {
        /** Names the pool's threads and metrics. */
        const val POOL_NAME = "members"
    }
}
