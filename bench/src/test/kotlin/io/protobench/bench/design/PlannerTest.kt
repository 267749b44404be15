package io.protobench.bench.design

import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.ScenarioParser
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Duration

/** Where the planner sends the next fork, from the open comparisons the judge reports. */
class PlannerTest {
    private val scenario = ScenarioParser.parse(
        """
        name: plan
        sizes: [1kb]
        load: {model: closed, vus: [10]}
        duration: 3s
        forks: 3
        maxForks: 5
        """.trimIndent(),
        "plan.yaml",
    )
    private val condition = scenario.conditions.single().label

    /** A record whose condition has [forks] completed forks. */
    private fun measured(forks: Int) = RunRecord(
        runId = "plan",
        scenario = scenario.toRecord(),
        options = emptyMap(),
        environment = RunEnvironment.NONE,
        startedAt = "2026-01-01T00:00:00Z",
        status = RunStatus.RUNNING,
        seed = 1,
        forks = (1..forks).map { ForkRecord(it, listOf(condition), "2026-01-01T00:00:00Z", ForkStatus.COMPLETE) },
    )

    private fun next(open: OpenComparison) = Planner(scenario).next(measured(3), mapOf(condition to listOf(open)), Duration.ZERO)

    @Test
    fun `an open comparison within reach earns a fork, one no number of forks would decide does not`() {
        assertThat(next(OpenComparison(condition, "A vs B", moreForks = 2))).isInstanceOf(Step.NextFork::class.java)
        assertThat(next(OpenComparison(condition, "A vs B", moreForks = 3))).isInstanceOf(Step.Stop::class.java)
        val beyond = next(OpenComparison(condition, "A vs B", moreForks = null, beyondReach = true))
        assertThat(beyond).isInstanceOf(Step.Stop::class.java)
        assertThat((beyond as Step.Stop).reason).contains("would take more than the most forks allowed")
        // Without an estimate yet (fewer than 2 usable forks), another fork is how to get one.
        assertThat(next(OpenComparison(condition, "A vs B", moreForks = null))).isInstanceOf(Step.NextFork::class.java)
    }

    @Test
    fun `a target with fewer forks of its own leaves the forks past its minimum to the others, and its maximum moves with it`() {
        val own = ScenarioParser.parse(
            "name: own\nsizes: [1kb, 1mb]\nduration: 3s\nforks: 3\nmaxForks: 4\nforksByTarget: {1mb: 2}",
            "own.yaml",
        )
        val (small, large) = own.conditions.map { it.label }
        fun after(forks: Int, largeForks: Int) = RunRecord(
            runId = "own",
            scenario = own.toRecord(),
            options = emptyMap(),
            environment = RunEnvironment.NONE,
            startedAt = "2026-01-01T00:00:00Z",
            status = RunStatus.RUNNING,
            seed = 1,
            forks = (1..forks).map {
                ForkRecord(it, listOfNotNull(small, large.takeIf { _ -> it <= largeForks }), "2026-01-01T00:00:00Z", ForkStatus.COMPLETE)
            },
        )
        fun conditions(step: Step) = (step as Step.NextFork).conditions.map { it.label }
        val decided = emptyMap<String, List<OpenComparison>>()
        assertThat(conditions(Planner(own).next(after(2, 2), decided, Duration.ZERO))).containsExactly(small)
        assertThat(Planner(own).belowMinimum(after(2, 2)).map { it.condition }).containsExactly(small)
        assertThat(Planner(own).next(after(3, 2), decided, Duration.ZERO)).isInstanceOf(Step.Stop::class.java)
        // Open at its minimum, 1mb may take one fork more (3 = 2 + 4 − 3), not the scenario's 4.
        val open = mapOf(large to listOf(OpenComparison(large, "A vs B", moreForks = 1)))
        assertThat(conditions(Planner(own).next(after(3, 2), open, Duration.ZERO))).containsExactly(large)
        val atItsMost = Planner(own).next(after(3, 3), open, Duration.ZERO)
        assertThat((atItsMost as Step.Stop).reason).contains("reached the most forks allowed (3–4)")
    }
}
