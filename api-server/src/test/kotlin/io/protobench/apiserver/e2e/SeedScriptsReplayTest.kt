package io.protobench.apiserver.e2e

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.DynamicTest.dynamicTest
import org.junit.jupiter.api.TestFactory
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.http.HttpMethod
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient
import java.util.UUID

/**
 * Every request the seed project's k6 scripts send to the gateway, replayed against the real
 * gateway and data-server in the order of a seed run: setup (health, window start), each
 * request shape [CALLS_PER_SHAPE] times, teardown (window end). Each answer is checked as the
 * seed scripts check it. This keeps the gateway API-compatible with those scripts (BRIEF,
 * "Gateway API") without running k6.
 *
 * The shapes come from the seed documents (000/001: the README, phases 1–7 and its endpoint
 * table; 002: phase 5; 003: member creation; 004: k6 at 10 and 100 VUs; see docs/seed-claims.md)
 * and the BRIEF's API list. Each row names its source, so a renamed route or a changed default
 * fails the row of the seed request it breaks. The literal paths, sizes and labels are written
 * out here rather than taken from the main code: a rename there must fail here.
 * Requests the seeds send that this gateway does not serve are listed in [NOT_SERVED] with the
 * clear refusal the gateway gives them, checked after the window (a change either way fails). The gRPC calls ghz (seed 003) and k6 (seed
 * 004) make go straight to a gRPC server (the data-server in the lab), never to the gateway, so they are not listed.
 */
@GatewayTest
class SeedScriptsReplayTest {
    @Autowired
    lateinit var web: WebTestClient

    /** Calls sent to a hop route (data, complex, members): the window must count each. */
    private var hopCalls = 0L

