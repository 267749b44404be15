package io.protobench.bench.measure

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.lab.plans.DriverPlans
import io.protobench.bench.lab.writes.MemberBodies
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.CpuUsage
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.testkit.Fixtures
import io.protobench.contract.metrics.GcUsage
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.DataTransfer
import io.protobench.contract.window.LatencyStats
import io.protobench.contract.window.Processes
import io.protobench.contract.window.ServerMetrics
import io.protobench.contract.window.TimelineReport
import io.protobench.contract.window.WindowReport
import io.protobench.driver.CallTarget
import io.protobench.driver.Counts
import io.protobench.driver.GrpcCalls
import io.protobench.driver.Latency
import io.protobench.driver.Load
import io.protobench.driver.Plan
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import java.time.Duration
import java.time.Instant
import io.protobench.driver.Summary as DriverSummary

class TrialFiguresTest {
    private val json = ObjectMapper()

    private fun usage(cpuUs: Double, allocated: Double, gcs: Long, peakHeapMb: Double) = Fixtures.usage(cpuUs, allocated, gcs, peakHeapMb)

    private fun window(api: ProcessUsage, data: ProcessUsage?) = Fixtures.window(api, data)

    /** A driver's summary: [correct] answers in [timedMs], its latency [p50] on warm connections ([warm] calls of [calls]). */
    private fun driven(
        correct: Long = 1000,
        timedMs: Long = 2000,
        warmUpCorrect: Long = 0,
        p50: Double = 1.0,
        calls: Long = correct,
        warm: Long = calls,
        steps: Map<String, Pair<Double, Long>> = emptyMap(),
        firstMessage: Latency? = null,
    ): DriverSummary {
        fun latency(count: Long, p50: Double) = Latency(count, p50 * 1.5, p50, p50 * 2, p50 * 3, p50 * 4, p50 * 5, p50 * 5.5, p50 * 6)
        val byPlace = listOfNotNull(
            (calls - warm).takeIf { it > 0 }?.let { "new" to latency(it, p50 * 10) },
            warm.takeIf { it > 0 }?.let { "warm" to latency(it, p50) },
        ).toMap()
        return DriverSummary(
            Counts(warmUpCorrect, 0, 0), Counts(correct, 0, 0), timedMs, latency(calls, p50 * 2), byPlace, 2, emptyMap(),
            bySteps = steps.mapValues { (_, v) -> latency(v.second, v.first) }, firstMessage = firstMessage,
        )
    }

    @Test
    fun `figures come from the driver's summary and the gateway window`() {
        val summary = DriverSummary(
            Counts(10, 0, 0),
            Counts(2998, 2, 0),
            3000,
            Latency(3000, 2.5, 2.0, 3.0, 4.0, 6.0, 9.0, 10.0, 12.0),
            emptyMap(),
            4,
            mapOf("status 503, expected 200" to 2),
        )
        val gateway = window(usage(120.0, 5000.0, 2, 300.0), usage(80.0, 3000.0, 1, 200.0))
        val f = TrialFigures.from(summary, gateway, CpuUsage(3.0, mapOf(CpuAccounting.DRIVER to 0.1), 0.5, 2), 3010.0)
        // Throughput counts the timed phase's correct answers only: status 200 with the exact size.
        assertThat(f[Figure.THROUGHPUT]!!).isCloseTo(2998 / 3.0, within(1e-9))
        assertThat(f[Figure.LATENCY_P50]).isEqualTo(2.0)
        assertThat(f[Figure.LATENCY_P999]).isEqualTo(9.0)
        assertThat(f[Figure.ERROR_RATE]!!).isCloseTo(2 / 3010.0, within(1e-12))
        assertThat(f[Figure.TOTAL_CPU_US]).isEqualTo(200.0)
        assertThat(f[Figure.REQ_PER_CPU_SECOND]).isEqualTo(5000.0)
        assertThat(f[Figure.DATA_PEAK_HEAP]).isEqualTo(200.0)
        // 0.1 cores for 3 s over 3,010 answers.
        assertThat(f[Figure.DRIVER_CPU_US]!!).isCloseTo(0.1 * 3e6 / 3010, within(1e-9))
        // A closed load has no due times, so no send delay; an open one gives its p99.
        assertThat(f[Figure.SEND_DELAY_P99]).isNull()
        val open = summary.copy(sendDelay = Latency(3000, 0.1, 0.05, 0.1, 0.2, 0.7, 3.0, 4.0, 5.0))
        assertThat(
            TrialFigures.from(open, gateway, CpuUsage(3.0, mapOf(CpuAccounting.DRIVER to 0.1), 0.5, 2), 3010.0)[Figure.SEND_DELAY_P99],
        ).isEqualTo(0.7)
    }

