package io.protobench.bench.compare

import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.verdict.WelchRatio
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln
import kotlin.random.Random

/** Two synthetic runs compared: the outcomes, the regression rule, identical runs and refusals. */
class CompareTest {
    private val json = "HTTP/JSON"
    private val grpc = "gRPC/Unary"
    private val kb = "size=1kb vus=10"
    private val mb = "size=1mb vus=10"

    /**
     * A cost-mode run: harness 300 µs of both servers' CPU per request, each protocol's hop
     * [hop] µs on top; every value carries its own relative noise up to ±[noise]. [throughput]
     * adds capacity probes of the protocols. [machine] scales every CPU figure, k6's (150 µs)
     * included: a machine that runs the same code slower.
     */
    private fun run(
        id: String,
        hop: Map<String, Double>,
        noise: Double = 0.002,
        forks: Int = 5,
        seed: Int = id.hashCode(),
        conditions: List<String> = listOf(kb),
        throughput: Map<String, Double> = emptyMap(),
        machine: Double = 1.0,
    ): RunRecord {
        val random = Random(seed)
        val k6Random = Random(seed + 1)
        fun wobble() = 1 + noise * (2 * random.nextDouble() - 1)
        return Fixtures.record(conditions, hop.keys.toList() + NULL_HOP, forks) { _, kind, arm, _ ->
            when (kind) {
                TrialKind.COST -> {
                    val h = hop[arm] ?: 0.0
                    val k6 = 150.0 * machine * (1 + noise * (2 * k6Random.nextDouble() - 1))
                    Fixtures.cost((300 + h) * machine * wobble(), hopP50 = (0.2 + h / 100) * wobble()) +
                        (Figure.LATENCY_P99 to 5.0 * wobble()) + (Figure.DRIVER_CPU_US to k6)
                }

                TrialKind.CAPACITY -> throughput[arm]?.let { Figures.of(Figure.THROUGHPUT to it * wobble()) }
            }
        }.copy(runId = id)
    }

    private fun compared(result: CompareResult): Comparison {
        assertThat(result).isInstanceOf(CompareResult.Compared::class.java)
        return (result as CompareResult.Compared).comparison
    }

    private fun Comparison.change(arm: String, figure: Figure, condition: String = kb) = conditions.single {
        it.condition == condition
    }.changes.single {
        it.arm ==
            arm &&
            it.figure == figure
    }

    @Test
    fun `a clear rise in hop CPU is a regression beyond the margin, and the unchanged protocol is equivalent`() {
        val a = run("a", mapOf(json to 200.0, grpc to 100.0))
        val b = run("b", mapOf(json to 200.0, grpc to 130.0))
        val c = compared(RunComparison.of(a, b))
        val grpcHop = c.change(grpc, Figure.HOP_CPU_US)
        assertThat(grpcHop.change).isEqualTo(Change.Regression)
        assertThat(grpcHop.estimate.percent).isCloseTo(30.0, within(3.0))
        assertThat(grpcHop.interval!!.low).isGreaterThan(1.05)
        assertThat(grpcHop.a!!.mean).isCloseTo(100.0, within(3.0))
        assertThat(grpcHop.b!!.mean).isCloseTo(130.0, within(3.0))
        assertThat(c.change(json, Figure.HOP_CPU_US).change).isEqualTo(Change.Equivalent)
        assertThat(c.change(json, Figure.TOTAL_CPU_US).change).isEqualTo(Change.Equivalent)
        assertThat(c.hasRegression).isTrue()
        assertThat(c.regressions.map { it.second.arm }).contains(grpc).doesNotContain(json)
        // Every cost figure, both protocols; the null hop is a control and is not compared.
        assertThat(c.changes.map { it.figure }.distinct()).containsExactlyInAnyOrderElementsOf(RunComparison.COST_FIGURES)
        assertThat(c.changes.map { it.arm }.distinct()).containsExactlyInAnyOrder(json, grpc)
        assertThat(c.margin).isEqualTo(0.05)
        assertThat(CompareMarkdown.summary(c)).startsWith("${c.regressions.size} regressions beyond the margin")
    }