    companion object {
        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @TestFactory
    fun `a seed run is served and answered as the seed scripts check it`(): List<DynamicTest> = listOf(
        dynamicTest("setup: GET /api/health (setup of the seed-style k6 script)") { checkHealth() },
        dynamicTest("setup: POST $START (seeds 000/001 endpoint table; setup of the seed-style k6 script)") { startWindow() },
    ) +
        SEED_REQUESTS.map { request -> dynamicTest(request.name) { replay(request) } } +
        dynamicTest("teardown: POST $END (seeds 000/001 endpoint table; teardown of the seed-style k6 script)") { endWindow() } +
        NOT_SERVED.map { request -> dynamicTest(request.name) { refused(request) } }

    /** The gateway's answer to a seed request it does not serve: the refusal [NOT_SERVED] names, with a message. */
    private fun refused(request: NotServed) {
        val statuses = List(request.sends) { send(request.request) }
        val (status, answer) = statuses.last()
        assertThat(statuses.dropLast(1).map { it.first }).`as`("${request.name}: the sends before the last").allMatch { it == 200 }
        assertThat(status).`as`("${request.name}: ${request.reason} (answer: $answer)").isEqualTo(request.status)
        assertThat(answer.toString()).`as`("${request.name}: the refusal says why").isNotBlank()
    }

    private fun replay(request: SeedRequest) = repeat(CALLS_PER_SHAPE) {
        val (status, answer) = send(request)
        if (request.check.crossesHop) hopCalls++
        assertThat(status).`as`("${request.name}: status (answer: $answer)").isEqualTo(200)
        request.check.check(answer, request.name)
    }

    private fun send(request: SeedRequest): Pair<Int, JsonNode> {
        val body = request.body
        return when {
            request.method == HttpMethod.GET -> web.getJson(request.uri)
            body == null -> web.postJson(request.uri)
            else -> web.postJson(request.uri, body())
        }
    }

    /** 200 when the gateway reaches the data-server (BRIEF), which the seed-style k6 script's setup checks before loading. */
    private fun checkHealth() {
        val (status, answer) = web.getJson("/api/health")
        assertThat(status).`as`("GET /api/health (answer: $answer)").isEqualTo(200)
    }

    /** The seed scripts read only the status of the start answer. */
    private fun startWindow() {
        val (status, answer) = web.postJson(START)
        assertThat(status).`as`("POST $START (answer: $answer)").isEqualTo(200)
    }

    /** Every field the BRIEF lists, and the values the seed-style k6 script's teardown checks. */
    private fun endWindow() {
        val (status, report) = web.postJson(END)
        assertThat(status).`as`("POST $END (answer: $report)").isEqualTo(200)
        for (field in END_FIGURES) {
            assertThat(report.field(field).isNumber).`as`("POST $END: $field is a number (answer: $report)").isTrue()
        }
        assertThat(report.field("protocol").asText()).`as`("POST $END: protocol").isEqualTo(WINDOW_PROTOCOL)
        assertThat(report.field("testName").asText()).`as`("POST $END: testName").isEqualTo(WINDOW_TEST_NAME)
        assertThat(report.field("totalRequests").asLong()).`as`("POST $END: totalRequests, every replayed hop call").isEqualTo(hopCalls)
        assertThat(report.field("successRequests").asLong()).`as`("POST $END: successRequests = totalRequests")
            .isEqualTo(report.field("totalRequests").asLong())
        assertThat(report.field("throughputRps").asDouble()).`as`("POST $END: throughputRps").isPositive()
        assertThat(report.field("latency.p95Ms").asDouble()).`as`("POST $END: latency.p95Ms >= latency.p50Ms")
            .isGreaterThanOrEqualTo(report.field("latency.p50Ms").asDouble())
        assertThat(report.field("serverMetrics.peakHeapMb").asDouble()).`as`("POST $END: serverMetrics.peakHeapMb").isPositive()
        assertThat(report.field("dataTransfer.totalBytes").asLong()).`as`("POST $END: dataTransfer.totalBytes").isPositive()
    }
}

/** Each shape is sent twice: a k6 VU loops over its requests, so a shape must serve more than once. More would be a load test. */
private const val CALLS_PER_SHAPE = 2

// The measurement window as a seed run opens it: the protocol label as the seeds name protocols,
// slash included (free text, echoed in the report).
private const val WINDOW_PROTOCOL = "HTTP/JSON"
private const val WINDOW_TEST_NAME = "seed-scripts-replay"
private const val START = "/benchmark/start?protocol=$WINDOW_PROTOCOL&testName=$WINDOW_TEST_NAME"
private const val END = "/benchmark/end"

/** The numeric fields of the `/benchmark/end` answer the seed scripts read (BRIEF, "Gateway API"). */
private val END_FIGURES = listOf(
    "durationMs", "totalRequests", "successRequests", "failedRequests", "throughputRps",
    "latency.avgMs", "latency.minMs", "latency.maxMs", "latency.p50Ms", "latency.p95Ms", "latency.p99Ms",
    "serverMetrics.startHeapMb", "serverMetrics.endHeapMb", "serverMetrics.peakHeapMb", "serverMetrics.gcCount",
    "serverMetrics.gcTimeMs", "serverMetrics.avgCpuUsagePercent", "serverMetrics.peakCpuUsagePercent",
    "serverMetrics.avgProcessCpuPercent", "serverMetrics.peakProcessCpuPercent",
    "dataTransfer.totalBytes", "dataTransfer.avgResponseBytes",
)

/** The node at a dotted [path] (`latency.p95Ms`); a missing node when absent. */
private fun JsonNode.field(path: String): JsonNode = at("/" + path.replace('.', '/'))

/**
 * One request a seed script sends: [method] [path]?[query] (a parameter left out is left out on
 * purpose: the gateway must apply the seed's default), [body] when the seed posts one (a
 * function: each call gets its own), and the [check] of the seed on the 200 answer.
 */
private class SeedRequest(
    val source: String,
    val method: HttpMethod,
    val path: String,
    val query: String?,
    val check: SeedCheck,
    val body: (() -> Any)? = null,
) {
    val uri = path + (query?.let { "?$it" } ?: "")
    val name = "${method.name()} $uri ($source)"
}

/** A request the seeds send that this gateway does not serve: the [status] it answers the last of [sends], and why. */
private class NotServed(val request: SeedRequest, val status: Int, val reason: String, val sends: Int = 1) {
    val name = "not served: ${request.name}"
}

/** What a seed script checks in a 200 answer. [crossesHop]: the gateway calls the data-server, so the window counts the call. */
private sealed interface SeedCheck {
    val crossesHop: Boolean

    fun check(answer: JsonNode, request: String)
}

/** `/api/data/...`: the BRIEF's fields, the seeds' protocol name, and every payload byte asked for (the seeds check payloadSize > 0). */
private class PayloadDelivered(val protocol: String, val bytes: Int) : SeedCheck {
    override val crossesHop = true

    override fun check(answer: JsonNode, request: String) {
        assertFields(answer, request, "requestId", "protocol", "payloadSize", "latencyMs")
        assertThat(answer.field("protocol").asText()).`as`("$request: protocol").isEqualTo(protocol)
        assertThat(answer.field("payloadSize").asInt()).`as`("$request: payloadSize").isEqualTo(bytes)
    }
}

/** `/api/complex/...`: the BRIEF's fields, the protocol and level, and serializedSize > 0 (as the seed-style k6 script checks). */
private class LevelDelivered(val protocol: String, val level: String) : SeedCheck {
    override val crossesHop = true

