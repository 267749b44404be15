package io.protobench.bench.text

import io.protobench.bench.compare.CompareConsole
import io.protobench.bench.compare.CompareMarkdown
import io.protobench.bench.compare.CompareResult
import io.protobench.bench.compare.RunComparison
import io.protobench.bench.lab.launch.CpuPlacement
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.network.LinkCheck
import io.protobench.bench.network.RttCheck
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.Recorded
import io.protobench.bench.report.html.HtmlReport
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioList
import io.protobench.bench.testkit.EnglishSentences
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import org.assertj.core.api.Assertions.assertThat
import org.jsoup.Jsoup
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * Korean throughout, without a browser: every published run's report.md, quick s against t in
 * compare.md and on the console, `list`, and the sentences records keep in English, said in
 * Korean with no sentence of the English catalogue left ([EnglishSentences]); the check itself
 * finds them in English pages and in a Korean page given one. crossover.md: CrossoverRunTest.
 */
class KoreanTextTest {
    private val korean = Texts.of(Lang.KO)

    /** Surefire runs in bench/; the published runs are in the project's docs/results. */
    private val results: Path = Path.of("").toAbsolutePath().parent.resolve("docs/results")
    private val published: List<Path> = Files.walk(results).use { paths ->
        paths.filter { it.fileName.toString() == "run.json" || it.fileName.toString() == "run.json.gz" }
            .map { it.parent }.distinct().sorted().toList()
    }

    private fun run(name: String): RunRecord = RunStore.load(results.resolve(name))

    @Test
    fun `every published run's Korean report_md holds no sentence of the English catalogue, and its description in Korean`() {
        assertThat(published).hasSizeGreaterThan(40)
        for (dir in published) {
            val record = RunStore.load(dir)
            val md = MarkdownReport.render(record, korean)
            assertThat(EnglishSentences.foundIn(md)).describedAs(dir.fileName.toString()).isEmpty()
            // A built-in's description from the catalogue; one the run composed (a user's message) read back from its English form.
            assertThat(
                md.lines()[2],
            ).describedAs(dir.fileName.toString()).isEqualTo(Recorded.description(record.scenario.description, korean))
        }
    }

    @Test
    fun `the published quick run's Korean report says its stored sentences in Korean, and its report_html text holds no English sentence`() {
        val s = run("2026-11-29-quick-2core-s")
        val md = MarkdownReport.render(s, korean)
        // run.json keeps the planner's reason, the open comparisons and the CPU placement in English.
        assertThat(s.planning!!.stoppedBecause).isEqualTo("1 condition(s) reached the most forks allowed (5) with comparisons still open")
        assertThat(md).contains(
            "중단 이유: 조건 1개가 허용된 최대 포크 수(5)에 이르렀지만 아직 판정되지 않은 비교가 남음.",
            "- size=1kb vus=10: 홉 CPU/요청의 HTTP/JSON vs HTTP/Binary — ",
            "CPU 배치: 고정하지 않음: 코어 2개로는 driver, api-server, data-server에 서로 겹치지 않는 CPU 집합을 줄 수 없어",
        )
        val html = Jsoup.parse(HtmlReport.render(s, korean)).body().text()
        assertThat(EnglishSentences.foundIn(html)).isEmpty()
        assertThat(html).contains("프로토콜 선택 가이드")
    }

    @Test
    fun `the Korean compare_md of quick s and t and what compare prints hold no sentence of the English catalogue`() {
        val c = (RunComparison.of(run("2026-11-29-quick-2core-s"), run("2026-11-29-quick-2core-t")) as CompareResult.Compared).comparison
        val md = CompareMarkdown.render(c, korean)
        assertThat(md).contains("# 실행 비교:", "2코어", "드라이버 CPU/요청", "## 각 실행의 판정")
        assertThat(EnglishSentences.foundIn(md)).isEmpty()
        assertThat(EnglishSentences.foundIn(CompareConsole.summary(c, Path.of("compare.md"), korean).joinToString("\n"))).isEmpty()
        assertThat(EnglishSentences.foundIn(CompareMarkdown.render(c))).contains("What was compared", "the null hop")
    }

