package io.protobench.dataserver

import io.protobench.contract.proto.ComplexRequest
import io.protobench.contract.proto.DataRequest
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.GrpcTestClient
import io.protobench.dataserver.support.bodyOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient

/** `/internal/served` counts the data requests of every protocol, once each, and nothing else. */
@DataServerTest
class ServedRequestsTest {
    @Autowired
    private lateinit var web: WebTestClient

    @Autowired
    private lateinit var grpcServer: GrpcServer

    private fun served(): Long = String(web.bodyOf("/internal/served", MediaType.APPLICATION_JSON_VALUE)).substringAfter("\"requests\":")
        .trimEnd('}').trim().toLong()

    @Test
    fun `each data call counts once, over HTTP and gRPC, unary and streamed, payloads and levels`() {
        val before = served()
        web.bodyOf("/data/json?size=1kb", MediaType.APPLICATION_JSON_VALUE)
        web.bodyOf("/data/binary?size=1kb", "application/x-protobuf")
        web.bodyOf("/complex/json?complexity=simple", MediaType.APPLICATION_JSON_VALUE)
        web.bodyOf("/complex/binary?complexity=simple", "application/x-protobuf")
        GrpcTestClient(grpcServer.port).use { grpc ->
            grpc.data.getData(DataRequest.newBuilder().setSize("1kb").build())
            grpc.data.getDataStream(DataRequest.newBuilder().setSize("200kb").build()).forEach { }
            grpc.data.getComplexData(ComplexRequest.newBuilder().setComplexity("simple").build())
            grpc.data.getComplexDataStream(ComplexRequest.newBuilder().setComplexity("simple").build()).forEach { }
        }
        // Eight data calls; the operational reads in between (the counts themselves, settings) are not counted.
        web.bodyOf("/internal/settings", MediaType.APPLICATION_JSON_VALUE)
        assertThat(served() - before).isEqualTo(8)
    }
}
