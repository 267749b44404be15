package io.protobench.dataserver.support

import io.grpc.ManagedChannel
import io.grpc.ManagedChannelBuilder
import io.protobench.contract.proto.DataServiceGrpc
import io.protobench.contract.proto.MemberServiceGrpc
import io.protobench.contract.proto.MemberServiceGrpcKt
import io.protobench.dataserver.grpc.GrpcServer
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.concurrent.TimeUnit

/** A plaintext channel to the data-server's gRPC port, sized for the largest payload. */
class GrpcTestClient(port: Int) : AutoCloseable {
    val channel: ManagedChannel = ManagedChannelBuilder.forAddress("127.0.0.1", port)
        .usePlaintext()
        .maxInboundMessageSize(GrpcServer.MAX_MESSAGE_BYTES)
        .build()

    val data: DataServiceGrpc.DataServiceBlockingStub = DataServiceGrpc.newBlockingStub(channel)

    val members: MemberServiceGrpc.MemberServiceBlockingStub = MemberServiceGrpc.newBlockingStub(channel)

    /** For the client stream (CreateMembers), which the blocking stub cannot make. */
    val memberStreams = MemberServiceGrpcKt.MemberServiceCoroutineStub(channel)

    override fun close() {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS)
    }
}

/** WebTestClient that buffers bodies up to 16 MiB (the default 256 KiB is below a 1mb payload). */
fun WebTestClient.withLargeBodies(): WebTestClient = mutate().codecs { it.defaultCodecs().maxInMemorySize(16 * 1024 * 1024) }.build()

/** GET [uri] (with [headers]) and return the body of a 200 with [contentType]. */
fun WebTestClient.bodyOf(uri: String, contentType: String, vararg headers: Pair<String, String>): ByteArray =
    get().uri(uri).headers { all -> headers.forEach { (name, value) -> all.add(name, value) } }.exchange()
        .expectStatus().isOk
        .expectHeader().contentType(contentType)
        .expectBody(ByteArray::class.java)
        .returnResult().responseBody!!