    @Test
    fun `a refusal, an identical pair and a comparison with notes are said in Korean`() {
        val s = run("2026-11-29-quick-2core-s")
        val t = run("2026-11-29-quick-2core-t")
        val other = t.copy(
            runId = "other",
            environment = t.environment.copy(cpuCores = 4, gitDirty = true),
            scenario = t.scenario.copy(margin = 0.1),
            status = io.protobench.bench.measure.RunStatus.INTERRUPTED,
            failure = Texts.EN("failure.signal"),
            calibrations = t.calibrations.map { it.copy(ratePerSecond = it.ratePerSecond / 2) },
        )
        val refused = RunComparison.of(s, other) as CompareResult.Refused
        val refusal = CompareConsole.refusal(refused, s.runId, "other", korean).joinToString("\n")
        assertThat(refusal).contains("두 실행의 머신이나 설정이 다름:", "cpuCores: A=2 B=4", "--force")
        val forced = (RunComparison.of(s, other, force = true) as CompareResult.Compared).comparison
        assertThat(forced.notes).hasSize(2 + s.calibrations.size)
        val md = CompareMarkdown.render(forced, korean)
        assertThat(md).contains("두 실행의 동등성 한계가 다름", "실행 B(other)은 끝나지 않았음(중단됨: 신호(Ctrl-C 또는 SIGTERM)로 중단됨)", "커밋되지 않은 변경")
        assertThat(EnglishSentences.foundIn(md + refusal)).isEmpty()
        assertThat((RunComparison.of(s, s) as CompareResult.Identical).message(korean)).isEqualTo("동일함: 두 실행 모두 ${s.runId}")
    }

    @Test
    fun `list in Korean gives every built-in scenario its Korean description and keeps the columns aligned`() {
        val lines = ScenarioList.lines(t = korean)
        assertThat(lines.first()).contains("이름", "모드", "예상 시간", "설명")
        for (scenario in ScenarioCatalog.all()) {
            assertThat(lines.single { it.startsWith("${scenario.name} ") }).endsWith(korean.description(scenario.description))
        }
        assertThat(EnglishSentences.foundIn(lines.joinToString("\n"))).isEmpty()
        // English is the list as it was: the same columns, the description as the file gives it.
        val english = ScenarioList.lines()
        assertThat(english.first())
            .isEqualTo(String.format("%-15s %8s %5s %6s %9s  %s", "name", "mode", "conds", "forks", "est. time", "description"))
        assertThat(english.single { it.startsWith("quick ") }).endsWith(ScenarioCatalog.load("quick").description)
    }

    @Test
    fun `a built-in's description is translated as its record words it, now or as an earlier version did, and a user's stays as written`() {
        val quick = ScenarioCatalog.load("quick").description
        assertThat(Recorded.description(quick, korean)).startsWith("메인 작업: ")
        val message = Texts.EN("scenario.message-description", "shop.v1.Order", "1, 10, 100", "quick")
        assertThat(Recorded.description(message, korean)).isEqualTo("사용자 메시지 shop.v1.Order, 묶음당 1, 10, 100개 항목, quick 시나리오의 설계")
        // quick s ran before quick had an A/A check and three rounds: its record says so, and so does its translation.
        val s = run("2026-11-29-quick-2core-s").scenario.description
        assertThat(s).isNotEqualTo(quick)
        assertThat(Recorded.description(s, korean)).isEqualTo("1kb와 1mb에서 네 프로토콜 모두, 고정 도착률에서 홉 비용, 포크 5개")
        assertThat(Recorded.description("my own words", korean)).isEqualTo("my own words")
        assertThat(Recorded.description(quick, Texts.EN)).isEqualTo(quick)
    }

    /** quick s's and projectB e's decisions, as a crossover point keeps one: better, equivalent and inconclusive. */
    private val decisions by lazy {
        listOf("2026-11-29-quick-2core-s", "2026-11-28-projectB-2core-e").flatMap { Analysis.of(run(it)) }
            .flatMap { a -> a.families.flatMap { it.decisions } }
            .also { all ->
                assertThat(all.map { it.outcome.javaClass.simpleName }.toSet()).contains("Better", "Equivalent", "Inconclusive")
            }
    }

