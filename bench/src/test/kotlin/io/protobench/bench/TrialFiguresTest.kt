package io.protobench.bench

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.CpuUsage
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.TrialFigures
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.DataTransfer
import io.protobench.contract.window.LatencyStats
import io.protobench.contract.window.Processes
import io.protobench.contract.window.ServerMetrics
import io.protobench.contract.window.TimelineReport
import io.protobench.contract.window.WindowReport
import java.time.Instant
import org.junit.jupiter.api.io.TempDir
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.ScenarioParser
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import java.nio.file.Path
import java.time.Duration
import io.protobench.bench.lab.EmailLayout
import io.protobench.bench.lab.K6Invocation
import io.protobench.bench.lab.K6Target
import io.protobench.bench.lab.MemberBodies

class TrialFiguresTest {
    private val json = ObjectMapper()

    private fun usage(cpuUs: Double, allocated: Double, gcs: Long, peakHeapMb: Double) = Fixtures.usage(cpuUs, allocated, gcs, peakHeapMb)

    private fun window(api: ProcessUsage, data: ProcessUsage?) = Fixtures.window(api, data)

    @Test
    fun `figures come from the k6 summary and the gateway window`() {
        val k6 = json.readTree("""{"metrics":{
            "http_reqs":{"values":{"count":3000,"rate":1000.5}},
            "http_req_duration":{"values":{"avg":2.5,"med":2.0,"p(90)":3.0,"p(95)":4.0,"p(99)":6.0,"p(99.9)":9.0,"max":12.0}},
            "checks":{"values":{"passes":2998,"fails":2}}},
            "state":{"testRunDurationMs":3000}}""")
        val gateway = window(usage(120.0, 5000.0, 2, 300.0), usage(80.0, 3000.0, 1, 200.0))
        val f = TrialFigures.from(k6, gateway)
        // Throughput counts correct answers only: the script's one check passes for status 200 with the exact size.
        assertThat(f[Figure.THROUGHPUT.key]!!).isCloseTo(2998 / 3.0, within(1e-9))
        assertThat(f[Figure.LATENCY_P50.key]).isEqualTo(2.0)
        assertThat(f[Figure.LATENCY_P999.key]).isEqualTo(9.0)
        assertThat(f[Figure.ERROR_RATE.key]!!).isCloseTo(2 / 3000.0, within(1e-12))
        assertThat(f[Figure.TOTAL_CPU_US.key]).isEqualTo(200.0)
        assertThat(f[Figure.REQ_PER_CPU_SECOND.key]).isEqualTo(5000.0)
        assertThat(f[Figure.DATA_PEAK_HEAP.key]).isEqualTo(200.0)
    }

    @Test
    fun `both servers' CPU per request leaves out their JIT compiler threads`() {
        val figures = mapOf(Figure.API_CPU_US.key to 300.0, Figure.DATA_CPU_US.key to 200.0,
            Figure.API_JIT_CPU_US.key to 40.0, Figure.DATA_JIT_CPU_US.key to 10.0)
        assertThat(TrialFigures.totals(figures)[Figure.TOTAL_CPU_US.key]).isEqualTo(450.0)
        assertThat(TrialFigures.totals(figures - Figure.API_JIT_CPU_US.key)[Figure.TOTAL_CPU_US.key]).isEqualTo(490.0)
    }