    @Test
    fun `both servers' CPU per request leaves out their JIT compiler threads`() {
        val figures = Figures.of(
            Figure.API_CPU_US to 300.0,
            Figure.DATA_CPU_US to 200.0,
            Figure.API_JIT_CPU_US to 40.0,
            Figure.DATA_JIT_CPU_US to 10.0,
        )
        assertThat(TrialFigures.totals(figures)[Figure.TOTAL_CPU_US]).isEqualTo(450.0)
        assertThat(TrialFigures.totals(Figures.of(figures.toMap() - Figure.API_JIT_CPU_US))[Figure.TOTAL_CPU_US]).isEqualTo(490.0)
    }

    @Test
    fun `a PostgreSQL server's CPU per request is counted with the servers', as H2's is inside the data-server's`() {
        val usage = CpuUsage(2.0, mapOf(CpuAccounting.DRIVER to 0.5, CpuAccounting.DATABASE to 0.25), 0.5, 2)
        val figures = TrialFigures.fromCpu(usage, requests = 1000.0)
        assertThat(figures[Figure.DB_CPU_US]).isEqualTo(500.0) // 0.25 cores for 2 s over 1000 requests
        val servers = Figures.of(Figure.API_CPU_US to 300.0, Figure.DATA_CPU_US to 200.0)
        assertThat(TrialFigures.totals(servers + figures)[Figure.TOTAL_CPU_US]).isEqualTo(1000.0)
        // Without a database apart (H2), nothing is added.
        assertThat(TrialFigures.fromCpu(usage.copy(coresUsed = mapOf(CpuAccounting.DRIVER to 0.5)), 1000.0)[Figure.DB_CPU_US]).isNull()
        assertThat(TrialFigures.totals(servers)[Figure.TOTAL_CPU_US]).isEqualTo(500.0)
    }

    @Test
    fun `each server's pauses, pause time, concurrent GC CPU and heap after GC come from its collector's notifications`() {
        val api = usage(120.0, 5000.0, 9, 300.0)
            .copy(gc = GcUsage(pauses = 6, pauseTimeMs = 2, cycles = 3, concurrentCpuMs = 41.5, heapAfterGcMb = 22.0))
        val data = usage(80.0, 3000.0, 4, 200.0)
            .copy(gc = GcUsage(pauses = 4, pauseTimeMs = 35, cycles = 0, concurrentCpuMs = 0.0, heapAfterGcMb = 61.25))

        val f = TrialFigures.from(window(api, data))

        assertThat(f.toMap()).containsEntry(Figure.API_GC_PAUSES, 6.0).containsEntry(Figure.API_GC_PAUSE_TIME, 2.0)
            .containsEntry(Figure.API_GC_CONCURRENT_CPU, 41.5).containsEntry(Figure.API_HEAP_AFTER_GC, 22.0)
            .containsEntry(Figure.DATA_GC_PAUSES, 4.0).containsEntry(Figure.DATA_GC_PAUSE_TIME, 35.0)
            .containsEntry(Figure.DATA_GC_CONCURRENT_CPU, 0.0).containsEntry(Figure.DATA_HEAP_AFTER_GC, 61.25)
        // The beans' sums stay as they were, cycles and pauses together.
        assertThat(f.toMap()).containsEntry(Figure.API_GC_COUNT, 9.0).containsEntry(Figure.API_GC_TIME, 27.0)
        // Servers that predate the notifications give none of these figures rather than zeros.
        val old = TrialFigures.from(window(usage(120.0, 5000.0, 9, 300.0), usage(80.0, 3000.0, 4, 200.0)))
        assertThat(old.toMap().keys)
            .doesNotContain(Figure.API_GC_PAUSES, Figure.DATA_GC_PAUSE_TIME, Figure.API_GC_CONCURRENT_CPU, Figure.DATA_HEAP_AFTER_GC)
        // Topology direct: the data-server's own.
        val cpu = CpuUsage(2.0, mapOf("data-server" to 0.1, CpuAccounting.DRIVER to 0.2), 0.4, 2)
        val direct = TrialFigures.direct(driven(), data, cpu)
        assertThat(direct.toMap()).containsEntry(Figure.DATA_GC_PAUSES, 4.0).containsEntry(Figure.DATA_HEAP_AFTER_GC, 61.25)
            .doesNotContainKey(Figure.API_GC_PAUSES)
    }

