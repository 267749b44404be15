package io.protobench.bench

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.CsvReport
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.SeedReference
import io.protobench.bench.runner.RunStore
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

/** Report derivation from a fixed run record: winners, flips, ties, seed comparison. */
class ReportTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"

    /** Throughput per trial for each condition and protocol; other figures fixed. */
    private val throughput = mapOf(
        "size=1kb vus=10" to mapOf(grpc to listOf(6000.0, 6100.0, 5950.0), binary to listOf(3700.0, 3650.0, 3720.0)),
        "size=100kb vus=10" to mapOf(grpc to listOf(4000.0, 4300.0, 3900.0), binary to listOf(4100.0, 3950.0, 4200.0)),
        "size=1mb vus=10" to mapOf(grpc to listOf(1200.0, 1180.0, 1210.0), binary to listOf(2500.0, 2450.0, 2520.0)),
    )

    private fun record(): RunRecord {
        var sequence = 0
        val trials = throughput.flatMap { (condition, byProtocol) ->
            byProtocol.flatMap { (protocol, values) ->
                values.mapIndexed { i, rps ->
                    TrialRecord(condition, protocol, i + 1, ++sequence, "2026-11-21T00:00:00Z",
                        mapOf(Figure.THROUGHPUT.key to rps, Figure.LATENCY_P99.key to 10_000 / rps,
                            Figure.API_CPU_US.key to 100.0, Figure.DATA_CPU_US.key to 50.0,
                            Figure.TOTAL_CPU_US.key to 150.0, Figure.REQ_PER_CPU_SECOND.key to 1e6 / 150, Figure.ERROR_RATE.key to 0.0),
                        null, null)
                }
            }
        }
        return RunRecord(
            runId = "fixed",
            scenario = ScenarioRecord("fixed", "A fixed run", null, throughput.keys.toList(), listOf(grpc, binary), emptyList(), "closed", 30_000, 10_000, 3),
            options = emptyMap(), environment = mapOf("cpuModel" to "Test CPU", "cpuCores" to 2),
            startedAt = "2026-11-21T00:00:00Z", finishedAt = "2026-11-21T00:10:00Z", status = "complete",
            shuffleSeed = 1, trials = trials,
        )
    }

    @Test
    fun `winners are named only when significant, and ties are said as such`() {
        val analyses = Analysis.of(record()).associateBy { it.condition }
        assertThat(analyses.getValue("size=1kb vus=10").winner!!.protocol).isEqualTo(grpc)
        assertThat(analyses.getValue("size=1kb vus=10").winner!!.tiedWith).isEmpty()
        assertThat(analyses.getValue("size=1mb vus=10").winner!!.protocol).isEqualTo(binary)
        assertThat(analyses.getValue("size=100kb vus=10").winner!!.tiedWith).isNotEmpty()
    }

    @Test
    fun `the guide is derived from the data, including the flip and the tie`() {
        val report = MarkdownReport.render(record())
        assertThat(report).contains("## size=1kb vus=10")
        assertThat(report).contains("use **gRPC/Unary**")
        assertThat(report).contains("**Flip along size** (vus=10): gRPC/Unary wins at size=1kb, HTTP/Binary at size=1mb (no significant winner at 100kb)")
        assertThat(report).contains("no significant difference between")
        assertThat(report).contains("gRPC/Unary faster than HTTP/Binary by")
        assertThat(report).contains("Measured on: Test CPU, 2 cores")
    }

    @Test
    fun `flipping the data flips the guide`() {
        val swapped = record().let { r ->
            r.copy(trials = r.trials.map { t -> t.copy(protocol = if (t.protocol == grpc) binary else grpc) })
        }
        assertThat(MarkdownReport.render(swapped)).contains("HTTP/Binary wins at size=1kb, gRPC/Unary at size=1mb")
    }

    @Test
    fun `our ratios are set beside the seeds' for matching conditions`() {
        val pairs = SeedReference.compare(Analysis.of(record()))
        val phase2 = pairs.single { it.condition == "size=1kb vus=10" }
        assertThat(phase2.a).isEqualTo(grpc) // the seeds found gRPC/Unary faster at 1kb
        assertThat(phase2.outcome).isEqualTo("reproduced")
        val phase1 = pairs.single { it.condition == "size=1mb vus=10" }
        assertThat(phase1.a).isEqualTo(binary)
        assertThat(phase1.outcome).isEqualTo("reproduced")
        assertThat(MarkdownReport.render(record())).contains("| phase2 | size=1kb vus=10 | gRPC/Unary vs HTTP/Binary |")
    }

    @Test
    fun `run json round-trips and the csv has one row per cell`(@TempDir dir: Path) {
        val store = RunStore(dir)
        store.save(record())
        val back = RunStore.load(dir)
        assertThat(back.trials).hasSize(18)
        val csv = CsvReport.render(back).lines().filter { it.isNotBlank() }
        assertThat(csv).hasSize(1 + 6)
        assertThat(csv[0]).startsWith("condition,protocol,trials,failed_trials,throughput_rps_median")
    }

    @Test
    fun `a missing or foreign run json is a clear error`(@TempDir dir: Path) {
        assertThat(runCatching { RunStore.load(dir) }.exceptionOrNull()).hasMessageContaining("no run.json")
        dir.resolve("run.json").toFile().writeText("[1,2]")
        assertThat(runCatching { RunStore.load(dir) }.exceptionOrNull()).hasMessageContaining("not a Proto-Bench run record")
    }

    @Test
    fun `the protocol cheapest in CPU per request is named when significantly cheaper`() {
        val cpu = mapOf(grpc to listOf(150.0, 152.0, 149.0), binary to listOf(200.0, 203.0, 198.0))
        val base = record()
        val withCpu = base.copy(trials = base.trials.map { t ->
            t.copy(figures = t.figures + (Figure.TOTAL_CPU_US.key to cpu.getValue(t.protocol)[t.round - 1]))
        })
        val analysis = Analysis.of(withCpu).first()
        val ranking = analysis.rankings.getValue(Figure.TOTAL_CPU_US)
        assertThat(ranking.order).containsExactly(grpc, binary) // lower is better
        assertThat(ranking.winner!!.protocol).isEqualTo(grpc)

        val report = MarkdownReport.render(withCpu)
        assertThat(report).contains("gRPC/Unary uses 25.0% less CPU per request (both servers) than HTTP/Binary")
        assertThat(report).contains("cheapest in CPU per request: **gRPC/Unary**")
    }

    @Test
    fun `a warm-up still moving is reported unless the first trial confirms its plateau`() {
        val base = record()
        fun warm(protocol: String, rps: Double, change: Double) =
            io.protobench.bench.measure.WarmupRecord("size=1kb vus=10", protocol, 3, rps, change, false)
        // gRPC's first trial (6000) is within 10% of its last warm-up round (5800); HTTP/Binary's (3700) is not (2000).
        val withWarmups = base.copy(warmups = listOf(warm(grpc, 5800.0, 0.4), warm(binary, 2000.0, 0.5)))
        val unsettled = io.protobench.bench.report.WarmUpVerdict.unsettled(withWarmups)
        assertThat(unsettled.map { it.first.protocol }).containsExactly(binary)
        assertThat(MarkdownReport.render(withWarmups))
            .contains("Warm-up of HTTP/Binary size=1kb vus=10 had not settled")
            .doesNotContain("Warm-up of gRPC/Unary")
    }
}
