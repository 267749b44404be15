package io.protobench.bench.design

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.SLOW
import io.protobench.bench.testkit.StepClock
import io.protobench.bench.testkit.SyntheticFork
import io.protobench.bench.verdict.Outcome
import org.apache.commons.statistics.distribution.BetaDistribution
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.Locale
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * The planner's repeated looks, simulated: whole runs of a quick-like scenario (four protocols
 * and the null hop at one size, 3 to 5 forks) through the real [ForkRunner], [Planner] and
 * [Analysis.judge] on a lab of synthetic forks. A fork scales every arm by its own luck (CV 5%);
 * every trial adds its own noise (CV 2.5% on both servers' CPU and 5% on the hop's p50), which
 * gives per-fork log ratios of hop CPU with a spread of about 0.065, as quick's published runs
 * show (0.03 to 0.12). The planner adds forks while a comparison is undecided and within reach,
 * and the verdicts are the run's last look, as in a real run.
 *
 * Today's rule spends α over the looks ([io.protobench.bench.verdict.Verdicts.looks]); the rule
 * before it tested every look at the full α. Both run on the same synthetic runs.
 *
 * Two tiers. The default one runs 300 runs per rule and world, where a share has a standard
 * error of about 1% near 5%: enough to show what the looks cost and to catch a rule that
 * breaks its 5% grossly (the share's exact one-sided 99% lower bound above 5%: 25 or more of
 * 300 runs), not to show that one keeps it. The slow tier ([SLOW], CI's second step) runs
 * today's rule in the world with no difference over [boundRuns] runs and asserts that the
 * exact one-sided 99% upper bound of the share with a false claim is below 5%. A fixed
 * design's share (4.4% in 2,000 runs) is Holm's own bound over one look, which no planner can
 * break, and too close to 5% for any affordable number of runs to bound it below.
 *
 * verdict.SimulationTest, which decided a hand-built family of 14 (protocols and the A/A pair
 * together) at a fixed 5 forks with half the lab's noise, is retired in favour of this one: it
 * never ran [Analysis] (whose families are 12 protocol comparisons and an A/A family of 2) or
 * the planner, so its rates described neither today's families nor its looks, and a copy of
 * the family rules in a test goes stale as that one did. What it showed is shown here through
 * the real path (false claims per run, with and without looks, and the power for 10% and 20%),
 * by `PowerTest` (the power of the t test against simulated ones) and by
 * `DocumentedStatisticsTest` (the A/A check's power at the lab's pooled noise, [io.protobench.bench.report.LabNoise]).
 */
class PlannerSimulationTest {
    /** Quick's design at one size: [forks] to [maxForks] forks. */
    private fun scenario(forks: Int = 3, maxForks: Int = 5) = ScenarioParser.parse(
        """
        name: simulated-quick
        sizes: [1kb]
        load: {model: closed, vus: [10]}
        duration: 3s
        forks: $forks
        maxForks: $maxForks
        probes: first-fork
        soak: {window: 3s, min: 6s, max: 30s}
        """.trimIndent(),
        "simulated-quick.yaml",
    )

    /** Runs per rule and world: 300 in the suite; `-Dprotobench.simulation.runs=2000` for the table in docs/statistics.md. */
    private val runs = System.getProperty("protobench.simulation.runs")?.toInt() ?: 300

    /**
     * Runs of the slow tier's bound: at a share near the 3.3% docs/statistics.md gives, 4,000 put
     * the one-sided 99% upper bound near 4.0%, so only a share of about 4.2% or more fails it
     * (`-Dprotobench.simulation.boundRuns`). Each run costs its forks' judgements, 3.4 on average.
     */
    private val boundRuns = System.getProperty("protobench.simulation.boundRuns")?.toInt() ?: 4000

    private val protocols = listOf("HTTP/JSON", "HTTP/Binary", "gRPC/Unary", "gRPC/Stream")

    /** A lab whose every protocol's hop costs [hop] µs per request, with fork luck and trial noise from [seed]. */
    private class NoisyLab(val clock: StepClock, val hop: Map<String, Double>, seed: Long) : Lab {
        private val random = java.util.Random(seed)
        private fun lognormal(cv: Double): Double {
            val s = sqrt(ln(1 + cv * cv))
            return exp(s * random.nextGaussian() - s * s / 2)
        }

        override fun startFork(index: Int, variant: Variant?): Fork {
            clock.advance(Duration.ofSeconds(10))
            val luck = lognormal(0.05)
            return object : SyntheticFork(clock) {
                override fun measure(run: LoadRun): Sample {
                    clock.advance(run.duration)
                    val arm = run.cell.arm
                    val cost = if (arm is Arm.Of) hop.getValue(arm.protocol.label) else 0.0
                    val total = (HARNESS_US + cost) * luck * lognormal(0.025)
                    return Sample(
                        Figures.of(
                            Figure.THROUGHPUT to 2e6 / (total + 150),
                            Figure.TOTAL_CPU_US to total,
                            Figure.DRIVER_CPU_US to 150.0,
                            Figure.HOP_P50 to (0.2 + cost / 1000) * luck * lognormal(0.05),
                        ),
                        Fixtures.FINE_ANSWERS,
                        0,
                    )
                }
            }
        }

        companion object {
            const val HARNESS_US = 300.0
        }
    }

    /** The outcome of [runs] simulated runs under one rule: how many had any false claim, or the true one. */
    private data class Rates(val runs: Int, val withFalse: Int, val withFound: Int, val forks: Int) {
        val falseClaims get() = withFalse.toDouble() / runs
        val found get() = withFound.toDouble() / runs
        val meanForks get() = forks.toDouble() / runs

        /** The share of runs with a false claim is at least this, by its exact (Clopper–Pearson) one-sided 99% bound. */
        val falseClaimsAtLeast: Double
            get() = if (withFalse == 0) {
                0.0
            } else {
                BetaDistribution.of(withFalse.toDouble(), (runs - withFalse + 1).toDouble()).inverseCumulativeProbability(0.01)
            }

        /** The share of runs with a false claim is at most this, by its exact (Clopper–Pearson) one-sided 99% bound. */
        val falseClaimsAtMost: Double
            get() = if (withFalse == runs) {
                1.0
            } else {
                BetaDistribution.of(withFalse + 1.0, (runs - withFalse).toDouble()).inverseCumulativeProbability(0.99)
            }
    }

    /**
     * [count] runs with hop costs [hop]; a claim is false when it names a winner between two
     * protocols whose costs are equal, and [expected] (winner, loser) is the claim to find.
     */
    private fun simulate(
        sequential: Boolean,
        hop: Map<String, Double>,
        expected: Pair<String, String>?,
        scenario: Scenario = scenario(),
        count: Int = runs,
    ): Rates {
        var withFalse = 0
        var withFound = 0
        var forks = 0
        repeat(count) { i ->
            val clock = StepClock()
            val start = RunRecord(
                runId = "sim-$i",
                scenario = scenario.toRecord(),
                options = emptyMap(),
                environment = RunEnvironment.NONE,
                startedAt = clock.instant().toString(),
                status = RunStatus.RUNNING,
                seed = 1000L + i,
            )
            val record = ForkRunner(scenario, NoisyLab(clock, hop, 7919L * i + 1), Analysis.judge(sequential), clock, {}, {}).run(start)
            val decisions = Analysis.of(record, sequential).single().family(TrialKind.COST)!!.protocolDecisions
            val better = decisions.mapNotNull { it.outcome as? Outcome.Better }
            if (better.any { hop.getValue(it.winner) == hop.getValue(it.loser) }) withFalse++
            if (expected != null && better.any { it.winner == expected.first && it.loser == expected.second }) withFound++
            forks += record.forks.size
        }
        return Rates(count, withFalse, withFound, forks)
    }

    private fun pct(x: Double) = String.format(Locale.ROOT, "%.1f%%", 100 * x)

    @Test
    fun `with all its looks the planner's run keeps false claims at or below 5 percent, and says what the looks cost in power`() {
        val equal = protocols.associateWith { 400.0 }
        val tenPercent = equal + ("gRPC/Unary" to 360.0)
        val twentyPercent = equal + ("gRPC/Unary" to 320.0)
        val found = "gRPC/Unary" to "HTTP/JSON"
        fun worlds(sequential: Boolean, scenario: Scenario = scenario()) = listOf(
            simulate(sequential, equal, null, scenario),
            simulate(sequential, tenPercent, found, scenario),
            simulate(sequential, twentyPercent, found, scenario),
        )
        val spread = worlds(sequential = true)
        val before = worlds(sequential = false)
        val fixed = worlds(sequential = true, scenario(forks = 5, maxForks = 5))
        for ((rule, r) in listOf(
            "3-5 forks, α spread over 3 looks" to spread,
            "3-5 forks, every look at α (before)" to before,
            "5 forks, one look at α" to fixed,
        )) {
            println(
                "planner simulation ($runs runs each), $rule: A/A runs with a false claim ${pct(r[0].falseClaims)}, " +
                    "forks ${String.format(Locale.ROOT, "%.2f", r[0].meanForks)}; 10% effect found ${pct(r[1].found)} " +
                    "(false claims ${pct(r[1].falseClaims)}); 20% effect found ${pct(r[2].found)}",
            )
        }

        // Family-wise: the share of runs with any false claim, whatever the planner did. At 300 runs
        // only a clear breach shows: its exact one-sided 99% lower bound above 5% (the slow tier bounds it below).
        assertThat(spread[0].falseClaimsAtLeast).isLessThanOrEqualTo(0.05)
        assertThat(spread[1].falseClaimsAtLeast).isLessThanOrEqualTo(0.05)
        assertThat(fixed[0].falseClaimsAtLeast).isLessThanOrEqualTo(0.05)
        // The rule before peeked without paying: more false claims on the same runs.
        assertThat(before[0].falseClaims).isGreaterThan(spread[0].falseClaims)
        // What the looks cost: never more power than before, and a clear 20% difference is still found in most runs.
        assertThat(spread[1].found).isLessThanOrEqualTo(before[1].found)
        assertThat(spread[2].found).isGreaterThan(0.5)
    }

    @Test
    @Tag(SLOW)
    fun `with all its looks the planner's run keeps false claims below 5 percent, at an exact one-sided 99 percent bound`() {
        val equal = simulate(sequential = true, protocols.associateWith { 400.0 }, null, count = boundRuns)
        println(
            "planner simulation, 3-5 forks, α spread over 3 looks, no difference: ${equal.withFalse} of ${equal.runs} runs " +
                "with a false claim (${pct(equal.falseClaims)}; one-sided 99% upper bound ${pct(equal.falseClaimsAtMost)})",
        )
        assertThat(equal.falseClaimsAtMost).isLessThan(0.05)
    }
}