    @Test
    fun `one protocol across two settings is a setting verdict, a gap across two settings an interaction, each counted apart`() {
        fun pair(first: String, second: String, interaction: Boolean = false) = VerdictPair(
            kb, io.protobench.bench.measure.TrialKind.COST, Figure.HOP_P50.key, first, second, null, null, Agreement.AGREE, interaction,
        )
        assertThat(pair("HTTP/JSON · region", "HTTP/JSON · wan").scope).isEqualTo(Scope.SETTINGS)
        assertThat(pair("HTTP/JSON · wan", "gRPC/Unary · wan").scope).isEqualTo(Scope.PROTOCOLS)
        assertThat(pair(json, grpc).scope).isEqualTo(Scope.PROTOCOLS)
        assertThat(pair("HTTP/JSON ÷ gRPC/Unary · g1-4g", "HTTP/JSON ÷ gRPC/Unary · g1-256m", interaction = true).scope)
            .isEqualTo(Scope.INTERACTIONS)
    }

    private fun Comparison.verdict(figure: Figure, condition: String = kb) = verdicts.single {
        it.condition == condition &&
            it.figure == figure.key &&
            setOf(it.first, it.second) == setOf(json, grpc)
    }

    @Test
    fun `each run's verdicts side by side - the same winner agrees, the opposite one contradicts`() {
        val a = run("a", mapOf(json to 200.0, grpc to 100.0))
        val same = compared(RunComparison.of(a, run("b", mapOf(json to 210.0, grpc to 100.0))))
        assertThat(same.verdict(Figure.HOP_CPU_US).agreement).isEqualTo(Agreement.AGREE)
        assertThat(same.verdict(Figure.HOP_P50).agreement).isEqualTo(Agreement.AGREE)
        assertThat(same.verdictsHold).isTrue()

        val opposite = compared(RunComparison.of(a, run("b", mapOf(json to 200.0, grpc to 300.0))))
        val hopCpu = opposite.verdict(Figure.HOP_CPU_US)
        assertThat(hopCpu.agreement).isEqualTo(Agreement.CONTRADICT)
        assertThat((hopCpu.a!!.outcome as io.protobench.bench.verdict.Outcome.Better).winner).isEqualTo(grpc)
        assertThat((hopCpu.b!!.outcome as io.protobench.bench.verdict.Outcome.Better).winner).isEqualTo(json)
        assertThat(opposite.verdictsHold).isFalse()
        assertThat(CompareMarkdown.verdictSummary(opposite))
            .isEqualTo("Verdicts of each run between protocols: 0 agree, 0 decided in one run only, 2 contradict")
        val md = CompareMarkdown.render(opposite)
        assertThat(md).contains(
            "## Verdicts of each run",
            "| $kb | Hop CPU/req |",
            "$grpc cheaper by",
            "$json cheaper by",
            "**contradict**",
        )
        assertThat(CompareMarkdown.contradiction(hopCpu))
            .startsWith("contradiction: $kb, Hop CPU/req, ")
            .contains("run A $grpc cheaper by", "; run B $json cheaper by")
    }

    @Test
    fun `equivalence agrees with a winner inside the margin and contradicts one beyond it`() {
        val tie = run("a", mapOf(json to 100.0, grpc to 100.0), noise = 0.0005)
        val small = compared(RunComparison.of(tie, run("b", mapOf(json to 103.0, grpc to 100.0), noise = 0.0005)))
        val insideB = small.verdict(Figure.HOP_CPU_US)
        assertThat(insideB.a!!.outcome).isEqualTo(io.protobench.bench.verdict.Outcome.Equivalent)
        assertThat(insideB.b!!.insideMargin).describedAs(insideB.b!!.describe()).isTrue()
        assertThat(insideB.agreement).isEqualTo(Agreement.AGREE)
        assertThat(CompareMarkdown.render(small)).contains("equivalent within ±5%", ", inside ±5%")

        val large = compared(RunComparison.of(tie, run("b", mapOf(json to 200.0, grpc to 100.0), noise = 0.0005)))
        assertThat(large.verdict(Figure.HOP_CPU_US).agreement).isEqualTo(Agreement.CONTRADICT)
    }

