package io.protobench.driver

import com.sun.net.httpserver.HttpExchange
import com.sun.net.httpserver.HttpServer
import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogReader
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.InetSocketAddress
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Executors
import java.util.concurrent.atomic.AtomicInteger

/** Runs against a small HTTP server in this JVM that answers as the gateway does, or not. */
class LoadRunTest {
    private val served = AtomicInteger()
    private var answer: (Int) -> Pair<Int, String> = { 200 to """{"payloadSize":1024}""" }
    private var delayMs: (Int) -> Long = { 0 }
    private val server = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 64).apply {
        executor = Executors.newFixedThreadPool(8)
        createContext("/") { exchange -> respond(exchange) }
        start()
    }
    private val baseUrl = "http://127.0.0.1:${server.address.port}"
    private val target = CallTarget("/api/data/none?size=1kb", "payloadSize", 1024)

    private fun respond(exchange: HttpExchange) {
        val n = served.incrementAndGet()
        exchange.requestBody.readAllBytes()
        Thread.sleep(delayMs(n))
        val (status, body) = answer(n)
        val bytes = body.toByteArray()
        exchange.sendResponseHeaders(status, bytes.size.toLong())
        exchange.responseBody.use { it.write(bytes) }
    }

    @AfterEach
    fun stop() {
        server.stop(0)
        (server.executor as java.util.concurrent.ExecutorService).shutdownNow()
    }

    @Test
    fun `an open load sends one arrival per 1-over-rate, the timed ones apart from the warm-up`(@TempDir dir: Path) {
        val log = dir.resolve("latency.hlog")
        val plan = Plan(baseUrl, listOf(target), Load.open(200.0, 2, 32), durationMs = 1000, warmUpMs = 500, histogramLog = log.toString())
        val summary = LoadRun(plan).execute()
        // A cold JVM may drop some of its first arrivals; every one is accounted for.
        assertThat(summary.warmUp.answered + summary.warmUp.dropped).isEqualTo(100)
        assertThat(summary.timed).isEqualTo(Counts(200, 0, 0))
        assertThat(summary.latency!!.count).isEqualTo(200)
        assertThat(summary.byPlace.values.sumOf { it.count }).isEqualTo(200)
        assertThat(summary.throughput).isEqualTo(200.0)
        assertThat(served.get().toLong()).isEqualTo(200 + summary.warmUp.answered)
        // The log holds exactly the timed calls, readable by HdrHistogram's own reader.
        val merged = Histogram(3)
        HistogramLogReader(log.toFile()).use { reader ->
            generateSequence { reader.nextIntervalHistogram() as Histogram? }.forEach(merged::add)
        }
        assertThat(merged.totalCount).isEqualTo(200)
        assertThat(merged.getValueAtPercentile(50.0) / 1000.0)
            .isCloseTo(summary.latency!!.p50, org.assertj.core.api.Assertions.within(0.01))
    }

    @Test
    fun `the summary's context switches are those of the timed phase alone, both kinds and apart`() {
        var reads = 0
        // Counts as /proc would give them: 1,000 + 40 when the timed phase starts, 1,200 + 90 when its calls are in.
        val counter = {
            reads++
            ContextSwitches(voluntary = 1_000L + 200 * (reads - 1), nonvoluntary = 40L + 50 * (reads - 1))
        }
        val plan = Plan(baseUrl, listOf(target), Load.open(100.0, 2, 4), durationMs = 300, warmUpMs = 200)
        val summary = LoadRun(plan, counter).execute()
        assertThat(reads).isEqualTo(2)
        assertThat(summary.contextSwitches).isEqualTo(250)
        assertThat(summary.voluntaryContextSwitches).isEqualTo(200)
        assertThat(summary.nonvoluntaryContextSwitches).isEqualTo(50)
        assertThat(summary.timed.answered).isEqualTo(30)
    }

    @Test
    fun `a thread's context switches are read from its status, each kind, every thread summed`(@TempDir tasks: Path) {
        listOf(10L to 1L, 100L to 5L).forEachIndexed { i, (voluntary, forced) ->
            Files.createDirectories(tasks.resolve("${7 + i}"))
            Files.writeString(
                tasks.resolve("${7 + i}/status"),
                "Name:\tt\nvoluntary_ctxt_switches:\t$voluntary\nnonvoluntary_ctxt_switches:\t$forced\n",
            )
        }
        assertThat(OwnThreads.contextSwitches(tasks)).isEqualTo(ContextSwitches(voluntary = 110, nonvoluntary = 6))
        assertThat(OwnThreads.contextSwitches(tasks)?.total).isEqualTo(116)
        assertThat(OwnThreads.contextSwitches(tasks.resolve("absent"))).isNull()
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = [Plan.LEAN, Plan.REACTOR])
    fun `wrong answers are counted with their reason and first body, never as throughput`(client: String) {
        answer = { n -> if (n % 2 == 0) 200 to """{"payloadSize":1000}""" else 503 to "busy" }
        val summary = LoadRun(Plan(baseUrl, listOf(target), Load.open(100.0, 1, 16), durationMs = 500, client = client)).execute()
        assertThat(summary.timed.correct).isZero()
        assertThat(summary.timed.wrong).isEqualTo(50)
        assertThat(summary.throughput).isZero()
        assertThat(summary.failures).containsOnlyKeys("\"payloadSize\" was 1000, expected 1024", "status 503, expected 200")
        assertThat(summary.failures.values.sum()).isEqualTo(50)
        assertThat(summary.failureSamples).containsOnly(
            org.assertj.core.api.Assertions.entry("\"payloadSize\" was 1000, expected 1024", """{"payloadSize":1000}"""),
            org.assertj.core.api.Assertions.entry("status 503, expected 200", "busy"),
        )
    }

    @Test
    fun `a reason met in the warm-up and in the timed phase is counted over both`() {
        answer = { 503 to "busy" }
        val summary = LoadRun(Plan(baseUrl, listOf(target), Load.open(100.0, 1, 16), durationMs = 500, warmUpMs = 200)).execute()
        assertThat(summary.failures).containsOnlyKeys("status 503, expected 200")
        assertThat(summary.failures.getValue("status 503, expected 200")).isEqualTo(summary.warmUp.wrong + summary.timed.wrong)
        assertThat(summary.warmUp.wrong).isPositive()
        assertThat(summary.timed.wrong).isEqualTo(50)
    }

    @Test
    fun `arrivals beyond the pool and its queue are dropped, and waiting counts from when they were due`() {
        // One connection, its server stalled 300 ms on the fifth call: later arrivals wait (4 may) or are dropped.
        delayMs = { n -> if (n == 5) 300 else 0 }
        val summary = LoadRun(Plan(baseUrl, listOf(target), Load.open(100.0, 1, 1), durationMs = 1000)).execute()
        assertThat(summary.timed.correct + summary.timed.wrong + summary.timed.dropped).isEqualTo(100)
        assertThat(summary.timed.dropped).isGreaterThan(0)
        assertThat(summary.failures.keys.single()).contains("every connection busy")
        // The waiting arrivals' latency includes their wait (coordinated omission): the slowest is the stall itself.
        assertThat(summary.latency!!.max).isGreaterThanOrEqualTo(290.0)
        assertThat(summary.latency!!.p99).isGreaterThanOrEqualTo(200.0)
    }

    @Test
    fun `arrivals the driver itself sent late show in its send delay, and latency counts from when they were due`() {
        // The client blocks its own event loop for 60 ms on the 20th call: the arrivals due meanwhile leave late.
        val plan = Plan(baseUrl, listOf(target), Load.open(200.0, 2, 32), durationMs = 1000)
        val client = Http1Calls(baseUrl, 32)
        val sent = AtomicInteger()
        val stalling = object : Calls by client {
            override fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit) {
                if (sent.incrementAndGet() == 20) Thread.sleep(60)
                client.call(target, check, body, done)
            }
        }
        val summary = stalling.use { LoadRun(plan).execute(it) }
        val delay = summary.sendDelay!!
        assertThat(delay.count).isEqualTo(200)
        // At 5 ms apart, 11 arrivals were due during the stall, the first 55 ms before it ended: the top 2% of 200.
        assertThat(delay.max).isGreaterThanOrEqualTo(50.0)
        assertThat(delay.p99).isGreaterThanOrEqualTo(30.0)
        assertThat(summary.lateArrivals).isGreaterThanOrEqualTo(10)
        assertThat(summary.maxLateMs).isGreaterThanOrEqualTo(delay.max - 0.1)
        assertThat(summary.latency!!.max).isGreaterThanOrEqualTo(delay.max)
    }

    @Test
    fun `a closed load keeps its users busy, one connection each`() {
        val summary = LoadRun(Plan(baseUrl, listOf(target), Load.closed(2), durationMs = 500)).execute()
        assertThat(summary.timed.correct).isGreaterThan(10)
        assertThat(summary.timed.wrong + summary.timed.dropped).isZero()
        assertThat(summary.connectionsOpened).isEqualTo(2)
        assertThat(summary.byPlace["new"]!!.count).isEqualTo(2L * Connections.COLD_CALLS)
        assertThat(summary.sendDelay).describedAs("a closed load has no due times").isNull()
    }

    @Test
    fun `several targets are taken in turn and each member body gets an email of its own`(@TempDir dir: Path) {
        val placeholder = "mTTTTTTTT.VVVVVV.IIIIIIIIII.0000@protobench.test"
        val template = dir.resolve("member.json")
        Files.writeString(template, """{"email":"$placeholder"}""")
        val emails = java.util.concurrent.ConcurrentHashMap.newKeySet<String>()
        server.removeContext("/")
        server.createContext("/") { exchange ->
            val body = String(exchange.requestBody.readAllBytes())
            if (exchange.requestMethod == "POST") emails.add(body)
            val bytes = (if (exchange.requestMethod == "POST") """{"created":1}""" else """{"payloadSize":1024}""").toByteArray()
            exchange.sendResponseHeaders(200, bytes.size.toLong())
            exchange.responseBody.use { it.write(bytes) }
        }
        val post = CallTarget("/api/members/grpc", "created", 1, method = "POST", body = template.toString(), emails = listOf(10))
        val summary = LoadRun(Plan(baseUrl, listOf(target, post), Load.open(100.0, 2, 4), durationMs = 500, instance = 7)).execute()
        assertThat(summary.timed).isEqualTo(Counts(50, 0, 0))
        assertThat(emails).hasSize(25)
        assertThat(emails).allSatisfy { assertThat(it).matches("""\{"email":"m[0-9a-z]{8}\.000007\.\d{10}\.0000@protobench\.test"}""") }
    }

    @Test
    fun `a call with no answer within the call timeout is wrong, and its connection is closed for a new one`() {
        delayMs = { n -> if (n == 1) 5_000 else 0 }
        Http1Calls(baseUrl, 1, java.time.Duration.ofSeconds(1)).use { calls ->
            val outcomes = java.util.concurrent.LinkedBlockingQueue<Outcome>()
            calls.call(target, AnswerCheck(target), null) { outcomes.add(it) }
            val stalled = outcomes.poll(4, java.util.concurrent.TimeUnit.SECONDS)
            assertThat(stalled?.problem).isEqualTo("no answer within 1000 ms")
            // The next call gets a connection of its own and its answer.
            calls.call(target, AnswerCheck(target), null) { outcomes.add(it) }
            assertThat(outcomes.poll(4, java.util.concurrent.TimeUnit.SECONDS)?.problem).isNull()
            assertThat(calls.connectionsOpened).isEqualTo(2)
        }
    }
}