    @Test
    fun `a gateway without data-server figures leaves them empty instead of inventing them`() {
        val f = TrialFigures.from(window(usage(10.0, 100.0, 0, 10.0), null))
        assertThat(f[Figure.DATA_CPU_US]).isNull()
        assertThat(f.toMap()).doesNotContainKey(Figure.TOTAL_CPU_US)
    }

    @Test
    fun `a direct cost trial's connections get as long to warm as the trial's rate takes for their first calls and a quarter more, within bounds`() {
        val calls = TrialFigures.COLD_CALLS
        // 20 connections at 7 calls a second (1 MB across wan): 60 calls take 8.6 s at that rate, 10.7 s with the quarter.
        assertThat(DriverPlans.connectionWarmUp(LoadLevel.Rate(7, 50, startVus = 20)))
            .isEqualTo(Duration.ofMillis(20L * calls * 1000 * 5 / 4 / 7))
        // 1 KB at 429/s would need 175 ms: the least is kept.
        assertThat(DriverPlans.connectionWarmUp(LoadLevel.Rate(429, 50, startVus = 20))).isEqualTo(DriverPlans.MIN_WARM_UP)
        assertThat(DriverPlans.connectionWarmUp(LoadLevel.Rate(1, 50, startVus = 20))).isEqualTo(DriverPlans.MAX_WARM_UP)
        // Capacity probes (closed model) are not warmed first.
        assertThat(DriverPlans.connectionWarmUp(LoadLevel.Vus(10))).isEqualTo(Duration.ZERO)
    }

    @Test
    fun `a member creation posts its batch's body file and expects every member created, the null hop none`(@TempDir dir: Path) {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nmembers: {images: [100kb], batch: 5}", "t")
        val bodies = MemberBodies(dir)
        val targets = scenario.cells.associate { it.arm.label to DriverPlans.target(it, { _, _ -> null }, bodies) }
        val stream = targets.getValue("gRPC/Stream")
        assertThat(stream.path).isEqualTo("/api/members/grpc/stream")
        assertThat(stream.field to stream.value).isEqualTo("created" to 5L)
        assertThat(stream.method).isEqualTo("POST")
        assertThat(stream.emails).hasSize(5)
        val nullHop = targets.getValue("Null hop")
        assertThat(nullHop.value).isZero()
        assertThat(nullHop.body).describedAs("one file per image and batch").isEqualTo(stream.body)
        assertThat(stream.problem()).isNull()
    }

    @Test
    fun `a member created directly goes to the data-server's endpoints, protobuf bodies for HTTP-Binary and gRPC`(@TempDir dir: Path) {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nmembers: {images: [1kb]}\ntopology: direct", "t")
        val bodies = MemberBodies(dir)
        val targets = scenario.cells.associate { it.arm.label to DriverPlans.direct(it, bodies) }
        assertThat(targets.mapValues { (_, t) -> listOf(t.path, t.transport, t.status, t.contentType, t.value) }).isEqualTo(
            mapOf(
                "HTTP/JSON" to listOf("/api/members", "http", 201, "application/json", null),
                "HTTP/Binary" to listOf("/api/members", "http", 201, "application/x-protobuf", null),
                "gRPC/Unary" to listOf(GrpcCalls.CREATE_MEMBER, "grpc", 200, null, null),
                "gRPC/Stream" to listOf(GrpcCalls.CREATE_MEMBERS, "grpc", 200, null, 1L),
            ),
        )
        assertThat(targets.getValue("HTTP/JSON").body).endsWith(".json")
        assertThat(targets.filterKeys { it != "HTTP/JSON" }.values.map { it.body }.distinct()).singleElement().asString().endsWith(".pb")
        assertThat(targets.values).allSatisfy {
            assertThat(it.emails).hasSize(1)
            assertThat(it.problem()).isNull()
        }
    }

