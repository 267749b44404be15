package io.protobench.bench

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** A/A controls: the noise floor they measure and how it gates verdicts. */
class NoiseFloorTest {
    private val grpc = "gRPC/Unary"
    private val control = "gRPC/Unary (A/A)"
    private val json = "HTTP/JSON"

    private fun run(throughput: Map<String, List<Double>>): RunRecord {
        var sequence = 0
        val trials = throughput.flatMap { (protocol, values) ->
            values.mapIndexed { i, v ->
                TrialRecord("size=1kb vus=10", protocol, i + 1, ++sequence, "t", mapOf(Figure.THROUGHPUT.key to v), null, null)
            }
        }
        return RunRecord(
            runId = "aa", scenario = ScenarioRecord("aa", "", null, listOf("size=1kb vus=10"), listOf(grpc, json), listOf(control),
                "closed", 10_000, 0, 5),
            options = emptyMap(), environment = emptyMap(), startedAt = "t", status = "complete", shuffleSeed = 0, trials = trials,
        )
    }

    @Test
    fun `the noise floor is the A-A interval bound farthest from zero`() {
        val a = Analysis.of(run(mapOf(
            grpc to listOf(1000.0, 1010.0, 990.0), control to listOf(1020.0, 1000.0, 1010.0), json to listOf(800.0, 805.0, 795.0),
        ))).single()
        val aa = a.controlComparisons.single()
        assertThat(a.noiseFloorPercent).isEqualTo(maxOf(kotlin.math.abs(aa.ciLowPercent!!), kotlin.math.abs(aa.ciHighPercent!!)))
        assertThat(a.ranking).containsExactly(grpc, json) // the control is not a contender
        assertThat(a.comparisons.single().noiseFloorPercent).isEqualTo(a.noiseFloorPercent)
        assertThat(a.winner!!.protocol).isEqualTo(grpc)
    }

    @Test
    fun `a significant difference smaller than the noise floor is not called a win`() {
        // gRPC vs JSON differ by ~3% with tight trials, but the A/A pair disagrees by up to ~10%
        val a = Analysis.of(run(mapOf(
            grpc to listOf(1030.0, 1031.0, 1029.0), json to listOf(1000.0, 1001.0, 999.0),
            control to listOf(1100.0, 1120.0, 1110.0),
        ))).single()
        assertThat(a.noiseFloorPercent!!).isGreaterThan(3.0)
        assertThat(a.comparisons.single().significant).isFalse()
        assertThat(MarkdownReport.render(run(mapOf(
            grpc to listOf(1030.0, 1031.0, 1029.0), json to listOf(1000.0, 1001.0, 999.0), control to listOf(1100.0, 1120.0, 1110.0),
        )))).contains("within the noise floor, no difference claimed", "Noise control: gRPC/Unary (A/A) against gRPC/Unary")
    }

    @Test
    fun `the aa scenario measures one protocol against its copy`() {
        val aa = ScenarioCatalog.builtIn("aa")!!
        assertThat(aa.cells.map { it.protocolLabel }.distinct()).containsExactly("gRPC/Unary", "gRPC/Unary (A/A)")
        assertThat(aa.cells.filter { it.control }).hasSize(aa.conditions.size)
    }
}
