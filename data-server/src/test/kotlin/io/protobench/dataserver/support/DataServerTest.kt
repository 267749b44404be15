package io.protobench.dataserver.support

import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment

/**
 * The whole data-server on a random HTTP port and a free gRPC port, with metrics
 * export on (Spring Boot tests switch it off otherwise, hiding /actuator/prometheus).
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = ["protobench.data.grpc.port=0"])
@AutoConfigureObservability(tracing = false)
annotation class DataServerTest
