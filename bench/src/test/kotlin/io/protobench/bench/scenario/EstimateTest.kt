package io.protobench.bench.scenario

import io.protobench.bench.run.RunStore
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Path
import java.time.Duration
import java.time.Instant

/**
 * `list`'s estimate, a model of a 2-core machine, against the wall time of the published runs
 * that calibrate it: each run's own scenario (as its record keeps it for `resume`), estimated
 * for its minimum forks, lands within 15% of what the run took from start to end.
 */
class EstimateTest {
    /** Surefire runs in bench/; the published runs are in the project's docs/results. */
    private val results: Path = Path.of("").toAbsolutePath().parent.resolve("docs/results")

    /**
     * Runs of today's design (per-arm warm-ups in 1 s windows, the lab's own driver, the A/A copy):
     * aa's pair (AMD EPYC VM), quick v and w (Intel Xeon VM, with the fork times that set the
     * estimate's start-up and runner's part), quick x and y (the same VM, 1 MB in 4 forks of 2 rounds),
     * seeds a and b (the same VM, 16 conditions in 5 forks, probes in every fork, no A/A copy), and
     * projectC a and b (the same VM, capacity mode at 500 users, three variants: 12 server pairs),
     * projectC on hop clients a and b (the same VM, one pair a fork, 5 arms), and decision-map a
     * and b (the same VM, 21 conditions in 5 forks at 30% of capacity, 100 min each).
     */
    private val calibrating = listOf(
        "2026-11-29-aa-2core-a",
        "2026-11-29-aa-2core-b",
        "2026-12-02-quick-2core-v",
        "2026-12-02-quick-2core-w",
        "2026-12-02-quick-2core-x",
        "2026-12-02-quick-2core-y",
        "2026-12-02-seeds-2core-a",
        "2026-12-02-seeds-2core-b",
        "2026-12-03-projectC-2core-a",
        "2026-12-03-projectC-2core-b",
        "2026-12-03-projectC-hop-clients-2core-a",
        "2026-12-03-projectC-hop-clients-2core-b",
        "2026-12-04-decision-map-2core-a",
        "2026-12-04-decision-map-2core-b",
    )

    @Test
    fun `a budget that cannot reach an adaptive design's most forks gives the forks it reaches`() {
        val open = ScenarioParser.parse("name: x\nsizes: [1kb, 1mb]\nduration: 3s\nforks: 3\nmaxForks: 8\n", "t")
        assertThat(open.extraForksWithinBudget()).describedAs("no budget").isNull()
        fun within(seconds: Long) = open.copy(budget = Duration.ofSeconds(seconds)).extraForksWithinBudget()
        assertThat(open.estimatedSecondsWith(3)).describedAs("each extra fork costs").isGreaterThan(open.estimatedSecondsWith(2))
        assertThat(within(open.estimatedSecondsWith(2))).isEqualTo(2)
        assertThat(within(open.estimatedSecondsWith(3) - 1)).isEqualTo(2)
        assertThat(within(open.estimatedSeconds())).describedAs("the minimum alone").isEqualTo(0)
        assertThat(within(open.estimatedSeconds(atMost = true))).describedAs("the most fits").isNull()
        assertThat(within(open.estimatedSeconds() - 1)).describedAs("not even the minimum: said apart").isNull()
        val fixed = ScenarioParser.parse("name: x\nsizes: [1kb]\nduration: 3s\nforks: 5\nmaxForks: 5\nbudget: 1m\n", "t")
        assertThat(fixed.extraForksWithinBudget()).describedAs("a fixed design has one look").isNull()
    }

    @Test
    fun `a target with fewer forks and rounds saves its own trials, not the forks the other targets still need`() {
        val base = "name: x\nsizes: [1kb, 1mb]\nduration: 3s\nforks: 5\nmaxForks: 5\nrounds: 3\nprobes: first-fork\nnoiseControl: true\n"
        val uniform = ScenarioParser.parse(base, "t")
        val own = ScenarioParser.parse(base + "forksByTarget: {1mb: 4}\nroundsByTarget: {1mb: 2}", "t")
        val arm = 3 + Scenario.TRIAL_GAP_SECONDS
        // 1mb's fifth fork (a warm-up and 3 rounds per arm) and the third round of its other four forks;
        // the five forks' start and soak stay (1kb needs them), and so does 1mb's one probe per protocol.
        val saved = own.arms.size * (Scenario.WARM_UP_SECONDS + 3 * arm) + 4 * own.arms.size * arm
        assertThat((uniform.estimatedSeconds() - own.estimatedSeconds()).toDouble())
            .isCloseTo(saved, org.assertj.core.api.Assertions.within(1.0))
    }

    @Test
    fun `the estimate of a calibrating run's own scenario is within 15 percent of its wall time`() {
        for (name in calibrating) {
            val record = RunStore.load(results.resolve(name))
            val scenario = ScenarioParser.validate(record.resume!!.scenario, name)
            val wall = Duration.between(Instant.parse(record.startedAt), Instant.parse(record.finishedAt!!)).seconds.toDouble()
            assertThat(scenario.estimatedSeconds() / wall).describedAs("$name: estimate against wall time").isBetween(0.85, 1.15)
        }
    }
}
