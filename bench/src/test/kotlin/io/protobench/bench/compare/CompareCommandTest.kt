package io.protobench.bench.compare

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.CompareCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.run.RunStore
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** `protobench compare` on run folders: exit codes, compare.md, messages without stack traces. */
class CompareCommandTest {
    @TempDir
    lateinit var tmp: Path

    private val grpc = "gRPC/Unary"

    /** A run folder whose gRPC hop costs [hop] µs per request over 4 forks (harness 300 µs), with a little noise. */
    private fun runFolder(name: String, hop: Double, change: (RunRecord) -> RunRecord = { it }): Path {
        var k = 0
        val record = Fixtures.record(listOf("size=1kb vus=10"), listOf(grpc, NULL_HOP), 4) { _, kind, arm, _ ->
            if (kind != TrialKind.COST) return@record null
            val wobble = 1 + 0.002 * kotlin.math.sin(name.hashCode() + 1.7 * k++)
            Fixtures.cost((300 + if (arm == grpc) hop else 0.0) * wobble)
        }.copy(runId = name)
        val dir = Files.createDirectories(tmp.resolve("results").resolve(name))
        RunStore(dir).save(change(record))
        return dir
    }

    private fun protobench(vararg argv: String) = Protobench().subcommands(CompareCommand()).test(argv.toList())

    @Test
    fun `a regression exits 4 and writes compare md, none exits 0`() {
        val a = runFolder("a", 100.0)
        val b = runFolder("b", 140.0)
        val out = tmp.resolve("out")
        val worse = protobench("compare", a.toString(), b.toString(), "--out", out.toString())
        assertThat(worse.statusCode).describedAs(worse.stderr).isEqualTo(4)
        assertThat(out.resolve("compare.md")).exists()
        assertThat(Files.readString(out.resolve("compare.md"))).contains("# Comparison: a → b", "**regression**")
        assertThat(worse.stdout).contains("regressions beyond the margin", "regression: size=1kb vus=10, gRPC/Unary, Hop CPU/req: +")
        // compare.html: the condition's chart of changes, the regression drawn in its colour, nothing loaded from outside.
        val html = org.jsoup.Jsoup.parse(out.resolve("compare.html").toFile())
        val chart = html.selectFirst("figure[data-chart=changes]")!!
        assertThat(chart.select("circle title").map { it.text() })
            .anyMatch { it.startsWith("gRPC/Unary · Hop CPU/req: +") && it.endsWith("regression") }
        assertThat(chart.select("circle").map { it.attr("fill") }).contains("#c0392b")
        assertThat(html.select("script, link, img, [style]")).isEmpty()

        val out2 = tmp.resolve("out2")
        val better = protobench("compare", b.resolve("run.json").toString(), a.toString(), "--out", out2.toString(), "--margin", "0.05")
        assertThat(better.statusCode).describedAs(better.stderr).isEqualTo(0)
        assertThat(out2.resolve("compare.md")).exists()
        assertThat(better.stdout).contains("0 regressions beyond the margin").doesNotContain("regression:")
    }

    @Test
    fun `--lang ko writes the comparison in Korean, an unknown language exits 2`() {
        val a = runFolder("a", 100.0)
        val b = runFolder("b", 100.0)
        val out = tmp.resolve("ko")
        val korean = protobench("compare", a.toString(), b.toString(), "--out", out.toString(), "--lang", "ko")
        assertThat(korean.statusCode).describedAs(korean.stderr).isEqualTo(0)
        assertThat(Files.readString(out.resolve("compare.md"))).contains("# 실행 비교: a → b", "## 요약")
        assertThat(korean.stdout).contains("한계를 넘은 회귀 0개")
        val bad = protobench("compare", a.toString(), b.toString(), "--lang", "xx")
        assertThat(bad.statusCode).isEqualTo(2)
        assertThat(bad.stderr).contains("--lang xx", "ko (Korean)")
    }

    @Test
    fun `help says what a regression is and the exit codes`() {
        val help = protobench("compare", "--help")
        assertThat(help.statusCode).isEqualTo(0)
        val text = help.stdout.replace(Regex("\\s+"), " ")
        assertThat(text).contains(
            "whole Holm-adjusted interval lies beyond the margin",
            "4: at least one regression",
            "--force",
            "--margin",
            "--out",
        )
    }

    @Test
    fun `the same run twice says identical and exits 0 without writing`() {
        val a = runFolder("a", 100.0)
        val out = tmp.resolve("out")
        val result = protobench("compare", a.toString(), a.toString(), "--out", out.toString())
        assertThat(result.statusCode).isEqualTo(0)
        assertThat(result.stdout).contains("identical: both are run a")
        assertThat(out).doesNotExist()
    }

    @Test
    fun `bad input exits 2 with a message and no stack trace`() {
        val a = runFolder("a", 100.0)
        val corrupt = Files.createDirectories(tmp.resolve("corrupt"))
            .also { Files.writeString(it.resolve("run.json"), "{\"schemaVersion\": 2, \"runId\": ") }
        val cases = listOf(
            listOf(a.toString(), tmp.resolve("nowhere").toString()) to "no run.json",
            listOf(a.toString(), corrupt.toString()) to "is not a Proto-Bench run record",
            listOf(a.toString(), a.toString(), "--margin", "lots") to "--margin lots: a share such as 5% or 0.05",
        )
        for ((args, message) in cases) {
            val result = protobench("compare", *args.toTypedArray(), "--out", tmp.resolve("out").toString())
            assertThat(result.statusCode).describedAs("exit of %s", args).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", args).contains(message).doesNotContain("Exception")
        }
        assertThat(tmp.resolve("out")).doesNotExist()
    }

    @Test
    fun `runs on another machine are refused unless forced, runs without a shared condition always`() {
        val a = runFolder("a", 100.0)
        val other = runFolder("other", 100.0) { it.copy(environment = it.environment.copy(cpuModel = "Other CPU")) }
        val refused = protobench("compare", a.toString(), other.toString(), "--out", tmp.resolve("out").toString())
        assertThat(refused.statusCode).isEqualTo(2)
        assertThat(refused.stderr).contains("cpuModel: A=Test CPU B=Other CPU", "use --force to compare anyway")
        assertThat(tmp.resolve("out")).doesNotExist()

        val forced = protobench("compare", a.toString(), other.toString(), "--force", "--out", tmp.resolve("out").toString())
        assertThat(forced.statusCode).describedAs(forced.stderr).isEqualTo(0)
        assertThat(Files.readString(tmp.resolve("out/compare.md"))).contains("Warning", "cpuModel: A=Test CPU B=Other CPU")

        val elsewhere = runFolder("elsewhere", 100.0) { r ->
            r.copy(
                scenario = r.scenario.copy(
                    conditions = listOf(io.protobench.bench.measure.ConditionRecord("size=1mb vus=10", emptyList())),
                ),
                forks = r.forks.map { f -> f.copy(trials = f.trials.map { it.copy(condition = "size=1mb vus=10") }) },
            )
        }
        val none = protobench("compare", a.toString(), elsewhere.toString(), "--force", "--out", tmp.resolve("out3").toString())
        assertThat(none.statusCode).isEqualTo(2)
        assertThat(none.stderr).contains("share no condition", "size=1kb vus=10", "size=1mb vus=10")
    }
}
