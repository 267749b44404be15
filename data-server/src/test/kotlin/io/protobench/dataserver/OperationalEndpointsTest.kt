package io.protobench.dataserver

import com.fasterxml.jackson.module.kotlin.readValue
import io.grpc.health.v1.HealthCheckRequest
import io.grpc.health.v1.HealthCheckResponse.ServingStatus
import io.grpc.health.v1.HealthGrpc
import io.grpc.reflection.v1.ServerReflectionGrpc
import io.grpc.reflection.v1.ServerReflectionRequest
import io.grpc.reflection.v1.ServerReflectionResponse
import io.grpc.stub.StreamObserver
import io.protobench.contract.Json
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import io.protobench.contract.proto.DataServiceGrpc
import io.protobench.contract.proto.MemberServiceGrpc
import io.protobench.dataserver.grpc.DataGrpcService
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.GrpcTestClient
import io.protobench.dataserver.support.bodyOf
import io.protobench.dataserver.web.ComplexController
import io.protobench.dataserver.web.InternalController
import io.protobench.dataserver.web.PayloadController
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.params.provider.EnumSource
import org.springframework.aop.support.AopUtils
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.web.server.LocalServerPort
import org.springframework.context.ApplicationContext
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import reactor.netty.http.HttpProtocol
import reactor.netty.http.client.HttpClient
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

