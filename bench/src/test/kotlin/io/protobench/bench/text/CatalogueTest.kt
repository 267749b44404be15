package io.protobench.bench.text

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.ClaimOutcome
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.testkit.EnglishSentences
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import org.assertj.core.api.Assertions.assertThat
import org.jsoup.Jsoup
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/** The message catalogues: every language says every sentence, with the same blanks, and the reports use no key that is missing. */
class CatalogueTest {
    private val english = Texts.catalogue(Lang.EN)
    private val placeholder = Regex("""\{\d+}""")

    @Test
    fun `every translation has exactly the English keys and the same placeholders in each`() {
        for (lang in Lang.entries - Lang.EN) {
            val translated = Texts.catalogue(lang)
            // Figure titles are translated without an English entry: English uses Figure.title.
            assertThat(translated.keys.filterNot { it.startsWith("figure.") }).describedAs(lang.id)
                .containsExactlyInAnyOrderElementsOf(english.keys)
            assertThat(translated.keys.filter { it.startsWith("figure.") }).describedAs("${lang.id}: every figure's title")
                .containsExactlyInAnyOrderElementsOf(Figure.entries.map { "figure.${it.key}" })
            // Each built-in's description as it stands, under the English it translates (a reworded one fails here).
            for (scenario in ScenarioCatalog.all()) {
                assertThat(Texts.of(lang).description(scenario.description))
                    .describedAs("${lang.id}: ${scenario.name}'s description").isNotBlank()
            }
            for ((key, pattern) in english) {
                assertThat(placeholder.findAll(translated.getValue(key)).map { it.value }.toSet()).describedAs("${lang.id}: $key")
                    .isEqualTo(placeholder.findAll(pattern).map { it.value }.toSet())
            }
        }
    }

    @Test
    fun `every key the code names exists, and so do the keys built from enums`() {
        val source = Path.of("src/main/kotlin")
        val named = Files.walk(source).use { files ->
            files.filter { it.toString().endsWith(".kt") }.toList().flatMap { file ->
                // t("key") in reports, Texts.EN("key") and en("key") where a sentence is recorded in English;
                // the key may start the next line, where the formatter puts a long call's arguments.
                Regex("""(?:\bt|\bTexts\.EN|\ben)\(\s*"([a-z0-9.-]+)"""").findAll(Files.readString(file)).map { it.groupValues[1] }.toList()
            }
        }.toSet()
        assertThat(named).hasSizeGreaterThan(100)
        val built = RunStatus.entries.map { "status.${it.name.lowercase()}" } +
            ForkStatus.entries.map { "fork-status.${it.name.lowercase()}" } +
            ClaimOutcome.entries.flatMap { listOf("claim.${it.name.lowercase()}", "claim.short.${it.name.lowercase()}") } +
            TrialKind.entries.map { "kind.${it.name.lowercase()}" } + listOf("mode.cost", "mode.capacity", "yes-no.true", "yes-no.false") +
            listOf("regression", "worse", "improvement", "equivalent", "inconclusive").map { "compare.chart.$it" }
        assertThat(english.keys).containsAll(named).containsAll(built)
    }

    @Test
    fun `a Korean report is Korean throughout and leaves no blank unfilled`() {
        val record = Fixtures.record(
            listOf("size=1kb vus=10", "size=1mb vus=10"),
            listOf("gRPC/Unary", "HTTP/JSON", NULL_HOP),
            5,
        ) { c, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val hop = if (arm == NULL_HOP) {
                0.0
            } else if (arm == "gRPC/Unary") {
                100.0
            } else if (c.contains("1kb")) {
                50.0
            } else {
                900.0
            }
            cost((300 + hop) * (1 + 0.02 * fork) * (1 + 0.01 * kotlin.math.sin(arm.length + fork * 1.7)))
        }
        val korean = Texts.of(Lang.KO)
        val md = MarkdownReport.render(record, korean)
        assertThat(md).contains("# Proto-Bench 보고서: fixed", "## 프로토콜 선택 가이드", "더 저렴", "역전", "결정 지도")
        assertThat(EnglishSentences.foundIn(md)).isEmpty()
        assertThat(EnglishSentences.foundIn(MarkdownReport.render(record))).contains("Protocol selection guide")
        assertThat(placeholder.find(md)?.let { md.substring(maxOf(0, it.range.first - 80), it.range.last + 1) }).isNull()
        val html = Jsoup.parse(HtmlReport.render(record, korean))
        assertThat(html.selectFirst("html")!!.attr("lang")).isEqualTo("ko")
        assertThat(html.select("figure[data-chart=hop-cpu] title").first()!!.text()).startsWith("고정 도착률에서 요청당 홉 CPU")
        assertThat(html.select("nav a").first()!!.text()).isEqualTo("가이드")
    }

    @Test
    fun `a language is named by its code, and an unknown one is refused with the list`() {
        assertThat(Lang.parse("KO")).isEqualTo(Lang.KO)
        assertThat(Lang.parse("fr")).isNull()
        assertThat(Lang.accepted).isEqualTo("en (English), ko (Korean)")
    }
}
