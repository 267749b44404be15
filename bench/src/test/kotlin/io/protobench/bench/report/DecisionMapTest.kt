package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.Call
import io.protobench.bench.report.DecisionMap
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import javax.xml.parsers.DocumentBuilderFactory

/** The decision map: each cell's call from its condition's decisions, placed by size and concurrency. */
class DecisionMapTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"
    private val json = "HTTP/JSON"
    private val jitter = listOf(1.0, 1.03, 0.98, 1.01, 0.99, 1.02)

    /** Per condition, each protocol's hop; the wobble is each arm's own noise per fork. */
    private fun record(hops: Map<String, Map<String, Double>>, noise: Double = 0.02) =
        Fixtures.record(hops.keys.toList(), listOf(json, binary, grpc, NULL_HOP), 6) { condition, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val hop = if (arm == NULL_HOP) 0.0 else hops.getValue(condition).getValue(arm)
            val wobble = 1 + noise * kotlin.math.sin(arm.hashCode() * 0.7 + fork * 2.3 + condition.length)
            cost((300 + hop * wobble) * jitter[fork - 1])
        }

    private fun hops(j: Double, b: Double, g: Double) = mapOf(json to j, binary to b, grpc to g)

    @Test
    fun `a protocol that beat every other is the winner, with the least of its advantages`() {
        val a = Analysis.of(
            record(mapOf("size=1kb vus=10" to hops(300.0, 200.0, 100.0), "size=1mb vus=10" to hops(300.0, 200.0, 100.0))),
        ).first()
        val call = Call.of(a.family(TrialKind.COST)!!.protocolDecisions.filter { it.figure == "hop_cpu_us_per_req" }) as Call.Winner
        assertThat(call.protocol).isEqualTo(grpc)
        // gRPC's hop is half HTTP/Binary's and a third of HTTP/JSON's: its least advantage is over HTTP/Binary, under 50%.
        assertThat(call.leastAdvantagePercent).isBetween(20.0, 50.0)
    }

    @Test
    fun `a winner is called even when comparisons among the protocols it beat stay open`() {
        // HTTP/JSON and HTTP/Binary 3% apart under 40% noise: their comparison is open; gRPC beat both.
        val r = record(mapOf("size=1kb vus=10" to hops(300.0, 310.0, 100.0), "size=1mb vus=10" to hops(300.0, 310.0, 100.0)), noise = 0.4)
        val decisions = Analysis.of(r).first().family(TrialKind.COST)!!.protocolDecisions.filter { it.figure == "hop_cpu_us_per_req" }
        assertThat(decisions.single { grpc !in listOf(it.a, it.b) }.outcome)
            .isInstanceOf(io.protobench.bench.verdict.Outcome.Inconclusive::class.java)
        val call = Call.of(decisions) as Call.Winner
        assertThat(call.protocol).isEqualTo(grpc)
        assertThat(call.leastAdvantagePercent).isPositive()
    }

    @Test
    fun `leaders shown alike are equivalent, leaders not yet told apart are open`() {
        val r = record(mapOf("size=1kb vus=10" to hops(300.0, 100.0, 100.5), "size=1mb vus=10" to hops(100.0, 100.0, 100.0)), noise = 0.0)
        val calls = Analysis.of(r).map { a ->
            Call.of(a.family(TrialKind.COST)!!.protocolDecisions.filter { it.figure == "hop_cpu_us_per_req" })
        }
        // Without noise, HTTP/Binary's 0.5% edge is decided, yet inside the margin: a practical tie.
        assertThat(calls[0]).isEqualTo(Call.Equivalent(listOf(binary, grpc)))
        val alike = record(
            mapOf("size=1kb vus=10" to hops(300.0, 100.0, 100.5), "size=1mb vus=10" to hops(100.0, 100.0, 100.0)),
            noise = 0.005,
        )
        val shown = Call.of(Analysis.of(alike)[0].family(TrialKind.COST)!!.protocolDecisions.filter { it.figure == "hop_cpu_us_per_req" })
        assertThat(shown).isEqualTo(Call.Equivalent(listOf(binary, grpc)))
        val noisy = record(
            mapOf("size=1kb vus=10" to hops(300.0, 100.0, 130.0), "size=1mb vus=10" to hops(100.0, 100.0, 100.0)),
            noise = 0.4,
        )
        val open = Call.of(Analysis.of(noisy)[0].family(TrialKind.COST)!!.protocolDecisions.filter { it.figure == "hop_cpu_us_per_req" })
        assertThat(open).isInstanceOf(Call.Open::class.java)
        assertThat((open as Call.Open).leaders).contains(binary).doesNotContain(json)
    }

    @Test
    fun `cells sit by size across and concurrency down, and the guide prints the map`() {
        val r = record(
            mapOf(
                "size=1mb vus=50" to hops(900.0, 300.0, 200.0),
                "size=1kb vus=1" to hops(100.0, 150.0, 200.0),
                "size=1kb vus=50" to hops(100.0, 150.0, 200.0),
                "size=1mb vus=1" to hops(900.0, 300.0, 200.0),
            ),
        )
        val map = DecisionMap.of(Analysis.of(r), r).single()
        assertThat(map.across).isEqualTo("size")
        assertThat(map.down).isEqualTo("vus")
        assertThat(map.columns).containsExactly("1kb", "1mb")
        assertThat(map.rows).containsExactly("1", "50")
        assertThat((map.cells.getValue(0 to 1).second as Call.Winner).protocol).isEqualTo(json)
        assertThat((map.cells.getValue(1 to 0).second as Call.Winner).protocol).isEqualTo(grpc)
        assertThat(MarkdownReport.render(r)).contains(
            "**Decision map: Hop CPU/req by size and vus**",
            "| vus \\ size | 1kb | 1mb |",
            "| 50 | JSON ≥",
        )
    }

    @Test
    fun `each map is also a picture of its own beside the report, which links it`(@TempDir dir: Path) {
        val r = record(
            mapOf(
                "size=1kb vus=1" to hops(100.0, 150.0, 200.0),
                "size=1mb vus=1" to hops(900.0, 300.0, 200.0),
            ),
        )
        ReportWriter.write(dir, r)

        val picture = dir.resolve("decision-map-size.svg")
        // A file a browser or README shows on its own: well-formed XML, its text style inside, the winners' words in it.
        val svg = DocumentBuilderFactory.newInstance().apply { isNamespaceAware = true }.newDocumentBuilder().parse(picture.toFile())
        assertThat(svg.documentElement.localName).isEqualTo("svg")
        assertThat(svg.getElementsByTagName("style").item(0).textContent).contains("svg text.cell-dark")
        assertThat(svg.documentElement.textContent).contains("JSON ≥", "Unary ≥")
        assertThat(Files.readString(dir.resolve("report.md"))).contains("[decision-map-size.svg](decision-map-size.svg)")
    }

    @Test
    fun `a map under a variant names its picture after the variant`() {
        val map = DecisionMap(Figure.HOP_CPU_US, "complexity", "vus", listOf("simple"), listOf("10"), emptyMap(), "Pool 10")
        assertThat(map.pictureName).isEqualTo("decision-map-complexity-pool-10.svg")
        assertThat(map.copy(variant = null).pictureName).isEqualTo("decision-map-complexity.svg")
    }

    @Test
    fun `a chart's box names two open leaders where it is wide enough, and counts them where it is not`() {
        val open = Call.Open(listOf(binary, grpc))
        val narrow =
            DecisionMap(
                Figure.HOP_CPU_US,
                "size",
                "vus",
                listOf("1kb", "10kb", "50kb", "100kb", "200kb", "1mb"),
                listOf("10"),
                emptyMap(),
                null,
            )
        val wide = narrow.copy(columns = narrow.columns.take(2))
        assertThat(wide.word(open, compact = true)).isEqualTo("? Binary/Unary")
        assertThat(narrow.word(open, compact = true)).isEqualTo("? 2 open")
        // The Markdown table has room: it names them.
        assertThat(narrow.word(open)).isEqualTo("? Binary/Unary")
    }

    @Test
    fun `a run of one condition has no map`() {
        val r = record(mapOf("size=1kb vus=10" to hops(300.0, 200.0, 100.0)))
        assertThat(DecisionMap.of(Analysis.of(r), r)).isEmpty()
    }
}