    @Test
    fun `equivalence and a winner contradict only when the winner's whole interval lies beyond the margin`() {
        val tie = run("a", mapOf(json to 100.0, grpc to 100.0), noise = 0.0005)
        val equivalent = compared(RunComparison.of(tie, run("b", mapOf(json to 100.0, grpc to 100.0), noise = 0.0005)))
            .verdict(Figure.HOP_CPU_US).a!!
        assertThat(equivalent.outcome).isEqualTo(io.protobench.bench.verdict.Outcome.Equivalent)
        fun winner(low: Double, high: Double) = equivalent.copy(
            outcome = io.protobench.bench.verdict.Outcome.Better(
                true,
                json,
                grpc,
                (low + high) / 2,
                low,
                high,
            ),
        )

        // The seeds pair's case: cheaper by 2.9% [0.4%, 5.3%] in one run, within ±5% in the other: both hold at 3%.
        assertThat(VerdictAgreement.agreement(winner(0.4, 5.3), equivalent)).isEqualTo(Agreement.AGREE)
        assertThat(VerdictAgreement.agreement(equivalent, winner(0.4, 5.3))).isEqualTo(Agreement.AGREE)
        assertThat(VerdictAgreement.agreement(winner(1.0, 4.0), equivalent)).isEqualTo(Agreement.AGREE)
        assertThat(VerdictAgreement.agreement(winner(5.0, 12.0), equivalent)).isEqualTo(Agreement.CONTRADICT)
        assertThat(VerdictAgreement.agreement(equivalent, winner(6.0, 12.0))).isEqualTo(Agreement.CONTRADICT)
    }

    @Test
    fun `a comparison one run left open is decided in the other only, and one open in both is not listed`() {
        val decided = run("a", mapOf(json to 200.0, grpc to 100.0))
        val open = run("b", mapOf(json to 200.0, grpc to 100.0), forks = 1) // one fork: no verdict at all
        val c = compared(RunComparison.of(decided, open))
        assertThat(c.verdicts).isNotEmpty.allSatisfy { assertThat(it.agreement).isEqualTo(Agreement.ONE_RUN_ONLY) }
        assertThat(CompareMarkdown.render(c)).contains("decided in run A only")
        assertThat(compared(RunComparison.of(open, decided)).verdicts).allSatisfy { assertThat(it.b).isNotNull() }
        assertThat(CompareMarkdown.render(compared(RunComparison.of(open, decided)))).contains("decided in run B only")

        val bothOpen = compared(RunComparison.of(open, run("c", mapOf(json to 200.0, grpc to 100.0), forks = 1)))
        assertThat(bothOpen.verdicts).isEmpty()
        assertThat(CompareMarkdown.render(bothOpen)).contains("Neither run decided a comparison")
    }

    @Test
    fun `the null hop is the yardstick - a machine that runs the same harness slower moves it, a second run on the same machine does not`() {
        val a = run("a", mapOf(json to 200.0, grpc to 100.0))
        val slower = compared(RunComparison.of(a, run("b", mapOf(json to 200.0, grpc to 100.0), machine = 1.5)))
        val figures = slower.yardstick.single().changes
        assertThat(figures.map { it.arm }).containsOnly(NULL_HOP)
        assertThat(figures.map { it.figure }).containsExactlyInAnyOrderElementsOf(RunComparison.YARDSTICK_FIGURES)
        assertThat(figures).allSatisfy { assertThat(it.estimate.percent).isCloseTo(50.0, within(2.0)) }
        assertThat(slower.yardstickMoved).hasSize(2)
        assertThat(CompareMarkdown.yardstickSummary(slower))
            .startsWith("Yardstick: the null hop's cost changed beyond noise in 2 of 2 figures (+")
        assertThat(CompareMarkdown.render(slower))
            .contains("## Yardstick: the null hop", "| $kb | $NULL_HOP | Driver CPU/req", "costlier in run B beyond noise")
        // The protocols' hop CPU is the difference to the null hop, so it grew with the machine too.
        assertThat(slower.change(grpc, Figure.HOP_CPU_US).change).isEqualTo(Change.Regression)

        val same = compared(RunComparison.of(a, run("a2", mapOf(json to 200.0, grpc to 100.0))))
        assertThat(same.yardstickMoved).isEmpty()
        assertThat(CompareMarkdown.yardstickSummary(same))
            .isEqualTo("Yardstick: none of the null hop's figures changed beyond noise (2 of 2 equivalent within ±5%)")
    }