    @Test
    fun `a PostgreSQL server's CPU per request is counted with the servers', as H2's is inside the data-server's`() {
        val usage = CpuUsage(2.0, mapOf("k6" to 0.5, CpuAccounting.DATABASE to 0.25), 0.5, 2)
        val figures = TrialFigures.fromCpu(usage, requests = 1000.0)
        assertThat(figures[Figure.DB_CPU_US.key]).isEqualTo(500.0) // 0.25 cores for 2 s over 1000 requests
        val servers = mapOf(Figure.API_CPU_US.key to 300.0, Figure.DATA_CPU_US.key to 200.0)
        assertThat(TrialFigures.totals(servers + figures)[Figure.TOTAL_CPU_US.key]).isEqualTo(1000.0)
        // Without a database apart (H2), nothing is added.
        assertThat(TrialFigures.fromCpu(usage.copy(coresUsed = mapOf("k6" to 0.5)), 1000.0)[Figure.DB_CPU_US.key]).isNull()
        assertThat(TrialFigures.totals(servers)[Figure.TOTAL_CPU_US.key]).isEqualTo(500.0)
    }

    @Test
    fun `a gateway without data-server figures leaves them empty instead of inventing them`() {
        val f = TrialFigures.from(null, window(usage(10.0, 100.0, 0, 10.0), null))
        assertThat(f[Figure.DATA_CPU_US.key]).isNull()
        assertThat(f).doesNotContainKey(Figure.TOTAL_CPU_US.key)
    }

