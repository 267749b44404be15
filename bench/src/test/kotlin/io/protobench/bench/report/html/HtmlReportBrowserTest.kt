package io.protobench.bench.report.html

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import io.protobench.bench.testkit.HeadlessChromium
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.awt.image.BufferedImage
import java.nio.file.Files
import java.nio.file.Path
import javax.imageio.ImageIO
import kotlin.math.abs

/** report.html opened in headless Chromium: it draws, and the browser blocks nothing on it. */
@Tag(PROCESS)
class HtmlReportBrowserTest {
    private val chromium = HeadlessChromium.find()

    private fun requireChromium() = assumeTrue(
        chromium != null,
        "chromium is not installed: the browser check of report.html is skipped (`./protobench test` installs it where apt-get can)",
    )

    private val record = Fixtures.record(
        listOf("size=1kb vus=10", "size=1mb vus=10"),
        listOf("gRPC/Unary", "HTTP/JSON", NULL_HOP),
        3,
    ) { c, kind, arm, fork ->
        if (kind != TrialKind.COST) return@record null
        val hop = if (arm == NULL_HOP) {
            0.0
        } else if (arm == "gRPC/Unary") {
            100.0
        } else if (c.contains("1kb")) {
            150.0
        } else {
            900.0
        }
        cost((300 + hop) * (1 + 0.02 * fork), hopP50 = hop / 100 + 0.01) + Figures.of(Figure.LATENCY_P50 to 1.0, Figure.LATENCY_P99 to 3.0)
    }

    @Test
    fun `the report renders its charts with no console message`(@TempDir dir: Path) {
        requireChromium()
        ReportWriter.write(dir, record)
        val visit = chromium!!.visit(dir.resolve("report.html"), dir.resolve("report.png"), 1320, 2400)
        assertThat(visit.console).isEmpty()
        val image = ImageIO.read(visit.screenshot.toFile())
        assertThat(image.width).isEqualTo(1320)
        // Not blank: a good part of the page is ink, and the protocols' colours are drawn.
        assertThat(share(image) { it != WHITE }).isGreaterThan(0.03)
        assertThat(share(image) { near(it, 0x1b9e77) }).describedAs("gRPC/Unary's green").isGreaterThan(0.0)
        assertThat(share(image) { near(it, 0xd95f02) }).describedAs("HTTP/JSON's orange").isGreaterThan(0.0)
    }

    @Test
    fun `a page that breaks its own policy is caught by the console check`(@TempDir dir: Path) {
        requireChromium()
        val page = dir.resolve("bad.html")
        Files.writeString(
            page,
            """<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'">""" +
                """</head><body><p style="color:blue">styled</p></body></html>""",
        )
        val visit = chromium!!.visit(page, dir.resolve("bad.png"), 400, 300)
        assertThat(visit.console).singleElement().asString().contains("Content Security Policy")
    }

    private fun share(image: BufferedImage, test: (Int) -> Boolean): Double {
        var hits = 0L
        for (y in 0 until image.height step 2) for (x in 0 until image.width step 2) if (test(image.getRGB(x, y) and 0xffffff)) hits++
        return hits.toDouble() / ((image.width / 2) * (image.height / 2))
    }

    private fun near(rgb: Int, target: Int) = (0..2).all { k -> abs(((rgb shr (8 * k)) and 0xff) - ((target shr (8 * k)) and 0xff)) <= 12 }

    private companion object {
        const val WHITE = 0xffffff
    }
}
