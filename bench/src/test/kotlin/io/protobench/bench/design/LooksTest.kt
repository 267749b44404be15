package io.protobench.bench.design

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.StepClock
import io.protobench.bench.testkit.SyntheticFork
import io.protobench.bench.verdict.Verdicts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration
import kotlin.math.sin

/**
 * A failed fork and the looks the α split pays for. The planner counts completed forks and
 * judges after every fork, failed ones too; the verdicts test each look at α over the looks a
 * design of `forks` to `maxForks` may take. A failed fork whose valid trials paired after the
 * condition's minimum would give the planner new data at an unchanged count, a look the split
 * does not count ([Looks]): these tests show it stays within the split.
 */
class LooksTest {
    private val condition = "size=1kb vus=10"
    private val json = "HTTP/JSON"
    private val grpc = "gRPC/Unary"

    /**
     * [forks] forks in a design of 3 to 5 (gRPC/Unary's hop about half HTTP/JSON's, a little
     * noise per arm and fork); the forks in [failed] ended as failed, every trial of theirs valid.
     */
    private fun record(forks: Int, failed: Set<Int>): RunRecord {
        val r = Fixtures.record(listOf(condition), listOf(json, grpc, NULL_HOP), forks) { _, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val hop = mapOf(json to 200.0, grpc to 100.0, NULL_HOP to 0.0).getValue(arm)
            Fixtures.cost((300 + hop * (1 + 0.03 * sin(fork * 1.3 + arm.length))) * (1 + 0.02 * fork))
        }
        return r.copy(
            scenario = r.scenario.copy(forks = 3, maxForks = 5),
            forks = r.forks.map { if (it.index in failed) it.copy(status = ForkStatus.FAILED, failure = "a server died") else it },
        )
    }

    private fun decisions(r: RunRecord) = Analysis.of(r).single().family(TrialKind.COST)!!.decisions

    @Test
    fun `a fork that fails after the minimum pairs nothing, so the verdicts are those of the completed forks at the split's alpha`() {
        val r = record(5, failed = setOf(4))
        assertThat(Looks.counts(r)).containsEntry(condition, 4)
        assertThat(Looks.paired(r, condition)).containsExactlyInAnyOrder(1, 2, 3, 5)
        val withFailed = decisions(r)
        val without = decisions(r.copy(forks = r.forks.filter { it.index != 4 }))
        assertThat(withFailed).isNotEmpty().allSatisfy { d ->
            assertThat(d.estimate.n).isEqualTo(4)
            assertThat(d.looks).isEqualTo(Verdicts.looks(3, 5))
            assertThat(d.lookAlpha).isEqualTo(Verdicts.ALPHA / 3)
        }
        assertThat(withFailed.map { it.estimate.logRatios }).isEqualTo(without.map { it.estimate.logRatios })
        assertThat(withFailed.map { it.differenceP }).isEqualTo(without.map { it.differenceP })
    }

    @Test
    fun `a fork that fails before the minimum still pairs its valid trials, as no look has been taken yet`() {
        val r = record(4, failed = setOf(2))
        assertThat(Looks.counts(r)).containsEntry(condition, 3)
        assertThat(Looks.paired(r, condition)).containsExactlyInAnyOrder(1, 2, 3, 4)
        assertThat(decisions(r)).allSatisfy { assertThat(it.estimate.n).isEqualTo(4) }
    }

    @Test
    fun `a condition with a minimum of its own pairs a failed fork only below that minimum`() {
        val r = record(4, failed = setOf(3))
        val own = r.copy(scenario = r.scenario.copy(conditions = r.scenario.conditions.map { it.copy(forks = 2) }))
        // Fork 3 failed with two completed forks before it: below the scenario's 3, at the condition's own 2.
        assertThat(Looks.paired(r, condition)).containsExactlyInAnyOrder(1, 2, 3, 4)
        assertThat(Looks.paired(own, condition)).containsExactlyInAnyOrder(1, 2, 4)
    }

    /** Synthetic forks of clear costs; in fork [dyingFork] the servers die at the first trial of its second condition. */
    private class DyingLab(val clock: StepClock, val dyingFork: Int) : Lab {
        private val random = java.util.Random(11)

