package io.protobench.dataserver

import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataRequest
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.grpc.ServerEventLoops
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.GrpcTestClient
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.TestPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** The gRPC server on the direct executor and two event-loop threads of its own. */
@DataServerTest
@TestPropertySource(properties = ["protobench.data.grpc.executor=direct", "protobench.data.grpc.event-loop-threads=2"])
class GrpcThreadingTest {
    @Autowired
    private lateinit var grpcServer: GrpcServer

    @Autowired
    private lateinit var web: WebTestClient

    @Test
    fun `unary and streaming calls from several connections deliver the payload`() {
        val clients = List(3) { GrpcTestClient(grpcServer.port) }
        try {
            for (client in clients) {
                for (size in listOf("1kb", "1mb", "1500")) {
                    val request = DataRequest.newBuilder().setSize(size).setRequestId("t").build()
                    val expected = PayloadGenerator.payloadFor(PayloadSize.parse(size))
                    assertThat(client.data.getData(request).payload.toByteArray()).isEqualTo(expected)
                    val streamed = client.data.getDataStream(request).asSequence().map { it.data }
                    assertThat(streamed.reduce { all, chunk -> all.concat(chunk) }.toByteArray()).isEqualTo(expected)
                }
            }
            assertThat(workerThreads()).`as`("three connections over two worker threads").hasSize(2)
        } finally {
            clients.forEach { it.close() }
        }
    }

    @Test
    fun `the settings endpoint reports the executor and the event-loop threads`() {
        web.get().uri("/internal/settings").exchange()
            .expectStatus().isOk
            .expectBody()
            .jsonPath("$.grpc.executor").isEqualTo("direct")
            .jsonPath("$.grpc.eventLoopThreads").isEqualTo(2)
    }

    private fun workerThreads() = Thread.getAllStackTraces().keys.filter {
        it.isAlive &&
            it.name.startsWith(ServerEventLoops.WORKER_THREAD_PREFIX)
    }
}
