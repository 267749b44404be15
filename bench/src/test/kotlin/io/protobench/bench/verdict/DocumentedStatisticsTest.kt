package io.protobench.bench.verdict

import io.protobench.bench.measure.Figure
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.LabNoise
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.verdict.ComparisonInput
import io.protobench.bench.verdict.PairedRatio
import io.protobench.bench.verdict.Power
import io.protobench.bench.verdict.Verdicts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path
import java.util.Locale
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * The numbers docs/statistics.md and docs/methodology.md quote about the verdict engine, read
 * back from the docs and computed again from the code: the |t| a comparison needs at a Holm
 * step over the looks ([Verdicts.threshold], α split by [Verdicts.looks]), and what quick's
 * A/A check can catch at the lab's pooled noise ([LabNoise], [Power]). A change of the rule,
 * of the noise or of a quoted number that leaves the other behind fails here, naming the
 * passage; a passage reworded so that its pattern no longer finds it fails too, and the
 * pattern is to be mended with it.
 */
class DocumentedStatisticsTest {
    /** Surefire runs in bench/; the docs are the project's. */
    private val docs: Path = Path.of("").toAbsolutePath().parent.resolve("docs")

    /** A document's text with every run of white space as one space: prose wraps anywhere. */
    private fun text(document: String) = Files.readString(docs.resolve(document)).replace(Regex("""\s+"""), " ")

    /** What the groups of [pattern] capture in [document]; fails when no passage matches. */
    private fun quoted(document: String, pattern: String): List<String> {
        val match = Regex(pattern).find(text(document))
        assertThat(match).describedAs("$document: no passage matches /$pattern/").isNotNull()
        return match!!.groupValues.drop(1)
    }

    /** [value] written with as many decimals as [quote] has ("26.8", "7.65", "27%"), a trailing % kept. */
    private fun asQuoted(value: Double, quote: String): String {
        val number = quote.removeSuffix("%")
        val decimals = number.substringAfter('.', "").length
        return String.format(Locale.ROOT, "%.${decimals}f", value) + if (quote.endsWith("%")) "%" else ""
    }

    private val quick = ScenarioCatalog.builtIn("quick")!!

    /** quick's protocol family: every pair of its protocols, on each cost figure. */
    private val quickFamily = quick.protocols.size * (quick.protocols.size - 1) / 2 * Analysis.COST_FIGURES.size

    @Test
    fun `the t thresholds statistics_md quotes are the engine's, at its split of alpha over the looks`() {
        val q = quoted(
            "statistics.md",
            """at the first look \((\d+) forks, (\d+) degrees of freedom\), with α/(\d+) shared by a family of (\d+), """ +
                """the comparison at Holm's first step needs \|t\| above ([0-9.]+) \(two-sided at 0\.05/\((\d+)·(\d+)\)\), """ +
                """and even the last step \(0\.05/(\d+)\) needs ([0-9.]+);""",
        )
        val (forks, df, lookShare, family, first) = q
        val (looks, size, lastLooks, last) = q.drop(5)
        // The design of 3 to 5 forks quick had before it was fixed at 5: one look per fork from the minimum on.
        val k = Verdicts.looks(3, 5)
        assertThat(listOf(forks, df, lookShare, family, looks, size, lastLooks))
            .containsExactly("3", "2", "$k", "$quickFamily", "$k", "$quickFamily", "$k")
        assertThat(first).isEqualTo(asQuoted(Verdicts.threshold(3, quickFamily, step = 1, looks = k), first))
        assertThat(last).isEqualTo(asQuoted(Verdicts.threshold(3, quickFamily, step = quickFamily, looks = k), last))

        val (fixedForks, fixedDf, fixedFirst, fixedLast) = quoted(
            "statistics.md",
            """with one look \((\d+) forks fixed, (\d+) degrees of freedom\) the first step needs ([0-9.]+) and the last ([0-9.]+)\.""",
        )
        assertThat(fixedForks).isEqualTo("${quick.forks}")
        assertThat(fixedDf).isEqualTo("${quick.forks - 1}")
        val one = Verdicts.looks(quick.forks, quick.maxForks)
        assertThat(one).isEqualTo(1)
        assertThat(fixedFirst).isEqualTo(asQuoted(Verdicts.threshold(quick.forks, quickFamily, step = 1, looks = one), fixedFirst))
        assertThat(fixedLast).isEqualTo(asQuoted(Verdicts.threshold(quick.forks, quickFamily, step = quickFamily, looks = one), fixedLast))
    }

