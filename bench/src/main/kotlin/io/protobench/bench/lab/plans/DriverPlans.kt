package io.protobench.bench.lab.plans

import com.google.protobuf.ByteString
import io.protobench.bench.lab.writes.MemberBodies
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import io.protobench.driver.CallTarget
import io.protobench.driver.Connections
import io.protobench.driver.GrpcCalls
import io.protobench.driver.Load
import io.protobench.driver.Plan
import java.time.Duration

/** What the load driver is told to run for a trial or a soak, through the gateway or straight to the data-server. */
object DriverPlans {
    /**
     * The gateway call of [cell] and its one correct answer: status 200 with the payload's
     * bytes (`payloadSize`), the level's `serializedSize` as [levelBytes] gives it for the arm
     * (null when unknown: any size above 0), the batch's `count` of the user's message, or every member of the batch `created`, posting
     * the body [bodies] wrote for it with a fresh email in each member.
     */
    fun target(cell: Cell, levelBytes: (level: String, arm: Arm) -> Long?, bodies: MemberBodies? = null): CallTarget =
        when (val target = cell.condition.target) {
            is Target.Size -> CallTarget(target.gatewayPath(cell.arm), "payloadSize", PayloadSize.parse(target.size).bytes.toLong())

            is Target.Level -> CallTarget(target.gatewayPath(cell.arm), "serializedSize", levelBytes(target.complexity, cell.arm))

            is Target.Items -> CallTarget(target.gatewayPath(cell.arm), "count", target.count.toLong())

            is Target.Members -> {
                val body = checkNotNull(bodies) { "member creation needs the bodies' folder" }.of(target)
                CallTarget(
                    target.gatewayPath(cell.arm),
                    "created",
                    target.createdBy(cell.arm).toLong(),
                    method = "POST",
                    body = body.path.toString(),
                    emails = body.emailOffsets,
                )
            }
        }

    /**
     * The data-server's own endpoint for a payload [cell] (`topology: direct`) and its exact
     * answer: HTTP/JSON `size` and at least the base64 payload's length, HTTP/Binary the
     * protobuf body's exact length (request id empty), gRPC/Unary `GetData` (size and payload),
     * gRPC/Stream `GetDataStream` (the chunks' bytes together). A member creation goes to
     * `POST /api/members` or `MemberService` ([directCreation]).
     */
    fun direct(cell: Cell, bodies: MemberBodies? = null): CallTarget {
        val target = cell.condition.target
        val protocol = protocolOf(cell.arm)
        if (target is Target.Members) {
            return directCreation(
                target,
                protocol,
                checkNotNull(bodies) { "member creation needs the bodies' folder" },
            )
        }
        val size = (target as? Target.Size)?.size
            ?: throw IllegalArgumentException("topology direct measures payload sizes and member creation, not ${target.label}")
        val bytes = PayloadSize.parse(size).bytes.toLong()
        return when (protocol) {
            Protocol.HTTP_JSON -> CallTarget("/data/json?size=$size", "size", bytes, minBytes = 4 * ((bytes + 2) / 3))
            Protocol.HTTP_BINARY -> CallTarget("/data/binary?size=$size", value = protobufBodyBytes(bytes.toInt()), accept = PROTOBUF)
            Protocol.GRPC_UNARY -> CallTarget(GrpcCalls.GET_DATA, value = bytes, transport = CallTarget.GRPC, size = size)
            Protocol.GRPC_STREAM -> CallTarget(GrpcCalls.GET_DATA_STREAM, value = bytes, transport = CallTarget.GRPC, size = size)
        }
    }

