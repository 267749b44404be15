package io.protobench.dataserver

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.context.properties.ConfigurationPropertiesScan
import org.springframework.boot.runApplication

/**
 * The data-server: serves payloads and level objects over HTTP/JSON, HTTP/protobuf
 * (WebFlux on Netty, HTTP/1.1 and h2c) and gRPC unary and server streaming.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
class DataServerApplication

fun main(args: Array<String>) {
    runApplication<DataServerApplication>(*args)
}
