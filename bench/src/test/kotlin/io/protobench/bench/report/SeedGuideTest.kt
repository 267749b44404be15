package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.text.Texts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The seeds' selection guide judged by a run: each row and crossover labelled from the run's own decisions. */
class SeedGuideTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"
    private val json = "HTTP/JSON"
    private val stream = "gRPC/Stream"
    private val jitter = listOf(1.0, 1.03, 0.98, 1.01, 0.99, 1.02)

    /**
     * A run of the given conditions in which each protocol's closed-model throughput is
     * [throughput] of its condition and protocol (HTTP/JSON and gRPC/Stream 1,000/s where not
     * given), each wobbling by [noise] from fork to fork; cost trials alike for every protocol.
     */
    private fun record(
        throughput: Map<String, Map<String, Double>>,
        noise: Double = 0.01,
        forks: Int = 6,
        phases: Boolean = true,
    ): RunRecord {
        val r = Fixtures.record(
            throughput.keys.toList(),
            listOf(json, binary, grpc, stream, NULL_HOP),
            forks,
        ) { condition, kind, arm, fork ->
            val wobble = 1 + noise * kotlin.math.sin(arm.hashCode() * 0.7 + fork * 2.3 + condition.length)
            when {
                kind == TrialKind.CAPACITY && arm != NULL_HOP ->
                    Figures.of(Figure.THROUGHPUT to (throughput.getValue(condition)[arm] ?: 1000.0) * wobble * jitter[fork - 1])

                kind == TrialKind.COST -> Fixtures.cost(300.0 * wobble * jitter[fork - 1])

                else -> null
            }
        }
        if (!phases) return r
        return r.copy(scenario = r.scenario.copy(conditions = r.scenario.conditions.map { it.copy(phases = listOf("phase4")) }))
    }

    private fun rates(g: Double, b: Double) = mapOf(grpc to g, binary to b)

    private fun row(n: Int) = SeedGuide.claims.rows.single { it.row == n }
    private fun crossover(id: String) = SeedGuide.claims.crossovers.single { it.id == id }
    private fun throughputOf(findings: List<GuideFinding>) = findings.single { it.figure == Figure.THROUGHPUT }

    @Test
    fun `the guide's seven rows and three crossovers are read with their pairs and conditions`() {
        assertThat(SeedGuide.claims.rows.map { it.row }).containsExactly(1, 2, 3, 4, 5, 6, 7)
        assertThat(row(1).percent).containsExactly(30.0, 67.0)
        assertThat(row(5).than).isEqualTo(json)
        assertThat(row(7).than).isNull()
        assertThat(SeedGuide.claims.crossovers.map { it.id }).containsExactly("size", "users", "complexity")
        for (c in SeedGuide.claims.crossovers) assertThat(c.conditions).describedAs(c.id).containsAll(c.between)
    }

    @Test
    fun `a row holds where the seed's range meets the interval, and is smaller where the whole interval lies below it`() {
        val holds = Analysis.of(record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0), "size=10kb vus=10" to rates(1450.0, 1000.0))))
        val found = throughputOf(SeedGuide.row(row(1), holds))
        assertThat(found.points.map { it.label }).containsExactly(GuideLabel.HOLDS, GuideLabel.HOLDS)
        assertThat(found.label).isEqualTo(GuideLabel.HOLDS)

        val smaller = Analysis.of(record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0), "size=10kb vus=10" to rates(1100.0, 1000.0))))
        val some = throughputOf(SeedGuide.row(row(1), smaller))
        assertThat(some.points.map { it.label }).containsExactly(GuideLabel.HOLDS, GuideLabel.SMALLER)
        assertThat(some.label).isEqualTo(GuideLabel.SMALLER)
    }

    @Test
    fun `one condition decided against the seed's direction contradicts the row, and an undecided one leaves it open`() {
        val against = Analysis.of(record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0), "size=10kb vus=10" to rates(800.0, 1000.0))))
        assertThat(throughputOf(SeedGuide.row(row(1), against)).label).isEqualTo(GuideLabel.CONTRADICTED)

        val noisy = Analysis.of(
            record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0), "size=10kb vus=10" to rates(1080.0, 1000.0)), noise = 0.3),
        )
        val open = throughputOf(SeedGuide.row(row(1), noisy))
        assertThat(open.points.map { it.label }).contains(GuideLabel.OPEN)
        assertThat(open.label).isEqualTo(GuideLabel.OPEN)
    }

    @Test
    fun `protocols shown equivalent make the row smaller than the seed's, not contradicted`() {
        val alike = Analysis.of(record(mapOf("size=1kb vus=10" to rates(1000.0, 1000.0)), noise = 0.002))
        val found = throughputOf(SeedGuide.row(row(1), alike))
        assertThat(found.points.single().decision.outcome).isEqualTo(io.protobench.bench.verdict.Outcome.Equivalent)
        assertThat(found.label).isEqualTo(GuideLabel.SMALLER)
    }

    @Test
    fun `a crossover holds with the run's own flip, and is contradicted where the other protocol wins on the seed's side`() {
        val seedLike = mapOf(
            "size=10kb vus=10" to rates(1600.0, 1000.0),
            "size=100kb vus=10" to rates(1300.0, 1000.0),
            "size=200kb vus=10" to rates(1000.0, 1200.0),
            "size=500kb vus=10" to rates(1000.0, 1600.0),
        )
        val holds = throughputOf(SeedGuide.crossover(crossover("size"), Analysis.of(record(seedLike))))
        assertThat(holds.label).isEqualTo(GuideLabel.HOLDS)
        assertThat(holds.flips).containsExactly(GuideFlip(grpc, binary, "size=100kb vus=10", "size=200kb vus=10"))

        val early = seedLike + ("size=100kb vus=10" to rates(1000.0, 1300.0))
        val moved = throughputOf(SeedGuide.crossover(crossover("size"), Analysis.of(record(early))))
        assertThat(moved.label).isEqualTo(GuideLabel.CONTRADICTED)
        assertThat(moved.flips).containsExactly(GuideFlip(grpc, binary, "size=10kb vus=10", "size=100kb vus=10"))

        // The other way round: HTTP/Binary ahead at the small end, gRPC/Unary at the large one; an open point between is passed over.
        val reversed = mapOf(
            "size=10kb vus=10" to rates(1000.0, 1300.0),
            "size=100kb vus=10" to rates(1000.0, 1010.0),
            "size=500kb vus=10" to rates(1500.0, 1000.0),
        )
        val turned = throughputOf(SeedGuide.crossover(crossover("size"), Analysis.of(record(reversed, noise = 0.05))))
        assertThat(turned.label).isEqualTo(GuideLabel.CONTRADICTED)
        assertThat(turned.flips).containsExactly(GuideFlip(binary, grpc, "size=10kb vus=10", "size=500kb vus=10"))
    }

    @Test
    fun `a size that misses the seed's range where decided labels the row, whatever its open conditions decide later`() {
        // 1 KB: gRPC/Unary 10% ahead, decided, short of the seed's 30-67%; 10 KB: gRPC/Unary's every other fork at 70%, undecided.
        val mixed = Analysis.of(
            record(
                mapOf(
                    "size=1kb vus=10" to rates(1100.0, 1000.0),
                    "size=10kb vus=10" to rates(1080.0, 1000.0),
                ),
            ).let { rec ->
                rec.copy(
                    forks = rec.forks.map { f ->
                        f.copy(
                            trials = f.trials.map { t ->
                                if (t.condition == "size=10kb vus=10" && t.kind == TrialKind.CAPACITY && t.arm == grpc && t.fork % 2 == 0) {
                                    t.copy(figures = Figures.of(Figure.THROUGHPUT to 700.0))
                                } else {
                                    t
                                }
                            },
                        )
                    },
                )
            },
        )
        val open = throughputOf(SeedGuide.row(row(1), mixed))
        assertThat(open.points.map { it.label }).containsExactly(GuideLabel.SMALLER, GuideLabel.OPEN)
        assertThat(open.label).isEqualTo(GuideLabel.SMALLER)
    }

    @Test
    fun `the report of a run of seed phases carries the guide line by line in both languages, and a run without phases does not`() {
        val r = record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0), "size=10kb vus=10" to rates(1450.0, 1000.0)))
        val en = MarkdownReport.render(r)
        assertThat(en).contains(
            "## The seed's guide, line by line",
            "| 1 | Small APIs (≤ 100 KB): gRPC/Unary 30–67% faster",
            "size=1kb vus=10: gRPC/Unary faster by",
            "| *holds* |",
            "a need, not judged",
        )
        val ko = MarkdownReport.render(r, Texts.of(io.protobench.bench.text.Lang.KO))
        assertThat(ko).contains("## 시드의 가이드, 한 줄씩", "「소용량 API (≤100KB)", "*성립*").doesNotContain("Small APIs (≤ 100 KB)")
        assertThat(MarkdownReport.render(record(mapOf("size=1kb vus=10" to rates(1500.0, 1000.0)), phases = false)))
            .doesNotContain("The seed's guide, line by line")
    }
}