/** Catalog, metrics, settings, actuator, gRPC health and reflection, and HTTP/2 cleartext. */
@DataServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperationalEndpointsTest {
    @Autowired
    private lateinit var web: WebTestClient

    @Autowired
    private lateinit var grpcServer: GrpcServer

    @LocalServerPort
    private var httpPort: Int = 0

    private val mapper = Json.newMapper()
    private val grpc by lazy { GrpcTestClient(grpcServer.port) }

    @AfterAll
    fun closeChannel() = grpc.close()

    @Test
    fun `sizes lists the seed sizes, the cap and what is accepted`() {
        web.get().uri("/data/sizes").exchange()
            .expectStatus().isOk
            .expectBody()
            .jsonPath("$.seedSizes").isEqualTo(PayloadSize.SEED_SIZES)
            .jsonPath("$.maxBytes").isEqualTo(8 * 1024 * 1024)
            .jsonPath("$.accepted").isEqualTo(PayloadSize.ACCEPTED)
    }

    @Test
    fun `levels lists the measured shape of every level in order`() {
        val shapes: List<RecordShape> = mapper.readValue(web.bodyOf("/complex/levels", MediaType.APPLICATION_JSON_VALUE))
        assertThat(shapes).isEqualTo(ComplexityLevel.entries.map { RecordShape.of(it) })
    }

    @Test
    fun `metrics returns a process snapshot whose CPU time grows with work`() {
        val first = snapshot()
        repeat(20) { web.bodyOf("/complex/json?complexity=extreme", MediaType.APPLICATION_JSON_VALUE) }
        val second = snapshot()
        assertThat(second.cpuTimeNs).isGreaterThan(first.cpuTimeNs)
        assertThat(second.allocatedBytes).isGreaterThan(first.allocatedBytes)
        assertThat(second.availableProcessors).isEqualTo(Runtime.getRuntime().availableProcessors())
    }

    @Test
    fun `reset-peak answers 204`() {
        web.post().uri("/internal/metrics/reset-peak").exchange().expectStatus().isNoContent
    }

    @Test
    fun `gc runs a collection and answers the heap it left`() {
        val before = snapshot().gcCount
        val collected = Json.newMapper().readValue<io.protobench.contract.metrics.HeapCollected>(
            web.post().uri("/internal/gc").exchange().expectStatus().isOk.expectBody().returnResult().responseBody!!,
        )
        assertThat(snapshot().gcCount).describedAs("collections counted by the JVM").isGreaterThan(before)
        assertThat(collected.heapUsedBytes).isPositive()
        assertThat(collected.tookMs).isNotNegative()
    }

    @Test
    fun `settings exposes only the protobench settings, with the bound gRPC port`() {
        val settings = mapper.readTree(web.bodyOf("/internal/settings", MediaType.APPLICATION_JSON_VALUE))

        assertThat(settings.fieldNames().asSequence().toList()).containsExactly(
            "grpcPayloadMode",
            "httpBinaryPayloadMode",
            "complexEncoding",
            "chunkSizeBytes",
            "compression",
            "grpc",
            "db",
            "members",
        )
        assertThat(settings["grpc"].fieldNames().asSequence().toList())
            .containsExactly("address", "port", "executor", "eventLoopThreads")
        assertThat(settings["grpc"]["port"].asInt()).isEqualTo(grpcServer.port)
        assertThat(settings["grpc"]["address"].asText()).isEqualTo("127.0.0.1")
        assertThat(settings["compression"].asText()).isEqualTo("none")
        assertThat(settings["httpBinaryPayloadMode"].asText()).isEqualTo("shared")
        assertThat(settings["grpc"]["executor"].asText()).isEqualTo("pool")
        assertThat(settings["grpc"]["eventLoopThreads"].asInt()).isEqualTo(0)
        assertThat(settings["db"].fieldNames().asSequence().toList())
            .containsExactly("url", "user", "poolSize", "connectionTimeoutMs", "schema")
        assertThat(settings["db"]["url"].asText()).startsWith("jdbc:h2:mem:members-")
        assertThat(settings["db"]["poolSize"].asInt()).isEqualTo(10)
        assertThat(settings.toString()).doesNotContain("-X", "java.", "PATH")
    }

    @ParameterizedTest
    @CsvSource(
        "Host,           evil.example,        not a loopback name",
        "Origin,         http://evil.example, cross-site",
        "Sec-Fetch-Site, cross-site,          cross-site",
    )
    fun `internal endpoints refuse foreign and cross-site requests with a JSON 403`(header: String, value: String, reason: String) {
        for (uri in listOf(
            "/internal/metrics",
            "/internal/settings",
            "/internal/members",
            "/INTERNAL/settings",
            "/internal;x=1/settings",
        )) {
            web.get().uri(uri).header(header, value).exchange()
                .expectStatus().isForbidden
                .expectHeader().contentType(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.error").isEqualTo("forbidden")
                .jsonPath("$.message").value<String> { assertThat(it).contains(reason) }
        }
        web.post().uri("/internal/metrics/reset-peak").header(header, value).exchange().expectStatus().isForbidden
        web.post().uri("/internal/gc").header(header, value).exchange().expectStatus().isForbidden
    }

    @Test
    fun `the data API answers whatever the Host and Origin`() {
        web.get().uri("/data/json?size=1kb").header("Host", "evil.example").header("Origin", "http://evil.example")
            .header("Sec-Fetch-Site", "cross-site").exchange()
            .expectStatus().isOk
        web.get().uri("/internal/settings").header("Host", "127.0.0.1:$httpPort").header("Origin", "http://localhost:3000")
            .exchange()
            .expectStatus().isOk
    }

    @Test
    fun `actuator exposes health and prometheus`() {
        web.get().uri("/actuator/health").exchange()
            .expectStatus().isOk
            .expectBody().jsonPath("$.status").isEqualTo("UP")
        val metrics = web.get().uri("/actuator/prometheus").exchange()
            .expectStatus().isOk
            .expectBody(String::class.java).returnResult().responseBody
        assertThat(metrics).contains("jvm_memory_used_bytes")
    }

    @Test
    fun `the read paths are served by the plain beans, not by proxies the database layer could add`(
        @Autowired context: ApplicationContext,
    ) {
        val readPath = listOf(PayloadController::class, ComplexController::class, InternalController::class, DataGrpcService::class)
        assertThat(readPath.map { context.getBean(it.java) }).noneMatch { AopUtils.isAopProxy(it) }
    }

    @Test
    fun `the bound gRPC port is published as local grpc port`(@Autowired env: org.springframework.core.env.Environment) {
        assertThat(grpcServer.port).isPositive
        assertThat(env.getProperty(GrpcServer.PORT_PROPERTY, Int::class.java)).isEqualTo(grpcServer.port)
    }

    @Test
    fun `gRPC health reports SERVING for the server, the data service and the member service`() {
        val health = HealthGrpc.newBlockingStub(grpc.channel)
        listOf("", DataServiceGrpc.SERVICE_NAME, MemberServiceGrpc.SERVICE_NAME).forEach { service ->
            val status = health.check(HealthCheckRequest.newBuilder().setService(service).build()).status
            assertThat(status).describedAs("health of '%s'", service).isEqualTo(ServingStatus.SERVING)
        }
    }

    @Test
    fun `gRPC reflection lists the data and member services`() {
        val answer = CompletableFuture<ServerReflectionResponse>()
        val requests = ServerReflectionGrpc.newStub(grpc.channel).serverReflectionInfo(object : StreamObserver<ServerReflectionResponse> {
            override fun onNext(value: ServerReflectionResponse) {
                answer.complete(value)
            }
            override fun onError(t: Throwable) {
                answer.completeExceptionally(t)
            }
            override fun onCompleted() {}
        })
        requests.onNext(ServerReflectionRequest.newBuilder().setListServices("*").build())
        val services = answer.get(5, TimeUnit.SECONDS).listServicesResponse.serviceList.map { it.name }
        requests.onCompleted()
        assertThat(services).contains("protobench.DataService", "protobench.MemberService", "grpc.health.v1.Health")
    }

    @ParameterizedTest
    @EnumSource(value = H2cStart::class)
    fun `HTTP 2 cleartext delivers the same payload`(start: H2cStart) {
        val (version, body) = HttpClient.create().protocol(*start.protocols)
            .get().uri("http://127.0.0.1:$httpPort/data/binary?size=100kb")
            .responseSingle { response, content -> content.asByteArray().map { response.version().text() to it } }
            .block(Duration.ofSeconds(10))!!
        assertThat(version).isEqualTo("HTTP/2.0")
        assertThat(DataResponse.parseFrom(body).payload.toByteArray())
            .isEqualTo(PayloadGenerator.payloadFor(PayloadSize.parse("100kb")))
    }

    /** The two ways a client starts h2c: prior knowledge, or an HTTP/1.1 Upgrade. */
    enum class H2cStart(vararg val protocols: HttpProtocol) {
        PRIOR_KNOWLEDGE(HttpProtocol.H2C),
        UPGRADE(HttpProtocol.HTTP11, HttpProtocol.H2C),
    }

    private fun snapshot(): ProcessSnapshot =
        mapper.readValue(web.bodyOf("/internal/metrics", MediaType.APPLICATION_JSON_VALUE), ProcessSnapshot::class.java)
}