    @Test
    fun `called directly, the driver checks the answer the data-server itself sends, to the byte`() {
        val scenario = ScenarioParser.parse("name: t\nduration: 3s\nsizes: [1kb, 1mb]\ntopology: direct", "t")
        val targets = scenario.cells.associate { it.label to DriverPlans.direct(it) }
        // JSON: the size field, and a body at least as long as the payload's base64.
        assertThat(targets.getValue("HTTP/JSON size=1kb vus=10"))
            .isEqualTo(CallTarget("/data/json?size=1kb", "size", 1024, minBytes = 1368))
        // The protobuf body: size (tag + 2-byte varint) and payload (tag + 2-byte length + 1,024 bytes).
        assertThat(targets.getValue("HTTP/Binary size=1kb vus=10"))
            .isEqualTo(CallTarget("/data/binary?size=1kb", value = 1030, accept = "application/x-protobuf"))
        assertThat(targets.getValue("HTTP/Binary size=1mb vus=10").value).isEqualTo(1_048_576L + 1 + 3 + 1 + 3)
        assertThat(targets.getValue("gRPC/Unary size=1mb vus=10"))
            .isEqualTo(CallTarget(GrpcCalls.GET_DATA, value = 1_048_576, transport = "grpc", size = "1mb"))
        assertThat(targets.getValue("gRPC/Stream size=1kb vus=10").path).isEqualTo(GrpcCalls.GET_DATA_STREAM)
        val plan = DriverPlans.directPlan(
            "http://127.0.0.1:1",
            "127.0.0.1:2",
            targets.values.toList(),
            LoadLevel.Rate(50, 20, startVus = 5),
            Duration.ofSeconds(3),
            Duration.ofMillis(1500),
        )
        assertThat(plan.problems()).isEmpty()
        assertThat(listOf(plan.client, plan.grpcAddress, plan.warmUpMs, plan.durationMs))
            .containsExactly(Plan.REACTOR, "127.0.0.1:2", 1500L, 3000L)
        assertThat(plan.load).isEqualTo(Load.open(50.0, 5, 20))
        val nullHop = ScenarioParser.parse("name: t\nduration: 3s\nsizes: [1kb]", "t").cells.single { it.arm.label == "Null hop" }
        assertThat(org.assertj.core.api.Assertions.catchThrowable { DriverPlans.direct(nullHop) }).hasMessageContaining("null hop")
    }

    @Test
    fun `a direct trial's hop is the driver's latency on warm connections and the data-server's CPU`() {
        val cpu = CpuUsage(
            2.0,
            mapOf("data-server" to 0.1, CpuAccounting.DRIVER to 0.2),
            0.4,
            2,
            compilerCoresUsed = mapOf("data-server" to 0.005),
        )
        val f = TrialFigures.direct(
            driven(correct = 940, warmUpCorrect = 60, p50 = 1.0, calls = 940, warm = 900),
            usage(100.0, 2000.0, 1, 50.0),
            cpu,
        )
        // The timed phase's answers over its seconds; the warm-up's count for CPU per request.
        assertThat(f[Figure.THROUGHPUT]).isEqualTo(470.0)
        assertThat(f[Figure.HOP_P50]).isEqualTo(1.0)
        assertThat(f[Figure.HOP_P99]).isEqualTo(4.0)
        assertThat(f[Figure.LATENCY_P50]).isEqualTo(1.0)
        assertThat(f[Figure.DATA_CPU_US]).isEqualTo(100.0)
        assertThat(f[Figure.API_CPU_US]).isNull()
        // 0.005 cores for 2 s over 1,000 answers = 10 µs of compiler work per request, left out of the total.
        assertThat(f[Figure.TOTAL_CPU_US]!!).isCloseTo(90.0, within(1e-9))
        assertThat(f[Figure.DRIVER_CPU_US]!!).isCloseTo(400.0, within(1e-9))
        assertThat(f[Figure.FIRST_MESSAGE_P50]).isNull() // no stream, no first message
        // A trial too short to warm any connection has no latency, rather than the new connections'.
        assertThat(TrialFigures.direct(driven(calls = 30, warm = 0), usage(100.0, 2000.0, 1, 50.0), cpu)[Figure.LATENCY_P50]).isNull()
        // A stream's time to its first message.
        val streamed = TrialFigures.direct(
            driven(firstMessage = Latency(100, 41.2, 41.0, 44.0, 45.0, 47.0, 48.0, 48.0, 49.0)),
            usage(100.0, 2000.0, 1, 50.0),
            cpu,
        )
        assertThat(streamed[Figure.FIRST_MESSAGE_P50]).isEqualTo(41.0)
        assertThat(streamed[Figure.FIRST_MESSAGE_P99]).isEqualTo(47.0)
    }

