package io.protobench.bench.export

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import com.sun.net.httpserver.HttpServer
import io.protobench.bench.cli.MergeCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.lab.launch.Toolchain
import io.protobench.bench.testkit.PROCESS
import io.protobench.driver.Latency
import io.protobench.driver.Part
import io.protobench.driver.PartOutput
import io.protobench.driver.Summary
import io.protobench.driver.Tally
import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogReader
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.InetSocketAddress
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ExecutorService
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong

/**
 * The path of a Job's pods, on this machine: an exported Job's own arguments and JVM options
 * run by two driver processes from the driver's exec jar (as its image runs it), told their
 * index as Kubernetes tells a pod, against a small HTTP server in this JVM answering as the
 * gateway does; their output (stdout and stderr together, as `kubectl logs` gives them) merged
 * by `protobench merge`. Needs `load-driver/target/load-driver-*-exec.jar` (the build's package phase).
 */
@Tag(PROCESS)
class MergeDriversTest {
    @TempDir
    lateinit var tmp: Path

    private val served = AtomicLong()
    private val server: HttpServer = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 128).apply {
        executor = Executors.newFixedThreadPool(8)
        createContext("/") { exchange ->
            served.incrementAndGet()
            val body = """{"requestId":"x","protocol":"gRPC/Unary","payloadSize":1024,"latencyMs":0.1}""".toByteArray()
            exchange.sendResponseHeaders(200, body.size.toLong())
            exchange.responseBody.use { it.write(body) }
        }
        start()
    }

    @AfterEach
    fun stop() {
        server.stop(0)
        (server.executor as ExecutorService).shutdownNow()
    }

    @Test
    fun `two pods at half the rate each add up to the plan, and the merge says what their logs say`() {
        val pods = 2
        val settings = ExportValidation.check(ExportRequest("quick", pods, tmp.resolve("export").toString(), rate = RATE))
        val planned = DriverJobs.plan(settings).first { it.name == "quick-03-grpc-unary" }
        // The Job's plan, against this JVM's server, shortened to keep the test short; long enough
        // that the second pod's JVM, started after the first on a busy machine, still overlaps it.
        val plan = planned.plan.copy(
            baseUrl = "http://127.0.0.1:${server.address.port}",
            durationMs = TIMED_SECONDS * 1000L,
            warmUpMs = 500,
        )
        val planFile = tmp.resolve(planned.planKey).also { Files.writeString(it, KubernetesExport.planJson(plan)) }
        val container = DriverJobs.job(settings, planned).spec.template.spec.containers.single()
        val args = container.args.map { if (it.startsWith(DriverJobs.PLANS_DIR)) planFile.toString() else it }

        val logs = (0 until pods).map { index -> startPod(container.env.associate { it.name to it.value }, args, index) }
            .map { (process, log) ->
                assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue()
                assertThat(process.exitValue()).describedAs(Files.readString(log)).isZero()
                log
            }
        // As `kubectl logs -l job-name=…` collects them: one pod's log after the other.
        val jobLog = tmp.resolve("${planned.name}.log")
            .also { file -> Files.writeString(file, logs.joinToString("") { Files.readString(it) }) }
        val parts = PartOutput.parse(Files.readString(jobLog))
        assertThat(parts.map { it.part.label }).containsExactly("0/2", "1/2")
        val summaries = parts.map { it.summary!! }

        // Each pod sent half the rate: every arrival of its timed phase is accounted for.
        summaries.forEach { assertThat(it.timed.answered + it.timed.dropped).isEqualTo(RATE / pods * TIMED_SECONDS) }
        assertThat(served.get()).isEqualTo(summaries.sumOf { it.warmUp.answered + it.timed.answered })

        val out = tmp.resolve("results/${planned.name}.json")
        val result = Protobench().subcommands(MergeCommand()).test(listOf("merge", out.toString(), jobLog.toString()))
        assertThat(result.statusCode).describedAs(result.stderr).isZero()
        val merged = io.protobench.driver.json.readValue(out.toFile(), Summary::class.java)

        // Counts add up.
        assertThat(merged.timed.correct).isEqualTo(summaries.sumOf { it.timed.correct })
        assertThat(merged.timed.wrong).isEqualTo(summaries.sumOf { it.timed.wrong })
        assertThat(merged.timed.dropped).isEqualTo(summaries.sumOf { it.timed.dropped })
        assertThat(merged.warmUp.answered).isEqualTo(summaries.sumOf { it.warmUp.answered })
        assertThat(merged.connectionsOpened).isEqualTo(summaries.sumOf { it.connectionsOpened })
        assertThat(merged.timed.answered + merged.timed.dropped).isEqualTo(RATE * TIMED_SECONDS)

        // Latency: what the pods' own logs say, read here with HdrHistogram's reader, within a histogram bucket.
        val fromPodLogs = Tally.histogram().apply { parts.forEach { part -> intervals(part.histogramLog!!).forEach(::add) } }
        val mergedLog = Tally.histogram().apply { intervals(Files.readString(out.resolveSibling(merged.histogramLog!!))).forEach(::add) }
        assertThat(merged.latency!!.count).isEqualTo(fromPodLogs.totalCount).isEqualTo(mergedLog.totalCount)
            .isEqualTo(summaries.sumOf { it.latency!!.count })
        assertWithinABucket(merged.latency!!, fromPodLogs)
        assertWithinABucket(merged.latency!!, mergedLog)
        // A percentile of the whole lies between the parts' own.
        assertThat(merged.latency!!.p50).isBetween(summaries.minOf { it.latency!!.p50 }, summaries.maxOf { it.latency!!.p50 })
    }

    /** A driver as the Job's pod [index] runs it: the image's command, the Job's env and arguments, stdout and stderr in one log. */
    private fun startPod(env: Map<String, String>, args: List<String>, index: Int): Pair<Process, Path> {
        val jar = Toolchain(Path.of("").toAbsolutePath().parent).serverJar("load-driver")
        val java = ProcessHandle.current().info().command().orElse("java")
        val log = tmp.resolve("pod-$index.log")
        val builder = ProcessBuilder(listOf(java, "-jar", jar.toString()) + args).redirectErrorStream(true).redirectOutput(log.toFile())
        builder.environment().putAll(env + (Part.JOB_INDEX_VARIABLE to index.toString()))
        return builder.start() to log
    }

    private fun intervals(log: String): List<Histogram> = HistogramLogReader(log.byteInputStream()).use { reader ->
        generateSequence { reader.nextIntervalHistogram() as Histogram? }.toList()
    }

    /** Each percentile of [latency] (ms) equal to [histogram]'s (µs) within the width of the bucket that holds it. */
    private fun assertWithinABucket(latency: Latency, histogram: Histogram) {
        listOf(50.0 to latency.p50, 90.0 to latency.p90, 99.0 to latency.p99, 99.9 to latency.p999).forEach { (percentile, ms) ->
            val micros = histogram.getValueAtPercentile(percentile)
            assertThat(ms).describedAs("p$percentile")
                .isCloseTo(micros / 1000.0, within(histogram.sizeOfEquivalentValueRange(micros) / 1000.0))
        }
        assertThat(latency.max)
            .isCloseTo(histogram.maxValue / 1000.0, within(histogram.sizeOfEquivalentValueRange(histogram.maxValue) / 1000.0))
    }

    private companion object {
        /** Requests/s of both pods together: 200/s each on 2 cores, well below what this server answers. */
        const val RATE = 400
        const val TIMED_SECONDS = 5L
    }
}
