package io.protobench.apiserver.support

import io.protobench.contract.Json
import io.protobench.contract.members.MemberCounts
import io.protobench.dataserver.DataServerApplication
import io.protobench.dataserver.members.MemberRepository
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory
import org.springframework.boot.web.reactive.context.ReactiveWebServerApplicationContext
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.http.client.ReactorResourceFactory
import org.springframework.test.context.DynamicPropertyRegistry
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse

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

    /** The emails of the members table's rows with [ids], in that order (null for an id without a row). */
    fun emailsOf(ids: List<Long>): List<String?> {
        val repository = context.getBean(MemberRepository::class.java)
        return ids.map { id -> repository.findById(id).map { it.email }.orElse(null) }
    }

    /** The emails of every row of the members table. */
    fun storedEmails(): Set<String> = context.getBean(MemberRepository::class.java).findAll().mapTo(HashSet()) { it.email }

    /** What the data-server's `GET /internal/members` answers now: rows, and members created since start. */
    fun memberCounts(): MemberCounts {
        val request = HttpRequest.newBuilder(URI("http://127.0.0.1:$httpPort/internal/members")).build()
        val response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray())
        check(response.statusCode() == 200) { "GET /internal/members: ${response.statusCode()}" }
        return Json.newMapper().readValue(response.body(), MemberCounts::class.java)
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
        fun nettyServerFactory(resources: ReactorResourceFactory) = NettyReactiveWebServerFactory().apply { setResourceFactory(resources) }
    }
}