    @Test
    fun `the same change the other way is an improvement, and nothing regressed`() {
        val c = compared(RunComparison.of(run("a", mapOf(json to 200.0, grpc to 130.0)), run("b", mapOf(json to 200.0, grpc to 100.0))))
        assertThat(c.change(grpc, Figure.HOP_CPU_US).change).isEqualTo(Change.Improvement)
        assertThat(c.hasRegression).isFalse()
    }

    @Test
    fun `a clear change for the worse inside the margin is worse but not a regression`() {
        val c = compared(RunComparison.of(run("a", mapOf(grpc to 100.0), noise = 0.0005), run("b", mapOf(grpc to 103.0), noise = 0.0005)))
        val hop = c.change(grpc, Figure.HOP_CPU_US)
        assertThat(hop.change).isEqualTo(Change.Worse)
        assertThat(hop.interval!!.low).isGreaterThan(1.0).isLessThan(1.05)
        assertThat(c.hasRegression).isFalse()
        // A wider margin of 2% makes the same change a regression.
        val strict = compared(
            RunComparison.of(
                run("a", mapOf(grpc to 100.0), noise = 0.0005),
                run("b", mapOf(grpc to 103.0), noise = 0.0005),
                margin = 0.02,
            ),
        )
        assertThat(strict.change(grpc, Figure.HOP_CPU_US).change).isEqualTo(Change.Regression)
    }

    @Test
    fun `lower throughput is worse, higher is better for capacity probes`() {
        val a = run("a", mapOf(grpc to 100.0), throughput = mapOf(grpc to 2000.0))
        val b = run("b", mapOf(grpc to 100.0), throughput = mapOf(grpc to 1600.0))
        val throughput = compared(RunComparison.of(a, b)).change(grpc, Figure.THROUGHPUT)
        assertThat(throughput.kind).isEqualTo(TrialKind.CAPACITY)
        assertThat(throughput.change).isEqualTo(Change.Regression)
        assertThat(throughput.estimate.percent).isCloseTo(-20.0, within(1.0))
        val faster = compared(RunComparison.of(b, a)).change(grpc, Figure.THROUGHPUT)
        assertThat(faster.change).isEqualTo(Change.Improvement)
    }

    @Test
    fun `two runs of the same servers come out equivalent`() {
        val c = compared(RunComparison.of(run("a", mapOf(json to 200.0, grpc to 100.0)), run("b", mapOf(json to 200.0, grpc to 100.0))))
        assertThat(c.changes).allSatisfy { assertThat(it.change).isEqualTo(Change.Equivalent) }
        assertThat(c.hasRegression).isFalse()
        assertThat(CompareMarkdown.summary(c))
            .isEqualTo("0 regressions beyond the margin, 0 improvements, ${c.changes.size} equivalent, 0 inconclusive")
    }

