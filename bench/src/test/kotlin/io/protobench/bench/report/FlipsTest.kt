package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.message.MessageRecord
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.scenario.Axis
import io.protobench.bench.testkit.EnglishSentences
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import org.assertj.core.api.Assertions.assertThat
import org.jsoup.Jsoup
import org.junit.jupiter.api.Test

/** Where a pair's decided winner changes along an axis of a run's own grid, and the search that narrows it. */
class FlipsTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"
    private val jitter = listOf(1.0, 1.03, 0.98, 1.01, 0.99, 1.02)

    /** Per condition each protocol's hop CPU; the wobble is each arm's own noise per fork. */
    private fun record(hops: Map<String, Pair<Double, Double>>) =
        Fixtures.record(hops.keys.toList(), listOf(binary, grpc, NULL_HOP), 6) { condition, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val (b, g) = hops.getValue(condition)
            val hop = when (arm) {
                NULL_HOP -> 0.0
                binary -> b
                else -> g
            }
            val wobble = 1 + 0.02 * kotlin.math.sin(arm.hashCode() * 0.7 + fork * 2.3 + condition.length)
            cost((300 + hop * wobble) * jitter[fork - 1])
        }

    @Test
    fun `a pair decided one way at one count and the other way further on flips between the two, past an undecided point`() {
        val r = record(
            mapOf(
                "count=1 vus=10" to (220.0 to 150.0), // gRPC/Unary cheaper
                "count=10 vus=10" to (200.0 to 201.0), // too close to call
                "count=100 vus=10" to (400.0 to 900.0), // HTTP/Binary cheaper
                "count=1000 vus=10" to (500.0 to 1500.0), // still HTTP/Binary
            ),
        )
        val flips = Flip.of(Analysis.of(r), r).filter { it.figure == Figure.HOP_CPU_US }

        val flip = flips.single()
        assertThat(flip.axis).isEqualTo(Axis.COUNT)
        assertThat(flip.fixed).isEqualTo(mapOf("vus" to "10"))
        assertThat(flip.low.value).isEqualTo("1")
        assertThat(flip.low.better.winner).isEqualTo(grpc)
        assertThat(flip.high.value).isEqualTo("100")
        assertThat(flip.high.better.winner).isEqualTo(binary)

        val message = MessageRecord("shop.Order", "shop.proto", "a", "order.json", "b", "c", "protoc 4.34.1", 100, 60, 40, 30)
        assertThat(flip.command(r.scenario, message)).isEqualTo(
            "./protobench crossover --pair gRPC/Unary,HTTP/Binary --axis count --from 1 --to 100 --vus 10 " +
                "--message shop.Order --proto shop.proto --sample order.json",
        )
        // A search as precise as the run that found the bracket, at its share of capacity.
        assertThat(flip.command(r.scenario.copy(forks = 5, maxForks = 10, utilisation = 0.3), null))
            .isEqualTo(
                "./protobench crossover --pair gRPC/Unary,HTTP/Binary --axis count --from 1 --to 100 --max-forks 10 --utilisation 30% --vus 10",
            )
        assertThat(flip.command(r.scenario.copy(forks = 8, maxForks = 8), null))
            .isEqualTo("./protobench crossover --pair gRPC/Unary,HTTP/Binary --axis count --from 1 --to 100 --forks 8 --vus 10")
        val md = MarkdownReport.render(r.copy(environment = r.environment.copy(message = message)))
        assertThat(md).contains(
            "**Where a pair's answer flips**",
            "- Hop CPU/req (vus=10): gRPC/Unary cheaper than HTTP/Binary by ",
            " at count=1; HTTP/Binary cheaper than gRPC/Unary by ",
            " at count=100\n",
            "narrow it: `./protobench crossover --pair gRPC/Unary,HTTP/Binary --axis count --from 1 --to 100",
        )
        // report.html says it too, in the guide beside the charts that replace the maps' tables.
        val guide = Jsoup.parse(HtmlReport.render(r)).select("section#guide").text()
        assertThat(guide).contains("Where a pair's answer flips", "at count=1; HTTP/Binary cheaper than gRPC/Unary by ")
        // The decision map reads the count axis too.
        assertThat(DecisionMap.of(Analysis.of(r), r).single().columns).containsExactly("1", "10", "100", "1000")
    }

    @Test
    fun `the same winner all along, or a winner beside only undecided points, is no flip and says nothing`() {
        val same = record(mapOf("size=1kb vus=10" to (220.0 to 150.0), "size=1mb vus=10" to (900.0 to 400.0)))
        assertThat(Flip.of(Analysis.of(same), same).filter { it.figure == Figure.HOP_CPU_US }).isEmpty()
        val half = record(mapOf("size=1kb vus=10" to (220.0 to 150.0), "size=1mb vus=10" to (200.0 to 201.0)))
        assertThat(Flip.of(Analysis.of(half), half)).isEmpty()
        assertThat(MarkdownReport.render(half)).doesNotContain("Where a pair's answer flips")
    }

    @Test
    fun `along size the search command names the sizes, and the Korean report says it in Korean`() {
        val r = record(mapOf("size=100kb vus=10" to (150.0 to 220.0), "size=500kb vus=10" to (900.0 to 400.0)))
        val flip = Flip.of(Analysis.of(r), r).single { it.figure == Figure.HOP_CPU_US }
        assertThat(flip.command(r.scenario, null))
            .isEqualTo("./protobench crossover --pair HTTP/Binary,gRPC/Unary --axis size --from 100kb --to 500kb --vus 10")
        val korean = MarkdownReport.render(r, Texts.of(Lang.KO))
        val section = korean.substringAfter("**짝의 답이 뒤집히는 곳**").substringBefore("\n\n## ")
        assertThat(section).contains("size=100kb에서 HTTP/Binary", "좁히려면: `./protobench crossover")
        assertThat(EnglishSentences.foundIn(section)).isEmpty()
    }
}
