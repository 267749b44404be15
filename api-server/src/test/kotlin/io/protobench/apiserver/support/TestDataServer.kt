package io.protobench.apiserver.support

import io.protobench.dataserver.DataServerApplication
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory
import org.springframework.boot.web.reactive.context.ReactiveWebServerApplicationContext
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.http.client.ReactorResourceFactory
import org.springframework.test.context.DynamicPropertyRegistry

/**
 * The real data-server, started in the test JVM on a random HTTP port and a free gRPC
 * port (its own `application.yml`; h2c enabled there).
 */
class TestDataServer private constructor(private val context: ConfigurableApplicationContext) : AutoCloseable {
    val httpPort: Int = (context as ReactiveWebServerApplicationContext).webServer.port
    val grpcPort: Int = context.environment.getRequiredProperty("local.grpc.port", Int::class.java)

    /** Points the gateway under test at this data-server. */
    fun register(registry: DynamicPropertyRegistry) {
        registry.add("protobench.gateway.data-server.http-port") { httpPort }
        registry.add("protobench.gateway.data-server.grpc-port") { grpcPort }
    }

    override fun close() = context.close()

    companion object {
        /** A data-server of its own, with [settings] (`--protobench.data.compression=gzip`) on top of the test ports. */
        fun start(vararg settings: String): TestDataServer = TestDataServer(
            SpringApplicationBuilder(DataServerApplication::class.java, OwnNettyResources::class.java)
                .run("--server.port=0", "--protobench.data.grpc.port=0", "--spring.jmx.enabled=false", *settings),
        )

        /** One data-server for every test class that does not stop it. */
        val shared: TestDataServer by lazy { start() }
    }

    /**
     * Serves the data-server from Reactor Netty, as its own jar does (the gateway's Tomcat
     * is on this test classpath too), with Netty event loops of its own: with Spring
     * Boot's default (Reactor's global resources), closing it would also dispose the loops
     * of the gateway's HTTP client running in the same JVM.
     */
    // Deliberately not a @Configuration: it is a source of the data-server's context only,
    // and must stay invisible to the gateway's component scan of this package.
    class OwnNettyResources {
        @Bean
        fun reactorResourceFactory() = ReactorResourceFactory().apply { isUseGlobalResources = false }

        @Bean
        fun nettyServerFactory(resources: ReactorResourceFactory) =
            NettyReactiveWebServerFactory().apply { setResourceFactory(resources) }
    }
}