    @Test
    fun `sentences records keep in English read back in Korean, and text no pattern matches stays as recorded`() {
        val en = Texts.EN
        val profile = NetworkProfile("lan", 0.2, 1000.0, 0.0)
        val check = LinkCheck(profile, listOf("tbf"), RttCheck(0.2, 0.37, 0.11), 947.0, answerMs = 8.87, relayOneWayMs = 0.0)
        val recorded = mapOf(
            en("planning.reason.budget-minimum", 3, 65, 3, 1, 9) + en("planning.reason.budget-extra", 4) to Recorded::stopReason,
            en("planning.reason.and", en("planning.reason.at-most", 2, 5), en("planning.reason.beyond-reach", 4, 5)) to
                Recorded::stopReason,
            en("planning.reason.all-rejected") to Recorded::stopReason,
            en("planning.comparison", "HTTP/JSON", "gRPC/Unary", Figure.HOP_P50.title) to Recorded::openComparison,
            CpuPlacement.plan(8, enabled = true, tasksetAvailable = true).note to Recorded::placement,
            CpuPlacement.plan(2, enabled = true).note to Recorded::placement,
            CpuPlacement.sharing(CpuPlacement.PROCESSES) to Recorded::placement,
            // How a k6-era record words it.
            "not pinned: 2 cores cannot give k6, api-server and data-server disjoint CPU sets, " +
                "so the three compete for the same cores (see the saturation flags)" to Recorded::placement,
            en("rejected.network", "lan", check.describe()) to Recorded::failure,
            en(
                "rejected.not-taken",
                en("rejected.heap", "api-server", "512m", 1024) + "; " + en("rejected.collector.unknown", "data-server", "-XX:+UseZGC"),
            ) to Recorded::failure,
            en("failure.every-trial", en("failure.no-trial")) to Recorded::failure,
        ) + decisions.associate { MarkdownReport.sentence(it) to Recorded::decision }
        for ((text, read) in recorded) {
            val said = read(text, korean)
            assertThat(said).describedAs(text).isNotEqualTo(text).containsPattern("[가-힣]")
            assertThat(EnglishSentences.foundIn(said)).describedAs(text).isEmpty()
            assertThat(read(text, en)).isEqualTo(text)
        }
        assertThat(Recorded.failure(en("rejected.network", "lan", check.describe()), korean))
            .isEqualTo(
                "네트워크 lan을(를) 이 머신에서 요청대로 적용하지 못함: RTT 0.37 ms (요청 0.20, 릴레이 없이 0.11), " +
                    "대역폭 데이터 947 Mbit/s (요청 1000, 그중 데이터 956), 잠시 쉰 뒤 1 MiB 응답 하나 8.87 ms (속도만으로는 8.77): 프로파일의 지연이 아님: " +
                    "릴레이 자체의 깨어남이 요청한 지연보다 길어 지연을 더하지 못하고, 왕복 시간은 릴레이의 오버헤드임",
            )
        // Text that is no sentence of the code goes through every shape a field may take (each found in the catalogue)
        // and stays as recorded.
        val unknown = "no sentence of the code"
        for (read in listOf(
            Recorded::stopReason,
            Recorded::openComparison,
            Recorded::decision,
            Recorded::placement,
            Recorded::failure,
            Recorded::applied,
        )) {
            assertThat(read(unknown, korean)).isEqualTo(unknown)
        }
        assertThat(Recorded.failure(en("rejected.not-taken", unknown), korean)).isEqualTo(korean("rejected.not-taken", unknown))
        // An exception's message is not the code's sentence: it stays as recorded, in English.
        assertThat(Recorded.failure("IOException: No space left on device", korean)).isEqualTo("IOException: No space left on device")
        assertThat(Recorded.failure(en("failure.servers-start", "IOException: No space left on device"), korean))
            .isEqualTo("서버가 시작되지 않음: IOException: No space left on device")
    }

    @Test
    fun `the check finds the English catalogue's sentences in an English report and in a Korean one given one English sentence`() {
        val s = run("2026-11-29-quick-2core-s")
        assertThat(EnglishSentences.foundIn(MarkdownReport.render(s))).hasSizeGreaterThan(20)
            .contains("the null hop", "more forks would decide it")
        val korean = MarkdownReport.render(s, korean)
        val leftOver = Texts.EN("planning.reason.beyond-reach", 4, 5)
        assertThat(EnglishSentences.foundIn(korean)).isEmpty()
        assertThat(EnglishSentences.foundIn(korean.replace("아직 미판정:", "아직 미판정: $leftOver")))
            .contains("so no fork was added for them", "would take more than the most forks allowed")
    }
}