    @Test
    fun `noisy runs are inconclusive, with the forks per run that would decide`() {
        val c = compared(
            RunComparison.of(
                run("a", mapOf(grpc to 100.0), noise = 0.08, forks = 3),
                run("b", mapOf(grpc to 106.0), noise = 0.08, forks = 3),
            ),
        )
        val hop = c.change(grpc, Figure.HOP_CPU_US).change
        assertThat(hop).isInstanceOf(Change.Inconclusive::class.java)
        assertThat((hop as Change.Inconclusive).tooFewForks).isEmpty()
        assertThat(c.hasRegression).isFalse()
        // The forks per run, when given, are more than the runs have.
        hop.forksPerRun?.let { assertThat(it).isGreaterThan(3) }
    }

    @Test
    fun `an arm with fewer than 2 forks in a run is inconclusive and says which run`() {
        val c = compared(RunComparison.of(run("a", mapOf(grpc to 100.0)), run("b", mapOf(grpc to 150.0), forks = 1)))
        val hop = c.change(grpc, Figure.HOP_CPU_US)
        assertThat(hop.change).isEqualTo(Change.Inconclusive(listOf(Side.B), null))
        assertThat(hop.forksA).isEqualTo(5)
        assertThat(hop.forksB).isEqualTo(1)
        assertThat(CompareMarkdown.render(c)).contains("inconclusive: fewer than 2 forks in run B")
    }

    @Test
    fun `a run compared with itself is identical, without statistics`() {
        val a = run("a", mapOf(grpc to 100.0))
        assertThat(RunComparison.of(a, a)).isEqualTo(CompareResult.Identical("a", "a"))
        assertThat((RunComparison.of(a, a) as CompareResult.Identical).message()).isEqualTo("identical: both are run a")
        // A copy under another name holds the same per-fork values.
        val copy = RunComparison.of(a, a.copy(runId = "copy"))
        assertThat(copy).isInstanceOf(CompareResult.Identical::class.java)
        assertThat((copy as CompareResult.Identical).message()).isEqualTo("identical: runs a and copy hold the same per-fork values")
        assertThat(copy.message(io.protobench.bench.text.Texts.of(io.protobench.bench.text.Lang.KO)))
            .isEqualTo("동일함: 실행 a, copy의 포크별 값이 같음")
        // Two searches name their points alike: the same folder name started at another time is another run.
        val twin = run("a", mapOf(grpc to 150.0)).copy(startedAt = a.startedAt + "-later")
        assertThat(RunComparison.of(a, twin)).isInstanceOf(CompareResult.Compared::class.java)
    }

    @Test
    fun `runs that share no condition are refused, listing both runs' conditions, even with force`() {
        val a = run("a", mapOf(grpc to 100.0), conditions = listOf(kb))
        val b = run("b", mapOf(grpc to 100.0), conditions = listOf(mb))
        for (force in listOf(false, true)) {
            val refused = RunComparison.of(a, b, force = force) as CompareResult.Refused
            assertThat(refused.noSharedCondition).isTrue()
            assertThat(refused.conditionsA).containsExactly(kb)
            assertThat(refused.conditionsB).containsExactly(mb)
        }
    }

    @Test
    fun `runs on different machines or settings are refused unless forced, and forced ones say so at the top`() {
        val a = run("a", mapOf(grpc to 100.0))
        val b = run("b", mapOf(grpc to 100.0)).let {
            it.copy(environment = it.environment.copy(cpuCores = 4), scenario = it.scenario.copy(durationMs = 10_000))
        }
        val refused = RunComparison.of(a, b) as CompareResult.Refused
        assertThat(refused.noSharedCondition).isFalse()
        assertThat(refused.differences.map { it.toString() }).containsExactly("cpuCores: A=2 B=4", "durationMs: A=5000 B=10000")
        val forced = compared(RunComparison.of(a, b, force = true))
        assertThat(forced.warnings).isEqualTo(refused.differences)
        val md = CompareMarkdown.render(forced)
        assertThat(md.indexOf("cpuCores: A=2 B=4")).isBetween(0, md.indexOf("## What was compared"))
        assertThat(md).contains("--force")

        val direct = run("c", mapOf(grpc to 100.0)).let {
            it.copy(scenario = it.scenario.copy(topology = io.protobench.bench.scenario.Topology.DIRECT))
        }
        assertThat((RunComparison.of(a, direct) as CompareResult.Refused).differences.map { it.toString() })
            .containsExactly("topology: A=gateway B=direct")
    }

