package io.protobench.bench.report.html

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.report.html.Html
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.report.html.MarkdownHtml
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import org.assertj.core.api.Assertions.assertThat
import org.jsoup.Jsoup
import org.jsoup.nodes.Document
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.security.MessageDigest
import java.util.Base64

/** report.html read back by an HTML parser: every chart and table where it belongs, nothing loaded from outside. */
class HtmlReportTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"
    private val conditions = listOf("size=1kb vus=10", "size=1mb vus=10")
    private val jitter = listOf(1.0, 1.03, 0.98, 1.01, 0.99)

    /** gRPC's hop is cheaper at 1kb and HTTP/Binary's at 1mb; capacity probes in fork 1; per-second timelines. */
    private val record = Fixtures.record(conditions, listOf(grpc, binary, NULL_HOP), 5) { condition, kind, arm, fork ->
        val small = condition.startsWith("size=1kb")
        when {
            kind == TrialKind.CAPACITY && fork == 1 && arm != NULL_HOP ->
                Figures.of(Figure.THROUGHPUT to if (arm == grpc) 4000.0 else 3500.0)

            kind == TrialKind.CAPACITY -> null

            else -> {
                val hop = when (arm) {
                    NULL_HOP -> 0.0
                    grpc -> if (small) 100.0 else 1000.0
                    else -> if (small) 200.0 else 500.0
                }
                val wobble = 1 + 0.02 * kotlin.math.sin(arm.hashCode() * 0.7 + fork * 2.3)
                cost((300 + hop * wobble) * jitter[fork - 1], hopP50 = hop / 100 + 0.01) +
                    Figures.of(
                        Figure.LATENCY_P50 to 1.0,
                        Figure.LATENCY_P90 to 1.5,
                        Figure.LATENCY_P95 to 2.0,
                        Figure.LATENCY_P99 to 4.0,
                        Figure.LATENCY_P999 to 9.0,
                    )
            }
        }
    }.let { r ->
        r.copy(
            forks = r.forks.map { f ->
                f.copy(
                    trials = f.trials.map { t ->
                        t.copy(gateway = Fixtures.window(Fixtures.usage(100.0), Fixtures.usage(50.0), listOf(990, 1000, 1010)))
                    },
                )
            },
        )
    }

    private fun parse(html: String): Document = Jsoup.parse(html)

    @Test
    fun `every condition gets its charts, tables and verdicts in its own section`() {
        val doc = parse(HtmlReport.render(record))
        val sections = doc.select("section.condition")
        assertThat(sections).hasSize(2)
        for ((section, condition) in sections.zip(conditions)) {
            assertThat(section.selectFirst("h2")!!.text()).isEqualTo(condition)
            assertThat(section.select("figure[data-chart]").map { it.attr("data-chart") })
                .containsExactly("hop-cpu", "hop-latency", "cpu-by-process", "latency-spectrum", "capacity", "timeline")
            assertThat(section.select("table")).hasSize(2) // cost at a fixed rate, capacity
            assertThat(section.select("table").first()!!.select("tbody tr").map { it.child(0).text() })
                .containsExactly(grpc, binary, NULL_HOP)
            assertThat(section.select("li").map { it.text() }).anyMatch { it.startsWith("Hop CPU/req:") }
        }
        // Each chart names itself for screen readers, and each arm's dot carries its value.
        val hopCpu = sections.first()!!.selectFirst("figure[data-chart=hop-cpu] svg")!!
        assertThat(hopCpu.attr("aria-labelledby")).isEqualTo(hopCpu.selectFirst("title")!!.id())
        assertThat(hopCpu.select("circle title").map { it.text() }).anyMatch { it.startsWith("$grpc: ") && "[" in it }
        // A timeline line per trial: 3 arms x 5 forks.
        assertThat(sections.first()!!.select("figure[data-chart=timeline] polyline")).hasSize(15)
    }

    @Test
    fun `the guide comes first with the size axis chart, which marks where the cheapest hop flips`() {
        val doc = parse(HtmlReport.render(record))
        val guide = doc.getElementById("guide")!!
        assertThat(guide.elementSiblingIndex()).isLessThan(doc.selectFirst("section.condition")!!.elementSiblingIndex())
        assertThat(guide.text()).contains("Protocol selection guide", "Flip along size")
        val axis = guide.selectFirst("figure[data-chart=axis]")!!
        assertThat(axis.select("text.marker").map { it.text() }).containsExactly("flip: $binary")
        assertThat(axis.select("text.tick").map { it.text() }).contains("1kb", "1mb")
        assertThat(axis.select("polyline")).hasSize(2) // one line per protocol, the null hop left out
        assertThat(doc.select("nav a").map { it.attr("href") }).containsExactly("#guide", "#size-1kb-vus-10", "#size-1mb-vus-10")
        assertThat(doc.getElementById("size-1mb-vus-10")).isNotNull()
    }

    @Test
    fun `nothing is loaded from outside and the only style is the one the policy's hash allows`() {
        val html = HtmlReport.render(record)
        val doc = parse(html)
        assertThat(doc.select("script, link, img, iframe, object, embed")).isEmpty()
        assertThat(doc.select("[style]")).isEmpty()
        assertThat(doc.select("[src]")).isEmpty()
        assertThat(doc.select("a[href]").map { it.attr("href") }).allMatch { it.startsWith("#") }
        val policy = doc.selectFirst("meta[http-equiv=Content-Security-Policy]")!!.attr("content")
        assertThat(policy).startsWith("default-src 'none';")
        val styles = doc.select("style")
        assertThat(styles).hasSize(1)
        val hash = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(styles.single().data().toByteArray()))
        assertThat(policy).contains("style-src 'sha256-$hash'")
        assertThat(Html.CONTENT_SECURITY_POLICY).isEqualTo(policy)
    }

    @Test
    fun `text from the scenario is escaped, not markup`() {
        val hostile = record.copy(scenario = record.scenario.copy(description = "<script>alert(1)</script> **bold** `x<y`"))
        val doc = parse(HtmlReport.render(hostile))
        assertThat(doc.select("script")).isEmpty()
        assertThat(doc.body().text()).contains("<script>alert(1)</script>")
        assertThat(doc.select("strong").map { it.text() }).contains("bold")
        assertThat(doc.select("code").map { it.text() }).contains("x<y")
    }

    @Test
    fun `an interrupted run renders what it measured and says what is missing`() {
        val cut = record.copy(
            status = RunStatus.INTERRUPTED,
            forks = record.forks.take(2).map { f ->
                f.copy(trials = f.trials.filter { it.condition == conditions.first() })
            },
        )
        val doc = parse(HtmlReport.render(cut))
        assertThat(doc.select("blockquote").text()).contains(
            "This run is interrupted",
            "Not measured: size=1mb vus=10",
            "fewer forks than the condition's minimum: size=1kb vus=10 (2 of 3)",
        )
        assertThat(doc.select("section.condition")).hasSize(2)
        assertThat(doc.select("section.condition").last()!!.select("figure")).isEmpty()
    }

    @Test
    fun `every rendering is written beside run json`(@TempDir dir: Path) {
        ReportWriter.write(dir, record)
        assertThat(dir.resolve("report.md")).exists()
        val doc = parse(Files.readString(dir.resolve("report.html")))
        assertThat(doc.title()).isEqualTo("Proto-Bench report: fixed")
        assertThat(doc.select("figure[data-chart]")).hasSizeGreaterThan(10)
    }

    @Test
    fun `markdown tables, lists, quotes and inline marks become their HTML elements`() {
        val doc =
            parse(
                MarkdownHtml.toHtml(
                    """
            # Title *one*
            | Arm | Value |
            |---|---:|
            | a<br>b | 1 |

            - item **x**
            > note `c*d*`
            > second flag

            text
                    """.trimIndent(),
                ),
            )
        assertThat(doc.selectFirst("h1")!!.id()).isEqualTo("title-one")
        assertThat(doc.select("h1 em").text()).isEqualTo("one")
        assertThat(doc.select("td.num").text()).isEqualTo("1")
        assertThat(doc.select("th.num, td:not(.num), [align]").map { it.text() })
            .containsExactly("a b") // only the number's cell is right-aligned, by class
        assertThat(doc.select("td").first()!!.select("br")).hasSize(1)
        assertThat(doc.select("ul li strong").text()).isEqualTo("x")
        assertThat(doc.select("blockquote code").text()).isEqualTo("c*d*")
        assertThat(doc.select("blockquote p").map { it.text() }).containsExactly("note c*d*", "second flag") // one flag a paragraph
        assertThat(doc.select("p").last()!!.text()).isEqualTo("text")
    }

    @Test
    fun `raw html other than a line break is shown as text, and nothing is loaded`() {
        val doc =
            parse(
                MarkdownHtml.toHtml(
                    """
            <b>name</b> with **bold**

            | Setting | Seen |
            |---|---|
            | `a=1`<br/>`b=2` | x \| y ![chart](http://example.com/c.png) <img src=x> |
                    """.trimIndent(),
                ),
            )
        assertThat(doc.select("b, img, [src]")).isEmpty()
        assertThat(doc.selectFirst("p")!!.text()).isEqualTo("<b>name</b> with bold")
        assertThat(doc.select("p strong").text()).isEqualTo("bold")
        val cells = doc.select("tbody td")
        assertThat(cells).hasSize(2)
        assertThat(cells[0].select("code").map { it.text() }).containsExactly("a=1", "b=2")
        assertThat(cells[0].select("br")).hasSize(1)
        assertThat(cells[1].text()).isEqualTo("x | y chart <img src=x>")
    }
}