    @Test
    fun `the t thresholds methodology_md quotes are the engine's, and the difference they take at the simulation's spread`() {
        val q = quoted(
            "methodology.md",
            """the first Holm step of quick's family of (\d+) needs \|t\| above ([0-9.]+) at (\d+) degrees of freedom """ +
                """\((\d+) forks: ([0-9.]+)\), and of projectB's family of (\d+) above ([0-9.]+); at the per-fork log-ratio sd of """ +
                """([0-9.]+) that the planner simulation assumes, ([0-9.]+) means a difference of about ×([0-9.]+)""",
        )
        val (family, first, df, forks, atForks) = q
        val (bFamily, bFirst, sd, again, factor) = q.drop(5)
        assertThat(family).isEqualTo("$quickFamily")
        val threeForks = df.toInt() + 1
        val t = Verdicts.threshold(threeForks, quickFamily)
        assertThat(first).isEqualTo(asQuoted(t, first))
        assertThat(again).isEqualTo(first)
        assertThat(forks).isEqualTo("${quick.forks}")
        assertThat(atForks).isEqualTo(asQuoted(Verdicts.threshold(quick.forks, quickFamily), atForks))
        assertThat(bFirst).isEqualTo(asQuoted(Verdicts.threshold(threeForks, bFamily.toInt()), bFirst))
        // |t| = mean / (sd / √n): the mean log ratio that reaches the threshold, as a factor.
        assertThat(factor).isEqualTo(asQuoted(exp(t * sd.toDouble() / sqrt(threeForks.toDouble())), factor))
    }

    @Test
    fun `a comparison just past the threshold is decided and one just short of it is not, at each Holm step and look`() {
        for ((forks, looks) in listOf(3 to Verdicts.looks(3, 5), 3 to 1, 5 to 1)) {
            for (step in listOf(1, 6, quickFamily)) {
                val t = Verdicts.threshold(forks, quickFamily, step, looks)
                assertThat(decided(forks, quickFamily, step, looks, t * 1.001))
                    .describedAs("$forks forks, $looks looks, step $step, above").isTrue()
                assertThat(decided(forks, quickFamily, step, looks, t * 0.999))
                    .describedAs("$forks forks, $looks looks, step $step, below").isFalse()
            }
        }
    }

    /**
     * Whether [Verdicts.decide] calls a comparison with t statistic [t] over [forks] forks
     * different when it stands at Holm step [step] of a family of [family] tested at each of
     * [looks] looks: the steps before it are clear differences, those after it none at all.
     */
    private fun decided(forks: Int, family: Int, step: Int, looks: Int, t: Double): Boolean {
        // Log ratios with a given mean and a sample sd of exactly [sd]: a symmetric spread about the mean.
        fun spread(mean: Double, sd: Double): PairedRatio {
            val centred = (0 until forks).map { it - (forks - 1) / 2.0 }
            val scale = sqrt(centred.sumOf { it * it } / (forks - 1))
            return PairedRatio.ofLogRatios(centred.map { mean + sd * it / scale })
        }
        val sd = 0.1
        val estimates = List(step - 1) { spread(1.0, 1e-6) } + spread(t * sd / sqrt(forks.toDouble()), sd) +
            List(family - step) { spread(0.0, sd / 10) }
        val inputs = estimates.mapIndexed { i, e -> ComparisonInput("A$i", "B$i", Figure.HOP_CPU_US.key, false, e) }
        return Verdicts.decide(inputs, looks = looks)[step - 1].isBetter
    }