    @Test
    fun `conditions and arms only in one run are listed as not compared, and an incomplete run is named`() {
        val a = run("a", mapOf(json to 200.0, grpc to 100.0), conditions = listOf(kb, mb))
        val b = run("b", mapOf(grpc to 100.0), conditions = listOf(kb))
            .copy(status = RunStatus.INTERRUPTED, failure = "stopped by a signal")
        val c = compared(RunComparison.of(a, b))
        assertThat(c.conditions.map { it.condition }).containsExactly(kb)
        assertThat(c.notCompared).containsExactlyInAnyOrder(
            NotCompared(mb, Side.A, isCondition = true),
            NotCompared(json, Side.A, isCondition = false),
        )
        assertThat(c.b.incomplete).isTrue()
        val md = CompareMarkdown.render(c)
        assertThat(md).contains(
            "Run B (b) is incomplete (interrupted: stopped by a signal)",
            "## Not compared",
            "- condition $mb: only in run A",
            "- arm $json: only in run A",
        )
    }

    @Test
    fun `cost trials at calibrated rates more than 10% apart are named in the notes, closer ones are not`() {
        fun calibrated(id: String, kbRate: Int, mbRate: Int) =
            run(id, mapOf(json to 200.0, grpc to 100.0), conditions = listOf(kb, mb)).copy(
                calibrations = listOf(
                    Calibration(kb, 1, kbRate * 2.0, json, kbRate, 100),
                    Calibration(mb, 1, mbRate * 2.0, json, mbRate, 100),
                ),
            )
        val c = compared(RunComparison.of(calibrated("a", 1848, 166), calibrated("b", 1874, 134)))
        assertThat(c.notes).hasSize(1)
        assertThat(c.notes.single().text()).startsWith("$mb: the cost trials ran at 166/s in run A and 134/s in run B (19% apart")
        assertThat(CompareMarkdown.render(c)).contains("166/s in run A and 134/s in run B")
    }

    @Test
    fun `compare md has the header, a table per condition, the rule and the summary`() {
        val c = compared(RunComparison.of(run("a", mapOf(json to 200.0, grpc to 100.0)), run("b", mapOf(json to 200.0, grpc to 130.0))))
        val md = CompareMarkdown.render(c)
        assertThat(md).contains(
            "# Comparison: a → b", "| run | a | b |", "| status | complete | complete |", "## $kb",
            "| arm | figure | A mean [95% CI] | B mean [95% CI] | change [Holm-adjusted interval] | outcome |",
            "A **regression** is a change for the worse", "more than +5%", "## Summary", "regression: $kb, $grpc, Hop CPU/req: +",
        )
        assertThat(md).doesNotContain("## Not compared")
        assertThat(md.lines().count { it.startsWith("| $grpc |") }).isEqualTo(RunComparison.COST_FIGURES.size)
    }

    @Test
    fun `the change is the Welch ratio of B to A on the forks' values`() {
        val a = run("a", mapOf(grpc to 100.0), noise = 0.05)
        val b = run("b", mapOf(grpc to 120.0), noise = 0.05)
        val p99 = compared(RunComparison.of(a, b)).change(grpc, Figure.LATENCY_P99)
        fun values(r: RunRecord) = r.trials.filter { it.arm == grpc && it.kind == TrialKind.COST }.map { it.figures[Figure.LATENCY_P99] }
        val reference = WelchRatio.of(values(b), values(a))
        assertThat(p99.estimate.meanLog).isCloseTo(reference.meanLog, within(1e-12))
        assertThat(p99.estimate.meanLog).isCloseTo(
            values(b).map {
                ln(it!!)
            }.average() - values(a).map { ln(it!!) }.average(),
            within(1e-12),
        )
        assertThat(exp(p99.estimate.meanLog)).isCloseTo(reference.ratio, within(1e-12))
    }
}
