package io.protobench.bench.export

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.MergeCommand
import io.protobench.bench.cli.Protobench
import io.protobench.driver.CallTarget
import io.protobench.driver.Counts
import io.protobench.driver.Latency
import io.protobench.driver.Load
import io.protobench.driver.Part
import io.protobench.driver.PartOutput
import io.protobench.driver.Plan
import io.protobench.driver.Summary
import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogReader
import org.HdrHistogram.HistogramLogWriter
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path

/** `protobench merge` on parts written here: what adds up, what comes from the logs, and every refusal. */
class MergeTest {
    @TempDir
    lateinit var tmp: Path

    private val plan = Plan(
        "http://gateway:8080",
        listOf(CallTarget("/api/data/grpc?size=1kb", "payloadSize", 1024)),
        Load.open(200.0, 10, 10),
        2000,
    )

    /** An epoch second to start the logs from. */
    private val t0 = 1_795_936_645_000L

    /**
     * Part [index] of [count]: [values] µs recorded one per second from [startMs], its summary
     * saying so, plus the counts given.
     */
    private fun part(
        index: Int,
        count: Int,
        values: List<Long>,
        startMs: Long = t0,
        timed: Counts = Counts(values.size.toLong(), 0, 0),
        failures: Map<String, Long> = emptyMap(),
        plan: Plan = this.plan,
    ): PartOutput {
        val intervals = values.mapIndexed { i, value ->
            Histogram(3).apply {
                recordValue(value)
                startTimeStamp = startMs + i * 1000L
                endTimeStamp = startMs + (i + 1) * 1000L
            }
        }
        val total = Histogram(3).apply { intervals.forEach(::add) }
        val summary = Summary(
            Counts(5, 0, 0), timed, 2000, Latency.of(total), emptyMap(), 2, failures, cpuMs = 100.0,
            maxLateMs = index + 1.5, lateArrivals = index + 1L, sendDelay = Latency.of(total),
        )
        return PartOutput(Part(index, count), plan, summary, log(intervals))
    }

    private fun log(intervals: List<Histogram>): String {
        val bytes = ByteArrayOutputStream()
        PrintStream(bytes, false, Charsets.US_ASCII).use { out ->
            HistogramLogWriter(out).apply {
                outputLogFormatVersion()
                outputStartTime(intervals.first().startTimeStamp)
                outputLegend()
                intervals.forEach(::outputIntervalHistogram)
            }
        }
        return bytes.toString(Charsets.US_ASCII)
    }

    private fun inputs(vararg parts: PartOutput) = parts.mapIndexed { i, it -> PartInput("pod-$i.log", it) }

    private fun problems(vararg parts: PartOutput): List<String> = try {
        PartsMerge.merge(inputs(*parts), "merged.hlog")
        emptyList()
    } catch (e: InvalidMerge) {
        e.problems
    }

    @Test
    fun `the driver's context switches add up by kind, and a part without the split leaves it out`() {
        fun switching(index: Int, voluntary: Long?, nonvoluntary: Long?) = part(index, 2, listOf(1000, 1000)).let {
            it.copy(
                summary = it.summary!!.copy(
                    contextSwitches = (voluntary ?: 7) + (nonvoluntary ?: 0),
                    voluntaryContextSwitches = voluntary,
                    nonvoluntaryContextSwitches = nonvoluntary,
                ),
            )
        }
        val merged = PartsMerge.merge(inputs(switching(0, 30, 4), switching(1, 50, 6)), "merged.hlog").summary
        assertThat(listOf(merged.contextSwitches, merged.voluntaryContextSwitches, merged.nonvoluntaryContextSwitches))
            .containsExactly(90L, 80L, 10L)
        val older = PartsMerge.merge(inputs(switching(0, 30, 4), switching(1, null, null)), "merged.hlog").summary
        assertThat(listOf(older.contextSwitches, older.voluntaryContextSwitches, older.nonvoluntaryContextSwitches))
            .containsExactly(41L, null, null)
    }

    @Test
    fun `counts, failures, connections, late arrivals and driver CPU add up, and the timed phase is the plan's, not the parts' sum`() {
        val a = part(0, 2, listOf(1000, 1000), timed = Counts(2, 1, 3), failures = mapOf("status 503, expected 200" to 1L))
        val b = part(1, 2, listOf(2000, 2000), timed = Counts(2, 0, 0), failures = mapOf("status 503, expected 200" to 2L, "timeout" to 1L))
        val merged = PartsMerge.merge(inputs(a, b), "merged.hlog").summary
        assertThat(merged.warmUp).isEqualTo(Counts(10, 0, 0))
        assertThat(merged.timed).isEqualTo(Counts(4, 1, 3))
        assertThat(merged.failures).isEqualTo(mapOf("status 503, expected 200" to 3L, "timeout" to 1L))
        assertThat(merged.connectionsOpened).isEqualTo(4)
        assertThat(merged.cpuMs).isEqualTo(200.0)
        assertThat(merged.timedMs).isEqualTo(2000)
        assertThat(merged.throughput).isEqualTo(2.0)
        assertThat(merged.histogramLog).isEqualTo("merged.hlog")
        // The driver's lateness: the latest of the parts', their late arrivals summed; send-delay percentiles do not add.
        assertThat(merged.maxLateMs).isEqualTo(2.5)
        assertThat(merged.lateArrivals).isEqualTo(3)
        assertThat(merged.sendDelay).isNull()
    }