    @Test
    fun `the A-A power statistics_md tabulates follows from the lab's pooled noise in the code`() {
        val (each, pooledDf) = quoted("statistics.md", """pooled over the two runs with their (\d+) degrees of freedom each \(df (\d+)\)""")
        assertThat(pooledDf.toInt()).isEqualTo(2 * each.toInt()).isEqualTo(LabNoise.DEGREES_OF_FREEDOM)
        val rows = mapOf(
            "hop CPU, 1 KB" to (Figure.HOP_CPU_US to LabNoise.Payload.SMALL),
            "hop p50, 1 KB" to (Figure.HOP_P50 to LabNoise.Payload.SMALL),
            "hop CPU, 1 MB" to (Figure.HOP_CPU_US to LabNoise.Payload.LARGE),
            "hop p50, 1 MB" to (Figure.HOP_P50 to LabNoise.Payload.LARGE),
        )
        assertThat(rows.values).containsExactlyInAnyOrderElementsOf(LabNoise.POOLED_SD.keys)
        val lines = Files.readAllLines(docs.resolve("statistics.md"))
        for ((label, key) in rows) {
            val row = lines.filter { it.startsWith("| $label |") }
            assertThat(row).describedAs("statistics.md: the row of $label").hasSize(1)
            // | figure, size | sd, run a / run b | pooled sd | 5 forks: caught | 5 forks: 80% from | 10 forks: caught; 80% from
            // | 20 forks: … |
            val cells = row.single().split('|').map { it.trim() }.filter { it.isNotEmpty() }
            val sd = LabNoise.POOLED_SD.getValue(key)
            assertThat(cells[2]).describedAs("$label: pooled sd").isEqualTo(asQuoted(sd, cells[2]))
            val columns = listOf(quick.forks to "${cells[3]}; ${cells[4]}", 10 to cells[5], 20 to cells[6])
            for ((forks, cell) in columns) {
                val (caught, from) = cell.split(";").map { it.trim() }
                val (power, detectable) = aaCheck(sd, forks)
                assertThat(caught).describedAs("$label, $forks forks: a 10% bias caught").isEqualTo(asQuoted(100 * power, caught))
                assertThat(from).describedAs("$label, $forks forks: 80% power from").isEqualTo(asQuoted(detectable, from))
            }
        }
    }

    @Test
    fun `the A-A power ranges methodology_md quotes follow from the lab's pooled noise in the code`() {
        val q = quoted(
            "methodology.md",
            """per-fork log-ratio sd ([0-9.]+)–([0-9.]+), pooled over both runs\), quick's (\d+)-fork check catches a 10% bias in """ +
                """(\d+)–(\d+)% of conditions, depending on the figure, and with 80% power only biases of ([0-9.]+)–([0-9.]+)%; """ +
                """10 forks catch it in (\d+)–(\d+)%, 20 forks in (\d+)–(\d+)%""",
        )
        val sds = LabNoise.POOLED_SD.values
        assertThat(q[0]).isEqualTo(asQuoted(sds.min(), q[0]))
        assertThat(q[1]).isEqualTo(asQuoted(sds.max(), q[1]))
        assertThat(q[2]).isEqualTo("${quick.forks}")
        val atFive = sds.map { aaCheck(it, quick.forks) }
        assertThat(listOf(q[3], q[4])).containsExactly(
            asQuoted(100 * atFive.minOf { it.first }, q[3]),
            asQuoted(100 * atFive.maxOf { it.first }, q[4]),
        )
        assertThat(listOf(q[5], q[6])).containsExactly(
            asQuoted(atFive.minOf { it.second }, q[5]),
            asQuoted(atFive.maxOf { it.second }, q[6]),
        )
        for ((forks, low, high) in listOf(Triple(10, q[7], q[8]), Triple(20, q[9], q[10]))) {
            val powers = sds.map { aaCheck(it, forks).first }
            assertThat(listOf(low, high)).describedAs("$forks forks")
                .containsExactly(asQuoted(100 * powers.min(), low), asQuoted(100 * powers.max(), high))
        }
    }

    /**
     * quick's A/A check with [forks] forks (one look: forks = maxForks) whose log ratios scatter by
     * [sd]: the chance of calling a 10% bias at the first Holm step of the A/A family (one
     * comparison per cost figure), and the bias in percent called with probability 0.8.
     */
    private fun aaCheck(sd: Double, forks: Int): Pair<Double, Double> {
        val level = Verdicts.ALPHA / Verdicts.looks(forks, forks) / Analysis.COST_FIGURES.size
        return Power.pairedT(ln(1.10), sd, forks, level) to Power.detectablePercent(sd, forks, level, 0.8)!!
    }
}