    @Test
    fun `the k6 invocation carries the cell as environment`() {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\ncomplexities: [ultra]\nprotocols: [gRPC/Stream]\nload: {model: open, rates: [50], maxVus: 20}", "t")
        val cell = scenario.cells.first()
        val target = K6Target(cell.condition.target.gatewayPath(cell.arm), "serializedSize", 1234)
        val inv = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", listOf(target), LoadLevel.Rate(50, 20), Duration.ofSeconds(3), Path.of("/tmp/sum.json"))
        assertThat(inv.environment).containsEntry("TARGETS", """[{"path":"/api/complex/grpc/stream?complexity=ultra","field":"serializedSize","value":1234}]""")
            .containsEntry("LOAD_MODEL", "open").containsEntry("RATE", "50").containsEntry("MAX_VUS", "20").containsEntry("START_VUS", "20")
            .containsEntry("DURATION", "3000ms")
            .containsEntry("GOMAXPROCS", "1")
        val direct = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", listOf(target), LoadLevel.Rate(50, 20, startVus = 5), Duration.ofSeconds(3), Path.of("/tmp/sum.json"))
        assertThat(direct.environment).containsEntry("START_VUS", "5").containsEntry("MAX_VUS", "20").doesNotContainKey("WARM_UP_MS")
        assertThat(direct.duration).isEqualTo(Duration.ofSeconds(3))
        val warmed = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", listOf(target), LoadLevel.Rate(50, 20, startVus = 5), Duration.ofSeconds(3),
            Path.of("/tmp/sum.json"), warmUp = Duration.ofMillis(1500))
        // k6 is given the warm-up on top of the trial, and so is the runner's wait for it.
        assertThat(warmed.environment).containsEntry("WARM_UP_MS", "1500").containsEntry("DURATION", "3000ms")
        assertThat(warmed.duration).isEqualTo(Duration.ofMillis(4500))
    }

    @Test
    fun `a direct cost trial's users get as long to warm their connections as the trial's rate takes for their first calls, within bounds`() {
        val calls = TrialFigures.COLD_CALLS
        // 20 users at 7 calls a second (1 MB across wan): 60 calls take 8.6 s at that rate.
        assertThat(K6Invocation.connectionWarmUp(LoadLevel.Rate(7, 50, startVus = 20))).isEqualTo(Duration.ofMillis(20L * calls * 1000 / 7))
        // 1 KB at 429/s would need 140 ms: the least k6 accepts is kept.
        assertThat(K6Invocation.connectionWarmUp(LoadLevel.Rate(429, 50, startVus = 20))).isEqualTo(K6Invocation.MIN_WARM_UP)
        assertThat(K6Invocation.connectionWarmUp(LoadLevel.Rate(1, 50, startVus = 20))).isEqualTo(K6Invocation.MAX_WARM_UP)
        // Capacity probes (closed model) are not warmed first.
        assertThat(K6Invocation.connectionWarmUp(LoadLevel.Vus(10))).isEqualTo(Duration.ZERO)
    }

    @Test
    fun `after a warm-up the throughput is the timed scenario's answers over its own seconds, while every answer still counts`() {
        val k6 = json.readTree("""{"metrics":{
            "http_req_duration":{"values":{"med":12.0,"count":260}},
            "http_req_duration{connection:warm}":{"values":{"med":10.0,"count":200}},
            "checks":{"values":{"passes":260,"fails":0}},
            "checks{scenario:cell}":{"values":{"passes":200,"fails":0}},
            "dropped_iterations":{"values":{"count":0}}},
            "state":{"testRunDurationMs":3900}, "warmUpMs": 900}""")
        val f = TrialFigures.fromK6(k6)
        assertThat(f[Figure.THROUGHPUT.key]!!).isCloseTo(200 / 3.0, within(1e-9))
        assertThat(f[Figure.LATENCY_P50.key]).isEqualTo(10.0)
        assertThat(TrialFigures.rateFlags(f + TrialFigures.rateShare(f, 67), 67)).isEmpty()
        // The warm-up's calls are answers too (CPU per request divides by them), and are wrong when wrong.
        assertThat(TrialFigures.answers(k6)).isEqualTo(260.0 to 0.0)
    }

    @Test
    fun `a capacity probe leaves k6's Go runtime its defaults`() {
        val target = K6Target("/api/data/grpc?size=1kb", "payloadSize", 1024)
        val inv = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", listOf(target), LoadLevel.Vus(10), Duration.ofSeconds(3), Path.of("/tmp/sum.json"))
        assertThat(inv.environment).containsEntry("LOAD_MODEL", "closed").doesNotContainKeys("GOMAXPROCS", "GOGC")
    }

    @Test
    fun `a member creation posts its batch's body file and expects every member created, the null hop none`(@TempDir dir: Path) {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nmembers: {images: [100kb], batch: 5}", "t")
        val bodies = MemberBodies(dir)
        val targets = scenario.cells.associate { it.arm.label to K6Target.of(it, { _, _ -> null }, bodies) }
        val stream = targets.getValue("gRPC/Stream")
        assertThat(stream.path).isEqualTo("/api/members/grpc/stream")
        assertThat(stream.field to stream.value).isEqualTo("created" to 5L)
        assertThat(stream.emails).hasSize(5)
        val nullHop = targets.getValue("Null hop")
        assertThat(nullHop.value).isZero()
        assertThat(nullHop.body).describedAs("one file per image and batch").isEqualTo(stream.body)
        val inv = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", targets.values.toList(), LoadLevel.Vus(2), Duration.ofSeconds(3), Path.of("/tmp/s.json"))
        val again = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", targets.values.toList(), LoadLevel.Vus(2), Duration.ofSeconds(3), Path.of("/tmp/s.json"))
        // Each k6 run tags its emails anew: k6 numbers VUs and iterations from the start again.
        assertThat(inv.environment.getValue("EMAIL_TAG")).isNotEqualTo(again.environment.getValue("EMAIL_TAG")).matches("[0-9a-z]{8}")
        assertThat(json.readTree(inv.environment.getValue("EMAIL_LAYOUT")).path("iterationAt").asInt()).isEqualTo(EmailLayout.ITERATION_AT)
    }

    @Test
    fun `a member created directly goes to the data-server endpoints, HTTP-Binary with the protobuf body`(@TempDir dir: Path) {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nmembers: {images: [1kb]}\ntopology: direct", "t")
        val bodies = MemberBodies(dir)
        val targets = scenario.cells.associate { it.arm.label to K6Target.direct(it, bodies) }
        assertThat(targets.mapValues { (_, t) -> listOf(t.path, t.call, t.field, t.value) }).isEqualTo(mapOf(
            "HTTP/JSON" to listOf("/api/members", "http-json", "id", 1L),
            "HTTP/Binary" to listOf("/api/members", "http-binary", "id", 1L),
            "gRPC/Unary" to listOf("protobench.MemberService/CreateMember", "grpc-unary", "id", 1L),
            "gRPC/Stream" to listOf("protobench.MemberService/CreateMembers", "grpc-stream", "count", 1L),
        ))
        assertThat(targets.getValue("HTTP/Binary").body).endsWith(".pb")
        assertThat(targets.filterKeys { it != "HTTP/Binary" }.values.map { it.body }.distinct()).singleElement().asString().endsWith(".json")
        assertThat(targets.values).allSatisfy { assertThat(it.emails).hasSize(1) }
    }

    @Test
    fun `called directly, k6 checks the answer the data-server itself sends, byte for byte`() {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nsizes: [1kb, 1mb]\ntopology: direct", "t")
        val targets = scenario.cells.associate { it.label to K6Target.direct(it) }
        assertThat(targets.getValue("HTTP/JSON size=1kb vus=10")).isEqualTo(K6Target("/data/json?size=1kb", "size", 1024, "http-json"))
        // The protobuf body: size (tag + 2-byte varint) and payload (tag + 2-byte length + 1,024 bytes).
        assertThat(targets.getValue("HTTP/Binary size=1kb vus=10")).isEqualTo(K6Target("/data/binary?size=1kb", "bodyBytes", 1030, "http-binary"))
        assertThat(targets.getValue("HTTP/Binary size=1mb vus=10").value).isEqualTo(1_048_576L + 1 + 3 + 1 + 3)
        assertThat(targets.getValue("gRPC/Unary size=1mb vus=10"))
            .isEqualTo(K6Target("protobench.DataService/GetData", "size", 1_048_576, "grpc-unary", "1mb"))
        assertThat(targets.getValue("gRPC/Stream size=1kb vus=10").call).isEqualTo("grpc-stream")

        val inv = K6Invocation.of(Path.of("s.js"), "http://127.0.0.1:1", targets.values.take(1), LoadLevel.Vus(2), Duration.ofSeconds(3),
            Path.of("/tmp/sum.json"), grpcAddress = "127.0.0.1:2")
        assertThat(inv.environment).containsEntry("GRPC_ADDR", "127.0.0.1:2")
            .containsEntry("TARGETS", """[{"path":"/data/json?size=1kb","field":"size","value":1024,"call":"http-json"}]""")
        val nullHop = ScenarioParser.parse("name: t\nduration: 3s\nsizes: [1kb]", "t").cells.single { it.arm.label == "Null hop" }
        assertThat(org.assertj.core.api.Assertions.catchThrowable { K6Target.direct(nullHop) }).hasMessageContaining("null hop")
    }

    @Test
    fun `a direct trial's hop is k6's latency and the data-server's CPU, gRPC latency from grpc_req_duration`() {
        val k6 = json.readTree("""{"metrics":{
            "grpc_req_duration":{"values":{"avg":1.5,"med":1.0,"p(90)":2.0,"p(95)":3.0,"p(99)":4.0,"p(99.9)":5.0,"max":6.0}},
            "checks":{"values":{"passes":1000,"fails":0}}},
            "state":{"testRunDurationMs":2000}}""")
        val cpu = io.protobench.bench.measure.CpuUsage(2.0, mapOf("data-server" to 0.1, "k6" to 0.2), 0.4, 2,
            compilerCoresUsed = mapOf("data-server" to 0.005))
        val f = TrialFigures.direct(k6, usage(100.0, 2000.0, 1, 50.0), cpu)
        assertThat(f[Figure.THROUGHPUT.key]).isEqualTo(500.0)
        assertThat(f[Figure.HOP_P50.key]).isEqualTo(1.0)
        assertThat(f[Figure.HOP_P99.key]).isEqualTo(4.0)
        assertThat(f[Figure.DATA_CPU_US.key]).isEqualTo(100.0)
        assertThat(f[Figure.API_CPU_US.key]).isNull()
        // 0.005 cores for 2 s over 1,000 answers = 10 µs of compiler work per request, left out of the total.
        assertThat(f[Figure.TOTAL_CPU_US.key]!!).isCloseTo(90.0, within(1e-9))
        assertThat(f[Figure.DRIVER_CPU_US.key]!!).isCloseTo(400.0, within(1e-9))
        assertThat(f[Figure.FIRST_MESSAGE_P50.key]).isNull() // no stream, no first message
    }

    @Test
    fun `a direct trial's latency leaves out each virtual user's calls on its new connection, whichever protocol`() {
        // As k6 writes it for a gRPC trial: its thresholds put the HTTP submetric in, empty.
        val k6 = json.readTree("""{"metrics":{
            "http_req_duration{connection:warm}":{"values":{"avg":0,"med":0,"p(90)":0,"p(95)":0,"p(99)":0,"p(99.9)":0,"max":0,"count":0}},
            "grpc_req_duration":{"values":{"avg":30.0,"med":28.0,"p(90)":60.0,"p(95)":90.0,"p(99)":120.0,"p(99.9)":130.0,"max":140.0,"count":130}},
            "grpc_req_duration{connection:warm}":{"values":{"avg":21.5,"med":21.0,"p(90)":23.0,"p(95)":24.0,"p(99)":26.0,"p(99.9)":27.0,"max":28.0,"count":100}},
            "stream_first_message":{"values":{"avg":9.0,"med":8.0,"p(99)":40.0,"count":30}},
            "stream_first_message{connection:warm}":{"values":{"avg":6.0,"med":6.0,"p(99)":7.0,"count":20}},
            "checks":{"values":{"passes":130,"fails":0}}},
            "state":{"testRunDurationMs":3000}}""")
        val f = TrialFigures.fromK6(k6)
        assertThat(f[Figure.LATENCY_P50.key]).isEqualTo(21.0)
        assertThat(f[Figure.LATENCY_MAX.key]).isEqualTo(28.0)
        assertThat(f[Figure.FIRST_MESSAGE_P99.key]).isEqualTo(7.0)
        // Every correct answer counts, those on new connections too: they cost the servers as much.
        assertThat(f[Figure.THROUGHPUT.key]!!).isCloseTo(130 / 3.0, within(1e-9))
        // A trial too short to warm any connection has no latency, rather than the new connections'.
        val cold = TrialFigures.fromK6(json.readTree("""{"metrics":{
            "grpc_req_duration":{"values":{"med":40.0,"count":30}},
            "grpc_req_duration{connection:warm}":{"values":{"med":0,"count":0}}}}"""))
        assertThat(cold[Figure.LATENCY_P50.key]).isNull()
    }

    @Test
    fun `a direct trial with fewer warm calls than its latency needs is flagged with its counts, one with enough is not`() {
        fun summary(calls: Int, warm: Int) = json.readTree("""{"metrics":{
            "http_req_duration{connection:warm}":{"values":{"med":0,"count":0}},
            "grpc_req_duration":{"values":{"med":30.0,"count":$calls}},
            "grpc_req_duration{connection:warm}":{"values":{"med":21.0,"count":$warm}}}}""")
        val few = TrialFigures.MIN_TIMED_CALLS - 1
        assertThat(TrialFigures.connectionFlags(summary(calls = 200, warm = few)))
            .containsExactly(Flag.ColdConnections(few.toLong(), 200, TrialFigures.COLD_CALLS, TrialFigures.MIN_TIMED_CALLS))
        assertThat(TrialFigures.connectionFlags(summary(calls = 200, warm = TrialFigures.MIN_TIMED_CALLS))).isEmpty()
        assertThat(TrialFigures.connectionFlags(summary(calls = 36, warm = 0)).single().describe())
            .isEqualTo("0 of 36 calls came after their virtual user's first 3 (its new connection)")
        // Through the gateway nothing is tagged: no flag.
        assertThat(TrialFigures.connectionFlags(json.readTree("""{"metrics":{"http_req_duration":{"values":{"med":3.0,"count":500}}}}"""))).isEmpty()
    }

    @Test
    fun `a direct trial whose calls right after the cold ones were slower than the later ones is flagged, by a margin and a floor`() {
        fun summary(next: Double, later: Double, nextCalls: Int = 60, laterCalls: Int = 40) = json.readTree("""{"metrics":{
            "http_req_duration{user_call:next}":{"values":{"med":0,"count":0}},
            "http_req_duration{user_call:later}":{"values":{"med":0,"count":0}},
            "grpc_req_duration{user_call:1}":{"values":{"med":300.0,"count":20}},
            "grpc_req_duration{user_call:next}":{"values":{"med":$next,"count":$nextCalls}},
            "grpc_req_duration{user_call:later}":{"values":{"med":$later,"count":$laterCalls}}}}""")
        // Across wan, say: calls 4-6 still waited for their windows to grow.
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0)))
            .containsExactly(Flag.ConnectionsWarming(95.0, 60, 80.0, 40, TrialFigures.COLD_CALLS))
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0)).single().describe())
            .isEqualTo("calls 4-6 of each virtual user took 95.00 ms at p50 (60 calls), its later ones 80.00 ms (40 calls)")
        // Within the margin, or a fraction of a round trip on loopback: warm.
        assertThat(TrialFigures.warmingFlags(summary(next = 87.0, later = 80.0))).isEmpty()
        assertThat(TrialFigures.warmingFlags(summary(next = 0.40, later = 0.30))).isEmpty()
        // Too few calls on either side to compare their p50s.
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0, laterCalls = TrialFigures.MIN_COMPARED_CALLS - 1))).isEmpty()
        // The HTTP trends were empty, so the gRPC ones were read, each place with its p50 and count.
        assertThat(TrialFigures.userCallLatencies(summary(next = 95.0, later = 80.0).path("metrics")))
            .isEqualTo(mapOf("1" to (300.0 to 20L), "next" to (95.0 to 60L), "later" to (80.0 to 40L)))
        // Through the gateway, or from before protobench.js tagged places: nothing to compare.
        assertThat(TrialFigures.warmingFlags(json.readTree("""{"metrics":{"http_req_duration":{"values":{"med":3.0,"count":500}}}}"""))).isEmpty()
    }

    @Test
    fun `a direct stream's time to its first message comes from k6's trend, and a trend without samples gives none`() {
        fun summary(firstMessage: String) = json.readTree("""{"metrics":{
            "grpc_req_duration":{"values":{"avg":45.0,"med":44.0,"p(90)":50.0,"p(95)":52.0,"p(99)":60.0,"p(99.9)":70.0,"max":80.0}},
            "stream_first_message":{"values":$firstMessage},
            "checks":{"values":{"passes":100,"fails":0}}},
            "state":{"testRunDurationMs":2000}}""")
        val streamed = TrialFigures.fromK6(summary("""{"avg":41.2,"med":41.0,"p(99)":47.0,"count":100}"""))
        assertThat(streamed[Figure.FIRST_MESSAGE_P50.key]).isEqualTo(41.0)
        assertThat(streamed[Figure.FIRST_MESSAGE_P99.key]).isEqualTo(47.0)
        assertThat(streamed[Figure.LATENCY_P50.key]).isEqualTo(44.0) // the whole stream
        val empty = TrialFigures.fromK6(summary("""{"avg":0,"med":0,"p(99)":0,"count":0}"""))
        assertThat(empty[Figure.FIRST_MESSAGE_P50.key]).isNull()
        assertThat(empty[Figure.FIRST_MESSAGE_P99.key]).isNull()
    }
}
