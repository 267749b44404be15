package io.protobench.dataserver

import io.protobench.contract.metrics.GcNotifications
import io.protobench.contract.server.ServerSupport
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration
import org.springframework.boot.context.properties.ConfigurationPropertiesScan
import org.springframework.boot.runApplication
import org.springframework.context.annotation.Import

/**
 * The data-server: serves payloads and level objects over HTTP/JSON, HTTP/protobuf
 * (WebFlux on Netty, HTTP/1.1 and h2c) and gRPC unary and server streaming, and creates
 * members in its database (the write path) over the same protocols.
 */
// DataSourceAutoConfiguration would build an embedded database of its own whenever H2 is on
// the class path; the members database is MemberDatabaseConfig's, and only when the write
// path is on (JPA, Flyway and the repositories back off without a DataSource).
@SpringBootApplication(exclude = [DataSourceAutoConfiguration::class])
@ConfigurationPropertiesScan
@Import(ServerSupport::class)
class DataServerApplication

fun main(args: Array<String>) {
    // Before Spring starts, so that every collection of this JVM counts in its GC figures.
    GcNotifications.listen()
    runApplication<DataServerApplication>(*args)
}
