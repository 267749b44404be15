package io.protobench.bench

import io.protobench.bench.measure.Figure
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.runner.BenchmarkRunner
import io.protobench.bench.runner.CpuPlacement
import io.protobench.bench.runner.K6Invocation
import io.protobench.bench.runner.K6Runner
import io.protobench.bench.runner.ServerLauncher
import io.protobench.bench.runner.Toolchain
import io.protobench.bench.runner.RunOptions
import io.protobench.bench.runner.RunStore
import io.protobench.bench.scenario.ScenarioParser
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/**
 * A tiny scenario through real k6 and the real servers (their exec jars, built
 * earlier in the reactor). Installs k6 with `go install` when none is found.
 */
class BenchEndToEndTest {
    /** Surefire runs in bench/; the project root holds the server modules and tools/. */
    private val projectDir: Path = Path.of("").toAbsolutePath().parent

    @Test
    fun `a tiny closed-model scenario produces run json and a report`(@TempDir results: Path) {
        val scenario = ScenarioParser.parse("""
            name: e2e
            sizes: [1kb]
            protocols: [HTTP/JSON, gRPC/Unary]
            load: {model: closed, vus: [2]}
            duration: 3s
            warmup: 1s
            warmupRounds: 1
            repetitions: 2
        """.trimIndent(), "e2e test")
        val options = RunOptions(results, false, listOf("-Xms256m", "-Xmx512m"), emptyList(), emptyList(), 7, given = mapOf("test" to "e2e"))

        val store = BenchmarkRunner(projectDir, progress = {}).run(scenario, options)
        val record = RunStore.load(store.dir)

        assertThat(record.status).isEqualTo("complete")
        assertThat(record.trials).hasSize(4)
        assertThat(record.warmups).hasSize(2).allSatisfy { assertThat(it.error).isNull() }
        assertThat(record.trials.map { it.protocol to it.round })
            .containsExactlyInAnyOrder("HTTP/JSON" to 1, "gRPC/Unary" to 1, "HTTP/JSON" to 2, "gRPC/Unary" to 2)
        record.trials.forEach { trial ->
            assertThat(trial.error).isNull()
            assertThat(trial.figures[Figure.THROUGHPUT.key]).isPositive()
            assertThat(trial.figures[Figure.ERROR_RATE.key]).isEqualTo(0.0)
            assertThat(trial.figures[Figure.HOP_P50.key]).isPositive()
            assertThat(trial.figures[Figure.DATA_CPU_US.key]).isPositive()
            assertThat(trial.figures[Figure.API_CPU_US.key]).isPositive()
            assertThat(trial.gateway!!.path("protocol").asText()).isEqualTo(trial.protocol)
            assertThat(trial.gateway!!.path("successRequests").asLong()).isPositive()
        }
        assertThat(record.environment["k6"].toString()).contains("v1.")
        assertThat(record.environment["gitCommit"]).isNotNull()

        val report = Files.readString(ReportWriter.write(store.dir, record))
        assertThat(report).contains("## size=1kb vus=2", "| HTTP/JSON |", "gRPC/Unary", "Protocol selection guide")
        assertThat(Files.readAllLines(store.dir.resolve("cells.csv"))).hasSize(3)
        assertThat(store.dir.resolve("logs/data-server.log")).exists()
    }

    @Test
    fun `a tiny open-model scenario records the achieved share of its target rate`(@TempDir results: Path) {
        val scenario = ScenarioParser.parse("""
            name: e2e-open
            complexities: [medium]
            protocols: [gRPC/Unary]
            load: {model: open, rates: [40], maxVus: 20}
            duration: 3s
            warmup: 0s
            repetitions: 1
        """.trimIndent(), "e2e open test")
        val options = RunOptions(results, false, listOf("-Xms256m", "-Xmx512m"), emptyList(), emptyList(), 3, given = emptyMap())

        val record = RunStore.load(BenchmarkRunner(projectDir, progress = {}).run(scenario, options).dir)

        assertThat(record.status).isEqualTo("complete")
        assertThat(record.scenario.loadModel).isEqualTo("open")
        val trial = record.trials.single()
        assertThat(trial.error).isNull()
        assertThat(trial.condition).isEqualTo("complexity=medium rate=40/s")
        assertThat(trial.figures[Figure.ERROR_RATE.key]).isEqualTo(0.0) // serializedSize checked exactly against the level's shape
        assertThat(trial.figures[Figure.TARGET_RATE_SHARE.key]).isBetween(0.5, 1.1)
        assertThat(trial.figures).containsKey(Figure.DROPPED_ITERATIONS.key)
        assertThat(trial.cpu!!.coresUsed["k6"]).isNotNull()
    }

    @Test
    fun `a script written for the seed project runs unchanged against our gateway`(@TempDir dir: Path) {
        val toolchain = Toolchain(projectDir)
        val k6 = toolchain.k6 {}
        val script = dir.resolve("seed-style.js")
        javaClass.getResourceAsStream("/k6/seed-style.js")!!.use { Files.copy(it, script) }
        val summaryFile = dir.resolve("summary.json")
        ServerLauncher(toolchain, dir.resolve("logs"), listOf("-Xms256m", "-Xmx512m")).start().use { servers ->
            val invocation = K6Invocation(script, mapOf("BASE_URL" to servers.gatewayUrl, "SUMMARY_PATH" to summaryFile.toString()),
                java.time.Duration.ofSeconds(3))
            val summary = K6Runner(k6, dir.resolve("k6.log"), CpuPlacement.plan(1, enabled = false)).run(invocation)

            val checks = summary.path("metrics").path("checks").path("values")
            assertThat(checks.path("passes").asLong()).isGreaterThan(10)
            assertThat(checks.path("fails").asLong()).isZero()
        }
    }
}