    @Test
    fun `percentiles come from the parts' histograms merged, not from their percentiles`() {
        // 100 calls at 1 ms in one part, 100 at 9 ms in the other: the median of all is 1 ms, not the mean of the medians (5 ms).
        val fast = part(0, 2, List(100) { 1000L })
        val slow = part(1, 2, List(100) { 9000L })
        val merged = PartsMerge.merge(inputs(fast, slow), "merged.hlog")
        val latency = merged.summary.latency!!
        assertThat(latency.count).isEqualTo(200)
        assertThat(latency.p50).isCloseTo(1.0, org.assertj.core.api.Assertions.within(0.001))
        assertThat(latency.p99).isCloseTo(9.0, org.assertj.core.api.Assertions.within(0.01))
        assertThat(latency.mean).isCloseTo(5.0, org.assertj.core.api.Assertions.within(0.01))
        // The merged log holds every interval of both parts in time order, epoch timestamps kept.
        val intervals = HistogramLogReader(merged.log.byteInputStream()).use { reader ->
            generateSequence { reader.nextIntervalHistogram() as Histogram? }.toList()
        }
        assertThat(intervals).hasSize(200)
        assertThat(intervals.sumOf { it.totalCount }).isEqualTo(200)
        assertThat(intervals.map { it.startTimeStamp }).isSorted().startsWith(t0)
        assertThat(merged.together).isEqualTo(Span(t0, t0 + 100_000))
    }

    @Test
    fun `parts that did not run at the same time are refused`() {
        val first = part(0, 2, listOf(1000, 1000))
        val later = part(1, 2, listOf(1000, 1000), startMs = t0 + 60_000)
        assertThat(problems(first, later).single()).contains("did not run at the same time", "part 0/2 (pod-0.log)", "part 1/2 (pod-1.log)")
    }

    @Test
    fun `a part missing, given twice or split another way is refused, naming it`() {
        assertThat(problems(part(0, 3, listOf(1000)), part(2, 3, listOf(1000))))
            .containsExactly("part 1/3 missing: merge every part, or the load merged is not the plan's")
        assertThat(problems(part(0, 2, listOf(1000)), part(0, 2, listOf(1000)), part(1, 2, listOf(1000))))
            .containsExactly("part 0/2 is given twice: pod-0.log, pod-1.log")
        assertThat(problems(part(0, 2, listOf(1000)), part(1, 3, listOf(1000))).first()).startsWith("the parts were split differently")
    }

    @Test
    fun `parts of different plans are refused`() {
        val other = plan.copy(targets = listOf(CallTarget("/api/data/grpc?size=1mb", "payloadSize", 1_048_576)))
        assertThat(problems(part(0, 2, listOf(1000)), part(1, 2, listOf(1000), plan = other)))
            .containsExactly("part 1/2 (pod-1.log) ran another plan than part 0/2 (pod-0.log)")
    }

    @Test
    fun `a summary with no log, or a log that is not its summary's, is refused`() {
        val noLog = part(1, 2, listOf(1000)).copy(histogramLog = null)
        assertThat(problems(part(0, 2, listOf(1000)), noLog))
            .containsExactly("part 1/2 (pod-1.log) has a summary but no histogram log to merge its latency from")
        val cut = part(1, 2, listOf(1000)).copy(summary = null)
        assertThat(problems(part(0, 2, listOf(1000)), cut).single()).contains("has no summary")
        val otherLog = part(1, 2, listOf(1000, 1000)).copy(histogramLog = part(1, 2, listOf(1000)).histogramLog)
        assertThat(problems(part(0, 2, listOf(1000)), otherLog).single()).contains("its histogram log holds 1 latencies and its summary 2")
    }

    private fun merge(vararg argv: String) = Protobench().subcommands(MergeCommand()).test(listOf("merge") + argv)

    @Test
    fun `the command writes the summary and the log beside it, and refuses bad input with exit 2 and no stack trace`() {
        val log = tmp.resolve("job.log")
        Files.writeString(
            log,
            part(0, 2, listOf(1000, 3000)).render() + "Picked up JAVA_TOOL_OPTIONS: -Xmx256m\n" + part(1, 2, listOf(2000, 2000)).render(),
        )
        val out = tmp.resolve("results/job.json")
        val done = merge(out.toString(), log.toString())
        assertThat(done.statusCode).describedAs(done.stderr).isZero()
        assertThat(done.stdout).contains("merged 2 parts", "4 correct", "results/job.hlog")
        val written = io.protobench.driver.json.readValue(out.toFile(), Summary::class.java)
        assertThat(written.latency!!.count).isEqualTo(4)
        assertThat(written.histogramLog).isEqualTo("job.hlog")
        assertThat(tmp.resolve("results/job.hlog")).exists()

        fun refused(vararg argv: String, message: String) {
            val result = merge(*argv)
            assertThat(result.statusCode).describedAs(result.stdout).isEqualTo(2)
            assertThat(result.stderr).contains(message).doesNotContain("Exception", "\tat ")
        }
        refused(message = "give OUT")
        refused(tmp.resolve("again.json").toString(), message = "no inputs")
        refused(out.toString(), log.toString(), message = "exists: remove it, or give --force")
        refused(tmp.resolve("x.json").toString(), tmp.resolve("absent.log").toString(), message = "cannot read")
        refused(tmp.resolve("x.json").toString(), out.toString(), message = "holds no part's output")
        val half = tmp.resolve("half.log").also { Files.writeString(it, part(0, 2, listOf(1000)).render()) }
        refused(tmp.resolve("x.json").toString(), half.toString(), message = "part 1/2 missing")
        assertThat(merge("--force", out.toString(), log.toString()).statusCode).isZero()
    }

    @Test
    fun `no inputs at all is refused`() {
        assertThatThrownBy { PartsMerge.read(emptyList()) }.isInstanceOf(InvalidMerge::class.java).hasMessageContaining("no inputs")
    }
}
