package io.protobench.bench.text

import io.protobench.bench.compare.CompareHtml
import io.protobench.bench.compare.CompareResult
import io.protobench.bench.compare.RunComparison
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.RunStore
import io.protobench.bench.testkit.EnglishSentences
import io.protobench.bench.testkit.HeadlessChromium
import io.protobench.bench.testkit.PROCESS
import io.protobench.bench.testkit.SLOW
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import org.assertj.core.api.Assertions.assertThat
import org.jsoup.Jsoup
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import javax.imageio.ImageIO

/**
 * The Korean report.html and compare.html of the published quick runs s and t, opened in
 * headless Chromium with a CJK font: Hangul is drawn in glyphs of its own (not as boxes),
 * and the text the browser shows holds no sentence of the English catalogue
 * ([EnglishSentences]). Each check is shown to fail on a page that should fail it.
 * `./protobench test` installs chromium and fonts-noto-cjk where it can.
 */
@Tag(SLOW)
@Tag(PROCESS)
class KoreanPagesBrowserTest {
    private val chromium = HeadlessChromium.find()
    private val korean = Texts.of(Lang.KO)
    private val results: Path = Path.of("").toAbsolutePath().parent.resolve("docs/results")

    private fun requireBrowserAndFont() {
        assumeTrue(
            chromium != null,
            "chromium is not installed: the Korean pages are not checked in a browser (`./protobench test` installs it where apt-get can)",
        )
        val fonts = runCatching { ProcessBuilder("fc-list", ":lang=ko", "family").start().inputStream.bufferedReader().readText() }
            .getOrDefault("")
        assumeTrue(
            fonts.isNotBlank(),
            "no font with Hangul is installed: the Korean pages are not checked in a browser " +
                "(`./protobench test` installs fonts-noto-cjk where apt-get can)",
        )
    }

    /** quick s's report.html and s against t's compare.html, in Korean, written into [dir]. */
    private fun pages(dir: Path): List<Path> {
        val s = RunStore.load(results.resolve("2026-11-29-quick-2core-s"))
        val t = RunStore.load(results.resolve("2026-11-29-quick-2core-t"))
        val report = Files.createDirectories(dir.resolve("s"))
        ReportWriter.write(report, s, korean)
        val comparison = (RunComparison.of(s, t) as CompareResult.Compared).comparison
        val compare = dir.resolve("compare.html").also { Files.writeString(it, CompareHtml.render(comparison, korean)) }
        return listOf(report.resolve("report.html"), compare)
    }

    @Test
    fun `the Korean report and comparison show no sentence of the English catalogue in the browser`(@TempDir dir: Path) {
        requireBrowserAndFont()
        for (page in pages(dir)) {
            val shown = Jsoup.parse(chromium!!.dom(page)).body().text()
            assertThat(shown).describedAs(page.fileName.toString()).containsPattern("[가-힣]{2,}").contains("gRPC/Unary")
            assertThat(EnglishSentences.foundIn(shown)).describedAs(page.fileName.toString()).isEmpty()
            val visit = chromium.visit(page, dir.resolve("${page.fileName}.png"), 1320, 2400)
            assertThat(visit.console).describedAs(page.fileName.toString()).isEmpty()
        }
    }

    @Test
    fun `an English sentence left on a Korean page is found in what the browser shows`(@TempDir dir: Path) {
        requireBrowserAndFont()
        val page = pages(dir).first()
        val leftOver = Texts.EN("planning.reason.beyond-reach", 4, 5)
        Files.writeString(page, Files.readString(page).replace("<h2", "<p>$leftOver</p><h2"))
        assertThat(EnglishSentences.foundIn(Jsoup.parse(chromium!!.dom(page)).body().text()))
            .contains("so no fork was added for them", "would take more than the most forks allowed")
    }

    @Test
    fun `Hangul is drawn in glyphs of its own, while characters no font has are drawn as the same box`(@TempDir dir: Path) {
        requireBrowserAndFont()
        assertThat(distinctGlyphs(dir, "가나다라", "마바사아")).describedAs("two lines of Hangul differ on screen").isTrue()
        // Private-use characters have no glyph in any font: every one is the same box, so the check fails on them.
        assertThat(distinctGlyphs(dir, "\uE000\uE001\uE002\uE003", "\uE010\uE011\uE012\uE013")).describedAs("two lines of boxes").isFalse()
    }

    /**
     * Whether [first] and [second], each a line of 48 px text of its own, come out as different
     * pixels: text in a font that has its glyphs does, text drawn as missing-glyph boxes does not.
     * Both lines must have ink.
     */
    private fun distinctGlyphs(dir: Path, first: String, second: String): Boolean {
        val page = Files.createTempFile(dir, "glyphs", ".html")
        fun line(top: Int, text: String) =
            """<div style="position:absolute;top:${top}px;left:0;font:48px sans-serif;color:#000">$text</div>"""
        Files.writeString(
            page,
            """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff">""" +
                line(0, first) + line(LINE, second) + "</body></html>",
        )
        val image = ImageIO.read(chromium!!.visit(page, dir.resolve("${page.fileName}.png"), 400, 2 * LINE).screenshot.toFile())
        fun ink(y0: Int) =
            (0 until LINE).sumOf { y -> (0 until image.width).count { x -> image.getRGB(x, y0 + y) and 0xffffff != 0xffffff } }
        assertThat(ink(0)).describedAs("ink of %s", first).isGreaterThan(100)
        assertThat(ink(LINE)).describedAs("ink of %s", second).isGreaterThan(100)
        val differing = (0 until LINE).sumOf { y -> (0 until image.width).count { x -> image.getRGB(x, y) != image.getRGB(x, LINE + y) } }
        return differing > ink(0) / 4
    }

    private companion object {
        const val LINE = 100
    }
}