        override fun startFork(index: Int, variant: Variant?): Fork {
            clock.advance(Duration.ofSeconds(10))
            val luck = 1 + 0.04 * random.nextGaussian()
            return object : SyntheticFork(clock) {
                val conditions = mutableSetOf<String>()

                override fun measure(run: LoadRun): Sample {
                    clock.advance(run.duration)
                    conditions += run.cell.condition.label
                    val arm = run.cell.arm
                    val hop = if (arm is Arm.Of) (if (arm.protocol.label == "gRPC/Unary") 150.0 else 400.0) else 0.0
                    val total = (300 + hop) * luck * (1 + 0.02 * random.nextGaussian())
                    return Sample(
                        Figures.of(
                            Figure.THROUGHPUT to 2e6 / (total + 150),
                            Figure.TOTAL_CPU_US to total,
                            Figure.DRIVER_CPU_US to 150.0,
                            Figure.HOP_P50 to (0.2 + hop / 1000) * luck,
                        ),
                        Fixtures.FINE_ANSWERS,
                        0,
                    )
                }

                override fun alive() = !(index == dyingFork && conditions.size > 1)
            }
        }
    }

    @Test
    fun `through the runner, a fork that dies after the minimum changes no data the planner judges, so it judges at most the split's looks`() {
        val scenario = ScenarioParser.parse(
            """
            name: failed-fork
            sizes: [1kb, 1mb]
            protocols: [HTTP/JSON, gRPC/Unary]
            load: {model: closed, vus: [10]}
            duration: 3s
            forks: 3
            maxForks: 5
            probes: first-fork
            soak: {window: 3s, min: 6s, max: 30s}
            """.trimIndent(),
            "failed-fork.yaml",
        )
        val clock = StepClock()
        // Every condition stays open and within reach, so the planner looks after every fork up to the maximum.
        val judged = mutableListOf<RunRecord>()
        val judge = Judge { r ->
            judged += r
            scenario.conditions.associate {
                it.label to listOf(OpenComparison(it.label, "HTTP/JSON vs gRPC/Unary on Hop CPU/req", moreForks = 1))
            }
        }
        val start = RunRecord(
            runId = "failed-fork",
            scenario = scenario.toRecord(),
            options = emptyMap(),
            environment = RunEnvironment.NONE,
            startedAt = clock.instant().toString(),
            status = RunStatus.RUNNING,
            seed = 5,
        )
        val record = ForkRunner(scenario, DyingLab(clock, dyingFork = 4), judge, clock, {}, {}).run(start)

        // The premise: fork 4 failed after the minimum with one condition measured whole, every arm valid.
        val failed = record.forks.single { it.status == ForkStatus.FAILED }
        assertThat(failed.index).isEqualTo(4)
        val arms = scenario.arms.map { it.label }.toSet()
        assertThat(failed.trials.filter { it.valid }.groupBy { it.condition }.values)
            .anyMatch { trials -> trials.map { it.arm }.toSet() == arms }
        assertThat(Looks.counts(record).values).containsOnly(scenario.maxForks)

        // What the planner saw at each judgement from the minimum on: the forks each condition's verdicts paired.
        val looks = Verdicts.looks(scenario.forks, scenario.maxForks)
        for (c in scenario.conditions.map { it.label }) {
            val states = judged.filter { (Looks.counts(it)[c] ?: 0) >= scenario.forks }.map { r ->
                Analysis.of(r).single { it.condition == c }.values[TrialKind.COST].orEmpty().values.flatMap { it.keys }.toSortedSet()
            }.distinct()
            assertThat(states).describedAs("$c: the data the planner judged from the minimum on").hasSizeLessThanOrEqualTo(looks)
            assertThat(states.last()).describedAs(c).doesNotContain(failed.index).hasSize(scenario.maxForks)
        }
        assertThat(Analysis.of(record).flatMap { it.decisions }).isNotEmpty().allSatisfy { d ->
            assertThat(d.looks).isEqualTo(looks)
            assertThat(d.lookAlpha).isEqualTo(Verdicts.ALPHA / looks)
            assertThat(d.estimate.n).isLessThanOrEqualTo(scenario.maxForks)
        }
    }
}