    @Test
    fun `a direct trial with fewer warm calls than its latency needs is flagged with its counts, one with enough is not`() {
        val few = TrialFigures.MIN_TIMED_CALLS - 1L
        assertThat(TrialFigures.connectionFlags(driven(calls = 200, warm = few)))
            .containsExactly(Flag.ColdConnections(few, 200, TrialFigures.COLD_CALLS, TrialFigures.MIN_TIMED_CALLS))
        assertThat(TrialFigures.connectionFlags(driven(calls = 200, warm = TrialFigures.MIN_TIMED_CALLS.toLong()))).isEmpty()
        assertThat(TrialFigures.connectionFlags(driven(calls = 36, warm = 0)).single().describe())
            .isEqualTo("0 of 36 calls came after their connection's first 3")
    }

    @Test
    fun `a direct trial whose calls right after the cold ones were slower than the later ones is flagged, by a margin and a floor`() {
        fun summary(next: Double, later: Double, nextCalls: Long = 60, laterCalls: Long = 40) = driven(
            steps = mapOf(
                "1" to (300.0 to 20L),
                "next" to (next to nextCalls),
                "later" to (later to laterCalls),
            ),
        )
        // Across wan, say: calls 4-6 still waited for their windows to grow.
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0)))
            .containsExactly(Flag.ConnectionsWarming(95.0, 60, 80.0, 40, TrialFigures.COLD_CALLS))
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0)).single().describe())
            .isEqualTo("calls 4-6 of each connection took 95.00 ms at p50 (60 calls), its later ones 80.00 ms (40 calls)")
        // Within the margin, or a fraction of a round trip on loopback: warm.
        assertThat(TrialFigures.warmingFlags(summary(next = 87.0, later = 80.0))).isEmpty()
        assertThat(TrialFigures.warmingFlags(summary(next = 0.40, later = 0.30))).isEmpty()
        // Too few calls on either side to compare their p50s.
        assertThat(TrialFigures.warmingFlags(summary(next = 95.0, later = 80.0, laterCalls = TrialFigures.MIN_COMPARED_CALLS - 1L)))
            .isEmpty()
        // No steps (a trial through the gateway, say): nothing to compare.
        assertThat(TrialFigures.warmingFlags(driven())).isEmpty()
    }

    @Test
    fun `records of k6's time still give each call place's p50 and count`() {
        val metrics = json.readTree(
            """{
            "http_req_duration{user_call:next}":{"values":{"med":0,"count":0}},
            "grpc_req_duration{user_call:1}":{"values":{"med":300.0,"count":20}},
            "grpc_req_duration{user_call:next}":{"values":{"med":95.0,"count":60}},
            "grpc_req_duration{user_call:later}":{"values":{"med":80.0,"count":40}}}""",
        )
        // The HTTP trends were empty, so the gRPC ones were read, each place with its p50 and count.
        assertThat(CallPlaces.of(metrics).steps).isEqualTo(mapOf("1" to (300.0 to 20L), "next" to (95.0 to 60L), "later" to (80.0 to 40L)))
        assertThat(CallPlaces.of(json.readTree("""{"http_req_duration":{"values":{"med":3.0,"count":500}}}""")).steps).isEmpty()
        // Tagged by connection and warmed up first only where k6's summary names those metrics.
        assertThat(CallPlaces.of(metrics)).extracting({ it.tagged }, { it.warmedUpFirst }).containsExactly(false, false)
        val tagged = json.readTree(
            """{"http_req_duration{connection:warm}":{"values":{"med":2.0}},"iterations{scenario:warmup}":{"values":{"count":9}}}""",
        )
        assertThat(CallPlaces.of(tagged)).extracting({ it.tagged }, { it.warmedUpFirst }).containsExactly(true, true)
    }

    @Test
    fun `a trial whose driver sent more than 1% of its arrivals late is flagged with its counts, fewer are not`() {
        val summary = driven(correct = 900, warmUpCorrect = 100).copy(maxLateMs = 12.5)
        assertThat(TrialFigures.driverFlags(summary.copy(lateArrivals = 10))).isEmpty()
        val late = TrialFigures.driverFlags(summary.copy(lateArrivals = 11))
        assertThat(late).containsExactly(Flag.DriverLate(11, 1000, 1, 12.5))
        assertThat(late.single().describe())
            .isEqualTo("the driver sent 11 of 1000 arrivals more than 1 ms after they were due (the latest 12.5 ms after)")
        assertThat(late.single().meaning()).contains("the driver's own delay")
    }
}
