package io.protobench.bench.lab

import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import com.fasterxml.jackson.annotation.JsonInclude
import com.google.protobuf.ByteString
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.scenario.DurationText
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * One endpoint k6 calls and the answer it must get: [field] equal to [value] (null: any
 * value above 0). Through the gateway [call] is null and [path] a gateway path; called
 * directly (`topology: direct`) [call] says how (see [direct]) and the script checks the
 * answer the data-server itself sends. A member creation has a [body]: the file k6 POSTs,
 * whose emails start at the byte offsets [emails] (see [MemberBodies]).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class K6Target(
    val path: String, val field: String, val value: Long?, val call: String? = null, val size: String? = null,
    val body: String? = null, val emails: List<Int>? = null,
) {
    companion object {
        /**
         * The data-server's own endpoint for a payload [cell] and the exact answer:
         * `http-json` (the `size` field and the base64 payload's decoded length), `http-binary`
         * (the protobuf body's exact length, request id empty), `grpc-unary` (`GetData`: size and
         * payload) and `grpc-stream` (`GetDataStream`: the chunks' bytes together). A member
         * creation goes to `POST /api/members` or `MemberService` (see [directCreation]).
         */
        fun direct(cell: Cell, bodies: MemberBodies? = null): K6Target {
            val target = cell.condition.target
            if (target is Target.Members) return directCreation(target, protocolOf(cell.arm), checkNotNull(bodies) { "member creation needs the bodies' folder" })
            val size = (target as? Target.Size)?.size
                ?: throw IllegalArgumentException("topology direct measures payload sizes and member creation, not ${target.label}")
            val bytes = PayloadSize.parse(size).bytes
            val protocol = protocolOf(cell.arm)
            val call = DIRECT_CALLS.getValue(protocol)
            return when (protocol) {
                Protocol.HTTP_JSON -> K6Target("/data/json?size=$size", "size", bytes.toLong(), call)
                Protocol.HTTP_BINARY -> K6Target("/data/binary?size=$size", "bodyBytes", protobufBodyBytes(bytes), call)
                Protocol.GRPC_UNARY -> K6Target("protobench.DataService/GetData", "size", bytes.toLong(), call, size)
                Protocol.GRPC_STREAM -> K6Target("protobench.DataService/GetDataStream", "bytes", bytes.toLong(), call, size)
            }
        }

        /**
         * One member created on the data-server itself: seed 003's `POST /api/members` with the
         * JSON body (HTTP/JSON) or the protobuf one (HTTP/Binary), answered 201 with the new id;
         * `CreateMember` (gRPC/Unary) answering the id; `CreateMembers` (gRPC/Stream) with a
         * client stream of the one member, answering a count of 1. k6 builds the gRPC messages
         * from the JSON body (proto3 JSON has the same field names).
         */
        private fun directCreation(target: Target.Members, protocol: Protocol, bodies: MemberBodies): K6Target {
            require(target.batch == 1) { "topology direct creates one member per request, not ${target.batch}" }
            val body = bodies.of(target, if (protocol == Protocol.HTTP_BINARY) MemberBodies.Form.PROTOBUF else MemberBodies.Form.JSON)
            val (path, field) = when (protocol) {
                Protocol.HTTP_JSON, Protocol.HTTP_BINARY -> "/api/members" to "id"
                Protocol.GRPC_UNARY -> "protobench.MemberService/CreateMember" to "id"
                Protocol.GRPC_STREAM -> "protobench.MemberService/CreateMembers" to "count"
            }
            return K6Target(path, field, 1, DIRECT_CALLS.getValue(protocol), body = body.path.toString(), emails = body.emailOffsets)
        }

        /** How the script calls the data-server for each protocol (`direct()` in protobench.js). */
        private val DIRECT_CALLS = mapOf(
            Protocol.HTTP_JSON to "http-json", Protocol.HTTP_BINARY to "http-binary", Protocol.GRPC_UNARY to "grpc-unary", Protocol.GRPC_STREAM to "grpc-stream",
        )

        private fun protocolOf(arm: Arm): Protocol = when (arm) {
            is Arm.Of -> arm.protocol
            is Arm.Replica -> arm.protocol
            Arm.NullHop -> throw IllegalArgumentException("the null hop is the gateway's; topology direct has none")
        }

        /** The serialized `DataResponse` the data-server sends for [bytes] with no request id. */
        private fun protobufBodyBytes(bytes: Int): Long =
            DataResponse.newBuilder().setSize(bytes).setPayload(ByteString.copyFrom(ByteArray(bytes))).build().serializedSize.toLong()

        /** The gateway call of [cell] as k6's script takes it: the driver's target ([DriverPlans.target]) in k6's fields. */
        fun of(cell: Cell, levelBytes: (level: String, arm: Arm) -> Long?, bodies: MemberBodies? = null): K6Target =
            DriverPlans.target(cell, levelBytes, bodies).let { K6Target(it.path, checkNotNull(it.field), it.value, body = it.body, emails = it.emails) }
    }
}

