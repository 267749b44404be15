package io.protobench.bench.report

import io.protobench.bench.compare.Agreement
import io.protobench.bench.compare.Scope
import io.protobench.bench.compare.VerdictAgreement
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.verdict.Outcome
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.data.Offset
import org.junit.jupiter.api.Test

/** Does a gap between two protocols depend on a setting: the ratio of ratios, decided in its own Holm family. */
class InteractionTest {
    private val json = "HTTP/JSON"
    private val grpc = "gRPC/Unary"
    private val condition = "size=1mb vus=10"

    /** Per-fork noise of a few percent, the same in every arm's pattern but shifted so the arms do not move together. */
    private fun noise(arm: String, fork: Int) = 1 + 0.02 * kotlin.math.sin(fork * 1.7 + arm.length)

    /**
     * Two protocols and the null hop under two variants; [hops] gives each protocol's hop
     * CPU per request by variant (the null hop's servers spend 200 µs), hop p50 the same
     * number in µs / 1,000.
     */
    private fun record(hops: Map<String, Map<String, Double>>, variants: List<Variant>): RunRecord {
        val arms = variants.flatMap { v -> listOf(json, grpc, NULL_HOP).map { Variant.label(it, v.name) } }
        val base = Fixtures.record(listOf(condition), arms, 5) { _, kind, label, fork ->
            if (kind != TrialKind.COST) return@record null
            val (arm, variant) = Variant.split(label)
            val hop = if (arm == NULL_HOP) 0.0 else hops.getValue(variant!!).getValue(arm) * noise(label, fork)
            Fixtures.cost(200.0 + hop, hopP50 = hop / 1000 + 0.001)
        }
        return base.copy(scenario = base.scenario.copy(protocols = listOf(json, grpc), variants = variants))
    }

    private val heaps = listOf(Variant("small", heap = "256m"), Variant("large", heap = "4g"))

    @Test
    fun `a gap that narrows under a variant is decided to depend on it, with its factor`() {
        // JSON costs twice gRPC's hop with a small heap, 1.25 times with a large one: ×0.625.
        val r = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 500.0, grpc to 400.0)), heaps)

        val interaction = Analysis.of(r).single().family(TrialKind.COST)!!.interactions
            .single { it.decision.figure == Figure.HOP_CPU_US.key }

        assertThat(interaction.case.x).isEqualTo(json)
        assertThat(interaction.case.baseline).isEqualTo("small")
        assertThat(interaction.decision.outcome).isInstanceOf(Outcome.Better::class.java)
        assertThat(interaction.decision.estimate.ratio).isCloseTo(0.625, Offset.offset(0.02))
    }

    @Test
    fun `a setting that makes both protocols cheaper alike leaves the gap alone`() {
        // The large heap takes 40% off both hops: the setting matters, the choice does not move.
        val r = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 480.0, grpc to 240.0)), heaps)

        val family = Analysis.of(r).single().family(TrialKind.COST)!!

        assertThat(family.variantDecisions.filter { it.figure == Figure.TOTAL_CPU_US.key }).allMatch { it.isBetter }
        assertThat(family.interactions.single { it.decision.figure == Figure.HOP_CPU_US.key }.decision.outcome)
            .isEqualTo(Outcome.Equivalent)
    }

    @Test
    fun `interactions are a Holm family of their own, apart from the variant comparisons`() {
        val r = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 500.0, grpc to 400.0)), heaps)

        val family = Analysis.of(r).single().family(TrialKind.COST)!!

        // One protocol pair, one variant against the baseline, two cost figures.
        assertThat(family.interactions).hasSize(2)
        assertThat(family.interactions).allMatch { it.decision.familySize == 2 }
        assertThat(family.decisions.map { it.a }).noneMatch { "÷" in it }
    }

    @Test
    fun `compare sets two runs' interactions side by side - a gap that narrows in one and widens in the other contradicts`() {
        val narrows = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 500.0, grpc to 400.0)), heaps)
        val widens = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 1200.0, grpc to 400.0)), heaps)

        fun interactionsOf(a: RunRecord, b: RunRecord) = VerdictAgreement.of(Analysis.of(a), Analysis.of(b))
            .filter { it.scope == Scope.INTERACTIONS && it.figure == Figure.HOP_CPU_US.key }

        assertThat(interactionsOf(narrows, narrows).single().agreement).isEqualTo(Agreement.AGREE)
        val contradiction = interactionsOf(narrows, widens).single()
        assertThat(contradiction.agreement).isEqualTo(Agreement.CONTRADICT)
        assertThat(setOf(contradiction.first, contradiction.second))
            .containsExactlyInAnyOrder("$json ÷ $grpc · large", "$json ÷ $grpc · small")
    }

    @Test
    fun `without variants there is no interaction, and across networks CPU is not one`() {
        val single = Fixtures.record(listOf(condition), listOf(json, grpc, NULL_HOP), 5) { _, kind, arm, fork ->
            if (kind == TrialKind.COST) Fixtures.cost(200.0 + (if (arm == NULL_HOP) 0.0 else 400.0 * noise(arm, fork))) else null
        }
        assertThat(Analysis.of(single).single().family(TrialKind.COST)!!.interactions).isEmpty()

        val networks = listOf(Variant("lan", network = "lan"), Variant("wan", network = "wan"))
        val r = record(mapOf("lan" to mapOf(json to 800.0, grpc to 400.0), "wan" to mapOf(json to 500.0, grpc to 400.0)), networks)
        val figures = Analysis.of(r).single().family(TrialKind.COST)!!.interactions.map { it.decision.figure }
        assertThat(figures).containsExactly(Figure.HOP_P50.key)
    }

    @Test
    fun `the report and the guide say whether the gap depends on the variant`() {
        val r = record(mapOf("small" to mapOf(json to 800.0, grpc to 400.0), "large" to mapOf(json to 500.0, grpc to 400.0)), heaps)

        val md = MarkdownReport.render(r)

        assertThat(md).containsPattern(
            "- Interaction: Hop CPU/req, HTTP/JSON over gRPC/Unary: ×(1\\.99|2\\.0\\d) under small, ×1\\.2\\d under large; " +
                "the gap depends on the variant: ×0\\.6\\d \\[×0\\.\\d\\d, ×0\\.\\d\\d\\] under large against small \\(Holm-adjusted",
        )
        assertThat(md).contains("2 interactions (gap against gap)")
        assertThat(md).containsPattern(
            "\\*\\*size=1mb vus=10\\*\\*, whether a setting moved the gap between protocols: " +
                "HTTP/JSON over gRPC/Unary on Hop CPU/req: ×0.6\\d \\[×0\\.\\d\\d, ×0\\.\\d\\d\\] under large against small",
        )
    }
}
