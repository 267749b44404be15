package io.protobench.driver

import com.google.protobuf.ByteString
import io.grpc.Server
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
import io.grpc.stub.StreamObserver
import io.protobench.contract.proto.CreateMemberRequest
import io.protobench.contract.proto.CreateMemberResponse
import io.protobench.contract.proto.CreateMembersResponse
import io.protobench.contract.proto.DataChunk
import io.protobench.contract.proto.DataRequest
import io.protobench.contract.proto.DataResponse
import io.protobench.contract.proto.DataServiceGrpc
import io.protobench.contract.proto.MemberServiceGrpc
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.InetSocketAddress
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ConcurrentHashMap

/** Direct runs over gRPC, against a small data service in this JVM that answers rightly, or not. */
class GrpcCallsTest {
    /** Bytes the data service leaves out of each answer (0: a correct one). */
    @Volatile private var shortBy = 0
    private val emails = ConcurrentHashMap.newKeySet<String>()
    private val server: Server = NettyServerBuilder.forAddress(InetSocketAddress("127.0.0.1", 0))
        .addService(DataService()).addService(MemberService()).build().start()
    private val address = "127.0.0.1:${server.port}"

    @AfterEach
    fun stop() {
        server.shutdownNow()
    }

    private inner class DataService : DataServiceGrpc.DataServiceImplBase() {
        override fun getData(request: DataRequest, answer: StreamObserver<DataResponse>) {
            val bytes = KB - shortBy
            answer.onNext(DataResponse.newBuilder().setSize(bytes).setPayload(ByteString.copyFrom(ByteArray(bytes))).build())
            answer.onCompleted()
        }

        override fun getDataStream(request: DataRequest, answer: StreamObserver<DataChunk>) {
            // Two chunks; a short answer ends the stream early.
            answer.onNext(DataChunk.newBuilder().setData(ByteString.copyFrom(ByteArray(KB / 2))).build())
            if (shortBy == 0) answer.onNext(DataChunk.newBuilder().setData(ByteString.copyFrom(ByteArray(KB / 2))).build())
            answer.onCompleted()
        }
    }

    private inner class MemberService : MemberServiceGrpc.MemberServiceImplBase() {
        override fun createMember(request: CreateMemberRequest, answer: StreamObserver<CreateMemberResponse>) {
            emails.add(request.email)
            answer.onNext(CreateMemberResponse.newBuilder().setId(emails.size.toLong()).build())
            answer.onCompleted()
        }

        override fun createMembers(answer: StreamObserver<CreateMembersResponse>) = object : StreamObserver<CreateMemberRequest> {
            private var count = 0

            override fun onNext(request: CreateMemberRequest) {
                emails.add(request.email)
                count++
            }

            override fun onError(error: Throwable) = Unit

            override fun onCompleted() {
                answer.onNext(CreateMembersResponse.newBuilder().setCount(count).build())
                answer.onCompleted()
            }
        }
    }

    private fun plan(target: CallTarget, rate: Double = 200.0, durationMs: Long = 500, warmUpMs: Long = 0) =
        Plan("http://127.0.0.1:1", listOf(target), Load.open(rate, 2, 8), durationMs, warmUpMs, grpcAddress = address)

    private val unary = CallTarget(GrpcCalls.GET_DATA, value = KB.toLong(), transport = CallTarget.GRPC, size = "1kb")
    private val stream = unary.copy(path = GrpcCalls.GET_DATA_STREAM)

    @Test
    fun `unary calls are checked by their payload's bytes, and each channel's first calls are its new ones`() {
        val summary = LoadRun(checked(plan(unary, warmUpMs = 250))).execute()
        assertThat(summary.timed).isEqualTo(Counts(100, 0, 0))
        assertThat(summary.throughput).isEqualTo(200.0)
        // Two channels, their first three calls each in the warm-up.
        assertThat(summary.connectionsOpened).isEqualTo(2)
        assertThat(summary.bySteps.keys).containsExactlyElementsOf(Outcome.STEPS)
        assertThat((1..3).map { summary.bySteps.getValue("$it").count }).containsOnly(2)
        assertThat(summary.byPlace).containsOnlyKeys("warm")
        assertThat(summary.firstMessage).isNull()
    }