    override fun check(answer: JsonNode, request: String) {
        assertFields(answer, request, "requestId", "protocol", "complexity", "serializedSize", "latencyMs")
        assertThat(answer.field("protocol").asText()).`as`("$request: protocol").isEqualTo(protocol)
        assertThat(answer.field("complexity").asText()).`as`("$request: complexity").isEqualTo(level)
        assertThat(answer.field("serializedSize").asLong()).`as`("$request: serializedSize").isPositive()
    }
}

/** `POST /api/members/...`: one member created, under the id answered (seed 003's hey and ghz count the 200s). */
private class MemberCreated(val protocol: String) : SeedCheck {
    override val crossesHop = true

    override fun check(answer: JsonNode, request: String) {
        assertThat(answer.field("protocol").asText()).`as`("$request: protocol").isEqualTo(protocol)
        assertThat(answer.field("created").asInt()).`as`("$request: created").isEqualTo(1)
        assertThat(answer.field("ids").map { it.asLong() }).`as`("$request: ids").singleElement().matches({ it > 0 }, "a member id")
    }
}

/** `/api/sizes`, `/api/complexities`: what is accepted names every value the seeds send. */
private class Accepts(val values: List<String>) : SeedCheck {
    override val crossesHop = false

    override fun check(answer: JsonNode, request: String) {
        val text = answer.toString()
        assertThat(values.filterNot { "\"$it\"" in text }).`as`("$request: seed values not listed in $text").isEmpty()
    }
}

private fun assertFields(answer: JsonNode, request: String, vararg names: String) = assertThat(
    names.filter {
        answer.field(it).isMissingNode
    },
).`as`("$request: fields missing from $answer").isEmpty()

/** The gateway's protocol path segments as the seed scripts call them, and the seeds' name of each (result tables of seeds 000–002). */
private val SEED_PROTOCOLS = listOf(
    "http/json" to "HTTP/JSON",
    "http/binary" to "HTTP/Binary",
    "grpc" to "gRPC/Unary",
    "grpc/stream" to "gRPC/Stream",
)

/** A `size` the seeds send (null: left out) and the payload bytes it means (1kb = 1024 bytes). */
private class SeedSize(val parameter: String?, val bytes: Int, val source: String) {
    fun request(segment: String, protocol: String) =
        SeedRequest(source, HttpMethod.GET, "/api/data/$segment", parameter?.let { "size=$it" }, PayloadDelivered(protocol, bytes))
}

private val SEED_SIZES = listOf(
    // Left out, the size is the seed gateway's default, 1mb (docs/reference.md, "Endpoints and curl
    // recipes": "As in the seed project's gateway"; the seed documents do not print it): phase 1 is
    // the 1MB run, and their endpoint table lists /api/data without parameters.
    SeedSize(null, 1_048_576, "seeds 000/001 phase 1 and endpoint table, size left out: default 1mb"),
    SeedSize("1mb", 1_048_576, "seeds 000/001 phase 1"),
    SeedSize("1kb", 1_024, "seeds 000/001 phase 2"),
    SeedSize("10kb", 10_240, "seeds 000/001 phases 2, 3 and 4; the seed-style k6 script"),
    SeedSize("50kb", 51_200, "seeds 000/001 phase 4"),
    SeedSize("100kb", 102_400, "seeds 000/001 phase 4"),
    SeedSize("200kb", 204_800, "seeds 000/001 phase 4"),
    SeedSize("500kb", 512_000, "seeds 000/001 phase 4"),
)

/** A `complexity` the seeds send (null: left out) and the level the answer must name. */
private class SeedLevel(val parameter: String?, val level: String, val source: String) {
    fun request(segment: String, protocol: String) =
        SeedRequest(source, HttpMethod.GET, "/api/complex/$segment", parameter?.let { "complexity=$it" }, LevelDelivered(protocol, level))
}

private val SEED_LEVELS = listOf(
    // Left out, the level is the seed gateway's default, simple (docs/reference.md, as for the size).
    SeedLevel(null, "simple", "complexity left out: the seed gateway's default, simple"),
    // Seed 004's k6 runs compare one small message; docs/seed-claims.md reads them as complexity=simple.
    SeedLevel("simple", "simple", "seeds 000/001 phase 5, seed 002, seed 004"),
    SeedLevel("medium", "medium", "seeds 000/001 phase 5, seed 002"),
    SeedLevel("complex", "complex", "seeds 000/001 phase 5, seed 002; the seed-style k6 script"),
    SeedLevel("ultra", "ultra", "seeds 000/001 phase 6, seed 000 phase 7"),
    SeedLevel("extreme", "extreme", "seeds 000/001 phase 6, seed 000 phase 7"),
)

/** Seed 003's `profileImageBase64`, as its hey and ghz examples send it. */
private const val SEED_003_IMAGE =
    "QkFTRTY0X1RoaXNJc0EgU2FtcGxlIEJhc2U2NCBTdHJpbmcgVXNlZCBmb3IgVGVzdCBQdXJwb3NlcyAuLi4gLSBDYW4gQmUgRXZlbiBMb25nZXIgT25lCg=="

// Seed 003's etcInfo texts, verbatim (the hey one with the JSON its shell quoting unescapes to).
private const val SEED_003_HEY_ETC_INFO =
    """이곳에는 정말 길고 긴 텍스트나 JSON, 혹은 대규모 문자열을 넣어서 직렬화 부담을 높일 수 있습니다. 예: {"key":"value","nested":{"key2":"value2"}}"""
private const val SEED_003_GHZ_ETC_INFO = "gRPC에서도 긴 문자열을 추가할 수 있습니다. base64 인코딩된 파일을 1MB 이상 넣어서 테스트해보세요."

/**
 * Seed 003's member body, field for field, but under a fresh email per call: the seed repeats
 * one email, which the data-server refuses after the first (see [NOT_SERVED]).
 */
private fun seed003Member(emailDomain: String, name: String, etcInfo: String) = mapOf(
    "email" to "bigload-${UUID.randomUUID()}@$emailDomain",
    "password" to "test123!",
    "name" to name,
    "profileImageBase64" to SEED_003_IMAGE,
    "etcInfo" to etcInfo,
)

private val SEED_REQUESTS: List<SeedRequest> = buildList {
    for ((segment, protocol) in SEED_PROTOCOLS) {
        SEED_SIZES.mapTo(this) { it.request(segment, protocol) }
        SEED_LEVELS.mapTo(this) { it.request(segment, protocol) }
    }
    // Seed 003 §3 (1): hey -m POST -H "Content-Type: application/json" -d '{...}' (HTTP REST).
    add(
        SeedRequest("seed 003 §3 (1), hey", HttpMethod.POST, "/api/members/http/json", null, MemberCreated("HTTP/JSON")) {
            seed003Member("http.com", "LargeDataTester", SEED_003_HEY_ETC_INFO)
        },
    )
    // Seed 003 §3 (2): ghz --call MemberService.CreateMember -d '{...}' (gRPC unary).
    add(
        SeedRequest("seed 003 §3 (2), ghz", HttpMethod.POST, "/api/members/grpc", null, MemberCreated("gRPC/Unary")) {
            seed003Member("grpc.com", "LargeDataTesterGRPC", SEED_003_GHZ_ETC_INFO)
        },
    )
    // What is accepted: the BRIEF lists both with the seed-compatible API.
    add(SeedRequest("BRIEF, Gateway API", HttpMethod.GET, "/api/sizes", null, Accepts(SEED_SIZES.mapNotNull { it.parameter })))
    add(SeedRequest("BRIEF, Gateway API", HttpMethod.GET, "/api/complexities", null, Accepts(SEED_LEVELS.mapNotNull { it.parameter })))
}

private val NOT_SERVED = listOf(
    NotServed(
        SeedRequest("seeds 000/001 endpoint table", HttpMethod.GET, "/api/data", null, NoCheck),
        400,
        "the table names the route without its protocol segment; the gateway serves /api/data/<protocol> only, " +
            "as the BRIEF lists it, and answers 400 'invalid protocol'",
    ),
    NotServed(
        SeedRequest("seed 003 §3 (1), hey", HttpMethod.POST, "/api/members", null, NoCheck) {
            seed003Member("http.com", "LargeDataTester", SEED_003_HEY_ETC_INFO)
        },
        400,
        "seed 003 posts to its own server, which in the lab is the data-server (POST /api/members there); " +
            "the gateway takes POST /api/members/<protocol> and answers 400 'invalid protocol'",
    ),
    repeatedEmail().let { body ->
        NotServed(
            SeedRequest("seed 003 §3, hey -n 100 with one body", HttpMethod.POST, "/api/members/http/json", null, NoCheck) { body },
            409,
            "the data-server keeps emails unique: the first such request creates the member, a repeat is 409 'duplicate email'; " +
                "the lab's runs send a fresh email per request",
            sends = 2,
        )
    },
)

/** One seed 003 body sent twice, as hey's -n 100 sends it: the same email each time (fresh per test run). */
private fun repeatedEmail() = seed003Member("http.com", "LargeDataTester", SEED_003_HEY_ETC_INFO)

/** A refused request's answer is checked by [NotServed], not by a seed script's check. */
private object NoCheck : SeedCheck {
    override val crossesHop = false

    override fun check(answer: JsonNode, request: String) = Unit
}