/**
 * Everything one k6 run needs: the shared script's environment variables. Kept apart
 * from [K6Runner] so it can be checked without k6.
 */
data class K6Invocation(val script: Path, val environment: Map<String, String>, val duration: Duration) {
    fun command(k6: Path): List<String> = listOf(k6.toString(), "run", "--quiet", "--no-usage-report", script.toString())

    val summary: Path get() = Path.of(environment.getValue("SUMMARY_PATH"))

    companion object {
        private val json = ObjectMapper()

        /**
         * k6's Go runtime at a fixed rate below saturation, where k6 needs well under a core:
         * one scheduler thread (idle Go threads otherwise spin looking for work on the cores
         * the servers need) and a collector that runs a quarter as often. Measured on 2 cores,
         * null hop at 1 KB and 1,400 requests/s, four alternating pairs of 10 s runs: k6 CPU
         * per request 358 -> 287 µs mean, latency percentiles unchanged (docs/methodology.md).
         * Capacity probes keep Go's defaults: there k6 may need more than one core.
         */
        val FIXED_RATE_GO_RUNTIME = mapOf("GOMAXPROCS" to "1", "GOGC" to "400")

        /**
         * [baseUrl]: the gateway, or in a direct run the data-server's HTTP side, with
         * [grpcAddress] its gRPC side. A [warmUp] runs before the timed [duration] (see [connectionWarmUp]).
         */
        fun of(
            script: Path, baseUrl: String, targets: List<K6Target>, offered: LoadLevel, duration: Duration, summary: Path,
            grpcAddress: String? = null, warmUp: Duration = Duration.ZERO,
        ): K6Invocation {
            val goRuntime = if (offered is LoadLevel.Rate) FIXED_RATE_GO_RUNTIME else emptyMap()
            val environment = scriptEnvironment(baseUrl, targets, offered, duration) +
                ("SUMMARY_PATH" to summary.toAbsolutePath().toString()) + goRuntime +
                (if (targets.any { it.body != null }) emailLayout() else emptyMap()) +
                listOfNotNull(grpcAddress?.let { "GRPC_ADDR" to it }, warmUp.takeIf { !it.isZero }?.let { "WARM_UP_MS" to it.toMillis().toString() })
            return K6Invocation(script, environment, duration + warmUp)
        }

        /**
         * The time a direct cost trial's users get to make their first [TrialFigures.COLD_CALLS]
         * calls each before the timed scenario starts (k6 scenarios start at fixed offsets):
         * as long as the trial's own rate takes for that many calls. protobench.js spaces them
         * a quarter faster than that rate, so the last one has a fifth of it to finish. The rate is half the
         * slowest protocol's capacity, so warm connections would need half of it; new ones
         * take longer (1 MB across region: two to five times a warm call). At least
         * [MIN_WARM_UP] (the least maxDuration k6 takes), at most [MAX_WARM_UP] (a slow
         * link's 1 MB): a user still warming when the cell starts keeps its calls tagged new.
         * Closed-model trials (capacity probes) have none.
         */
        fun connectionWarmUp(offered: LoadLevel): Duration {
            val rate = offered as? LoadLevel.Rate ?: return Duration.ZERO
            val calls = rate.startVus.toLong() * TrialFigures.COLD_CALLS
            return Duration.ofMillis(calls * 1000 / rate.perSecond).coerceIn(MIN_WARM_UP, MAX_WARM_UP)
        }

        val MIN_WARM_UP: Duration = Duration.ofSeconds(1)
        val MAX_WARM_UP: Duration = Duration.ofSeconds(30)

        /**
         * Makes this k6 run's member emails differ from every other run's against the same
         * data-server (the soak's, the trials'): k6 numbers virtual users and iterations
         * from 1 and 0 again in each run. Eight base-36 characters ([EmailLayout]).
         */
        private fun emailTag(): String =
            java.lang.Long.toString(tags.nextLong() and Long.MAX_VALUE, 36).padStart(EmailLayout.TAG_DIGITS, '0').takeLast(EmailLayout.TAG_DIGITS)

        private val tags = java.security.SecureRandom()

        /** Where k6 writes each part of a member's email, and this run's tag. */
        private fun emailLayout() = mapOf(
            "EMAIL_TAG" to emailTag(),
            "EMAIL_LAYOUT" to json.writeValueAsString(mapOf(
                "tagAt" to EmailLayout.TAG_AT, "vuAt" to EmailLayout.VU_AT, "vuDigits" to EmailLayout.VU_DIGITS,
                "iterationAt" to EmailLayout.ITERATION_AT, "iterationDigits" to EmailLayout.ITERATION_DIGITS,
            )),
        )

        /**
         * What `protobench.js` reads to make one run, wherever k6 runs: the gateway, the
         * endpoints with their expected answers, the load model and the duration. Where the
         * summary goes (SUMMARY_PATH) is the caller's to add.
         */
        fun scriptEnvironment(gatewayUrl: String, targets: List<K6Target>, offered: LoadLevel, duration: Duration): Map<String, String> {
            val load = when (offered) {
                is LoadLevel.Vus -> mapOf("LOAD_MODEL" to "closed", "VUS" to offered.vus.toString())
                is LoadLevel.Rate -> mapOf(
                    "LOAD_MODEL" to "open", "RATE" to offered.perSecond.toString(),
                    "START_VUS" to offered.startVus.toString(), "MAX_VUS" to offered.maxVus.toString(),
                )
            }
            return mapOf(
                "BASE_URL" to gatewayUrl,
                "TARGETS" to json.writeValueAsString(targets),
                "DURATION" to DurationText.k6(duration),
                "COLD_CALLS" to TrialFigures.COLD_CALLS.toString(),
            ) + load
        }
    }
}