    @Test
    fun `a server stream is timed to its first message, and one that ends early is a wrong answer`() {
        val whole = LoadRun(plan(stream)).execute()
        assertThat(whole.timed).isEqualTo(Counts(100, 0, 0))
        assertThat(whole.firstMessage!!.count).isEqualTo(100)
        assertThat(whole.firstMessage!!.p50).isLessThanOrEqualTo(whole.latency!!.p50)

        shortBy = 1
        val short = LoadRun(plan(stream)).execute()
        assertThat(short.timed).isEqualTo(Counts(0, 100, 0))
        assertThat(short.throughput).isZero()
        assertThat(short.failures).containsOnlyKeys("the stream carried 512 bytes, expected 1024")
    }

    @Test
    fun `a unary answer one byte short is wrong`() {
        shortBy = 1
        val summary = LoadRun(plan(unary)).execute()
        assertThat(summary.timed.wrong).isEqualTo(100)
        assertThat(summary.failures).containsOnlyKeys("size 1023 with 1023 payload bytes, expected 1024")
    }

    @Test
    fun `members are created from the serialized request, each with an email no other call sent`(@TempDir dir: Path) {
        val placeholder = "m00000000.000000.0000000000.0000@protobench.test"
        val body = dir.resolve("member.pb")
        Files.write(body, CreateMemberRequest.newBuilder().setEmail(placeholder).setName("n").build().toByteArray())
        val at = String(Files.readAllBytes(body), Charsets.ISO_8859_1).indexOf(placeholder)
        val one = CallTarget(GrpcCalls.CREATE_MEMBER, transport = CallTarget.GRPC, body = body.toString(), emails = listOf(at))
        val batch = one.copy(path = GrpcCalls.CREATE_MEMBERS, value = 1)
        // A warm-up first: the first call of a cold JVM took 430-540 ms on a busy 2-core machine,
        // longer than the driver queues arrivals at 100/s, and the timed phase would drop some.
        val single = LoadRun(plan(one, rate = 100.0, warmUpMs = 500)).execute()
        val streamed = LoadRun(plan(batch, rate = 100.0, warmUpMs = 500)).execute()
        assertThat(single.timed).isEqualTo(Counts(50, 0, 0))
        assertThat(streamed.timed).isEqualTo(Counts(50, 0, 0))
        // Every answered call, warm-up included, created a member under an email of its own.
        val created = listOf(single, streamed).sumOf { it.warmUp.correct + it.timed.correct }
        assertThat(emails).hasSize(created.toInt()).allMatch { it.endsWith("@protobench.test") && it != placeholder }
    }

    @Test
    fun `a gRPC target needs the address, its method's fields, and a server that is up`() {
        val problems = Plan(
            "http://127.0.0.1:1",
            listOf(unary.copy(size = null), stream.copy(path = "protobench.DataService/Nope")),
            Load.open(10.0, 1, 1),
            100,
        ).problems()
        assertThat(problems).containsExactly(
            "target 1: protobench.DataService/GetData needs the size to ask for and the bytes expected (value)",
            "target 2: gRPC method 'protobench.DataService/Nope' is not one of ${GrpcCalls.METHODS}",
            "gRPC targets need grpcAddress as host:port, not null",
        )
        val port = server.port
        server.shutdownNow().awaitTermination()
        assertThatThrownBy { checked(plan(unary)) }
            .isInstanceOf(PlanRefused::class.java).hasMessageContaining("cannot reach 127.0.0.1:$port")
    }

    private companion object {
        const val KB = 1024
    }
}
