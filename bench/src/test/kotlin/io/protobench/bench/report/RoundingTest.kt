package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialLoad
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.Rounding
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.verdict.Outcome
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

/** CPU per request counted in clock ticks: how coarse that is, and what it does to verdicts. */
class RoundingTest {
    private fun trial(answers: Long, figures: Figures) =
        TrialRecord("size=1kb", "gRPC/Unary", TrialKind.COST, 1, 1, "2026-11-26T00:00:00Z", TrialLoad.rate(107), figures, answers, 0)

    @Test
    fun `a trial's rounding counts each process read, spread over its answers`() {
        val total = Figures.of(Figure.TOTAL_CPU_US to 800.0)
        // One tick over 322 answers is 31.06 µs; a third of its square per process.
        val direct = Rounding.ofTrial(trial(322, total), direct = true)!!
        assertThat(direct).isCloseTo(31.0559 * 31.0559 / 3, within(0.01))
        assertThat(Rounding.ofTrial(trial(322, total), direct = false)).isCloseTo(2 * direct, within(1e-9))
        val withDatabase = total + (Figure.DB_CPU_US to 100.0)
        assertThat(Rounding.ofTrial(trial(322, withDatabase), direct = true)).isCloseTo(2 * direct, within(1e-9))
        assertThat(Rounding.ofTrial(trial(0, total), direct = true)).isNull()
        assertThat(Rounding.ofTrial(trial(322, Figures.NONE), direct = true)).isNull()
    }

    @Test
    fun `a log ratio's rounding is the root of the mean relative variances, over forks that have them`() {
        val sd = Rounding.logRatioSd(
            listOf(800.0, 800.0, null),
            listOf(400.0, 400.0, 400.0),
            listOf(6400.0, 6400.0, 1.0),
            listOf(1600.0, 1600.0, 1.0),
        )
        // (6400/640000 + 1600/160000) = 0.02 in both usable forks
        assertThat(sd).isCloseTo(Math.sqrt(0.02), within(1e-12))
        assertThat(Rounding.logRatioSd(listOf(800.0), listOf(400.0), listOf(null), listOf(null))).isEqualTo(0.0)
    }

    @Test
    fun `two forks that counted the same ticks decide nothing on CPU, though their latency still can`() {
        val tick = 10_000.0 / 322
        val record = Fixtures.record(listOf("size=1kb"), listOf(Fixtures.NULL_HOP, "HTTP/JSON", "gRPC/Unary"), 2) { _, kind, arm, fork ->
            if (kind != TrialKind.COST) {
                null
            } else {
                when (arm) {
                    Fixtures.NULL_HOP -> Fixtures.cost(20 * tick)
                    "HTTP/JSON" -> Fixtures.cost(47 * tick, hopP50 = 41.0 + fork * 0.01)
                    else -> Fixtures.cost(46 * tick, hopP50 = 30.0 + fork * 0.01)
                }
            }
        }.let { r -> r.copy(forks = r.forks.map { f -> f.copy(trials = f.trials.map { it.copy(correctAnswers = 322) }) }) }
        val decisions = Analysis.of(record).single().family(TrialKind.COST)!!.decisions
        val cpu = decisions.single { it.figure == Figure.HOP_CPU_US.key }
        assertThat(cpu.estimate.logRatios.distinct()).hasSize(1) // both forks: 26 ticks against 27
        assertThat(cpu.outcome).isInstanceOf(Outcome.Inconclusive::class.java)
        assertThat(decisions.single { it.figure == Figure.HOP_P50.key }.outcome).isInstanceOf(Outcome.Better::class.java)
    }
}