    /**
     * One member created on the data-server itself: seed 003's `POST /api/members` with the
     * JSON body (HTTP/JSON) or the protobuf one (HTTP/Binary), answered 201 with the new id;
     * `CreateMember` (gRPC/Unary) answering the id; `CreateMembers` (gRPC/Stream) with a
     * client stream of the one member, answering a count of 1. gRPC sends the protobuf body
     * as the message itself.
     */
    private fun directCreation(target: Target.Members, protocol: Protocol, bodies: MemberBodies): CallTarget {
        require(target.batch == 1) { "topology direct creates one member per request, not ${target.batch}" }
        val form = if (protocol == Protocol.HTTP_JSON) MemberBodies.Form.JSON else MemberBodies.Form.PROTOBUF
        val body = bodies.of(target, form)
        val file = body.path.toString()
        return when (protocol) {
            Protocol.HTTP_JSON, Protocol.HTTP_BINARY -> CallTarget(
                "/api/members",
                "id",
                method = "POST",
                status = 201,
                body = file,
                emails = body.emailOffsets,
                accept = JSON,
                contentType = if (form == MemberBodies.Form.JSON) JSON else PROTOBUF,
            )

            Protocol.GRPC_UNARY -> CallTarget(GrpcCalls.CREATE_MEMBER, transport = CallTarget.GRPC, body = file, emails = body.emailOffsets)

            Protocol.GRPC_STREAM -> CallTarget(
                GrpcCalls.CREATE_MEMBERS,
                value = 1,
                transport = CallTarget.GRPC,
                body = file,
                emails = body.emailOffsets,
            )
        }
    }

    private fun protocolOf(arm: Arm): Protocol = when (arm) {
        is Arm.Of -> arm.protocol
        is Arm.Replica -> arm.protocol
        is Arm.OnClient -> throw IllegalArgumentException("a set of hop clients is the gateway's; topology direct has none")
        Arm.NullHop -> throw IllegalArgumentException("the null hop is the gateway's; topology direct has none")
    }

    /** The serialized `DataResponse` the data-server sends for [bytes] with no request id. */
    private fun protobufBodyBytes(bytes: Int): Long =
        DataResponse.newBuilder().setSize(bytes).setPayload(ByteString.copyFrom(ByteArray(bytes))).build().serializedSize.toLong()

    private const val JSON = "application/json"
    private const val PROTOBUF = "application/x-protobuf"

    /**
     * The warm-up a direct cost trial gets before it is timed, on the same connections: as
     * long as the trial's rate takes for each of its starting connections to make its first
     * [Connections.COLD_CALLS] calls, and a quarter more so the last of them can finish. At
     * least [MIN_WARM_UP], at most [MAX_WARM_UP] (a slow link's 1 MB). Closed-model trials
     * (capacity probes) have none.
     */
    fun connectionWarmUp(offered: LoadLevel): Duration {
        val rate = offered as? LoadLevel.Rate ?: return Duration.ZERO
        val calls = rate.startVus.toLong() * Connections.COLD_CALLS
        return Duration.ofMillis(calls * 1000 * 5 / 4 / rate.perSecond).coerceIn(MIN_WARM_UP, MAX_WARM_UP)
    }

    val MIN_WARM_UP: Duration = Duration.ofSeconds(1)
    val MAX_WARM_UP: Duration = Duration.ofSeconds(30)

    /** A fixed rate on a pool of keep-alive connections, or users in a loop. */
    fun load(offered: LoadLevel): Load = when (offered) {
        is LoadLevel.Rate -> Load.open(offered.perSecond.toDouble(), offered.startVus, offered.maxVus)
        is LoadLevel.Vus -> Load.closed(offered.vus)
    }

    fun plan(baseUrl: String, targets: List<CallTarget>, offered: LoadLevel, duration: Duration) =
        Plan(baseUrl, targets, load(offered), duration.toMillis())

    /**
     * A direct run's plan: the data-server's HTTP side at [baseUrl] and its gRPC side at
     * [grpcAddress], HTTP through Reactor Netty as the gateway calls it, a [warmUp] first.
     */
    fun directPlan(
        baseUrl: String,
        grpcAddress: String,
        targets: List<CallTarget>,
        offered: LoadLevel,
        duration: Duration,
        warmUp: Duration = Duration.ZERO,
    ) = plan(baseUrl, targets, offered, duration).copy(grpcAddress = grpcAddress, client = Plan.REACTOR, warmUpMs = warmUp.toMillis())
}
