package io.protobench.apiserver

import io.protobench.contract.metrics.GcNotifications
import io.protobench.contract.server.ServerSupport
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.context.properties.ConfigurationPropertiesScan
import org.springframework.boot.runApplication
import org.springframework.context.annotation.Import

/**
 * The gateway: takes HTTP from the load generator and calls the data-server over the
 * protocol under test, measuring that hop.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
@Import(ServerSupport::class)
class ApiServerApplication {
    companion object {
        /**
         * The gateway reads `api-server.yml` rather than `application.yml`, so it never picks up
         * the data-server's configuration when both share a classpath (the end-to-end tests).
         */
        const val CONFIG_NAME = "api-server"
    }
}

fun main(args: Array<String>) {
    // Before Spring starts, so that every collection of this JVM counts in its GC figures.
    GcNotifications.listen()
    runApplication<ApiServerApplication>(*args) {
        setDefaultProperties(mapOf("spring.config.name" to ApiServerApplication.CONFIG_NAME))
    }
}