class K6Failed(message: String) : RuntimeException(message)

/**
 * Runs k6 ("$@") and ends it within a fraction of a second when the runner (PROTOBENCH_WATCH_PID)
 * is gone, however the runner died (SIGKILL included), or when the watchdog itself is
 * told to stop. Exits with k6's status. k6's CPU still reaches the runner's /proc
 * counters: the shell reaps k6, the runner reaps the shell.
 */
private const val WATCHDOG = """
"${'$'}@" & k6=${'$'}!
trap 'kill ${'$'}k6 2>/dev/null' TERM INT
while kill -0 ${'$'}k6 2>/dev/null; do
  kill -0 "${'$'}PROTOBENCH_WATCH_PID" 2>/dev/null || kill ${'$'}k6 2>/dev/null
  sleep 0.2
done
wait ${'$'}k6
"""

/**
 * Runs k6 as a child process: to completion, returning its end-of-test summary
 * ([run]), or in the background until stopped ([start], for a soak).
 */
class K6Runner(private val k6: Path, private val logFile: Path, private val placement: CpuPlacement, private val children: ChildProcesses) {
    private val json = ObjectMapper()

    fun run(invocation: K6Invocation): JsonNode {
        Files.deleteIfExists(invocation.summary)
        val process = start(invocation)
        val limit = invocation.duration.plusSeconds(90)
        try {
            if (!process.waitFor(limit.seconds, TimeUnit.SECONDS)) {
                throw K6Failed("k6 did not finish within ${limit.seconds} s; see $logFile")
            }
        } finally {
            if (process.isAlive) process.destroyForcibly()
            children.forget(process)
        }
        // k6 exits non-zero when thresholds fail; we set none, so any non-zero exit is an error.
        if (process.exitValue() != 0 || !Files.exists(invocation.summary)) {
            throw K6Failed("k6 exited with code ${process.exitValue()}; see $logFile")
        }
        return json.readTree(invocation.summary.toFile())
    }

    /** k6 in the background, under a watchdog that ends it when this process dies; the caller stops it with [stop]. */
    fun start(invocation: K6Invocation): Process {
        val command = listOf("sh", "-c", WATCHDOG, "k6-watchdog") + invocation.command(k6)
        val builder = ProcessBuilder(placement.wrap(CpuPlacement.LOAD, command))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        ChildEnvironment.apply(builder, invocation.environment + ("PROTOBENCH_WATCH_PID" to ProcessHandle.current().pid().toString()))
        return builder.start().also(children::track)
    }

    fun stop(process: Process) {
        process.destroy()
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
        children.forget(process)
    }
}
