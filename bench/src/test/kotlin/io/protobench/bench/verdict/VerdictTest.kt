package io.protobench.bench.verdict

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln

/** Outcomes, wording and edge cases of the verdict engine. */
class VerdictTest {
    private fun input(a: String, b: String, logs: List<Double>, higherIsBetter: Boolean = true, figure: String = "throughput") =
        ComparisonInput(a, b, figure, higherIsBetter, PairedRatio.ofLogRatios(logs))

    @Test
    fun `fewer than 2 forks gives an estimate but never a decision`() {
        val one = PairedRatio.of(listOf(120.0), listOf(100.0))
        assertThat(one.n).isEqualTo(1)
        assertThat(one.percent).isCloseTo(20.0, within(1e-9))
        assertThat(one.sdLog).isNull()
        assertThat(one.pValue).isNull()
        assertThat(one.interval()).isNull()
        assertThat(one.tostPValue(0.05)).isNull()
        val none = PairedRatio.of(emptyList(), emptyList())
        assertThat(none.meanLog).isNaN()

        val d = Verdicts.decide(listOf(ComparisonInput("gRPC", "HTTP/JSON", "throughput", true, one))).single()
        val o = d.outcome as Outcome.Inconclusive
        assertThat(o.reason).isEqualTo(Outcome.Inconclusive.FEWER_THAN_2_FORKS)
        assertThat(o.forksToDecide).isNull()
        assertThat(d.differenceP).isNull()
        assertThat(d.describe()).isEqualTo("gRPC vs HTTP/JSON inconclusive: fewer than 2 forks (1 usable), single fork +20.0%")
    }

    @Test
    fun `comparisons without a test do not count in the Holm family`() {
        val clear = input("A", "B", listOf(0.10, 0.12, 0.09, 0.11, 0.10))
        val alone = Verdicts.decide(listOf(clear)).single()
        val withUntestable = Verdicts.decide(listOf(clear, input("C", "D", listOf(0.3)))).first()
        assertThat(withUntestable.differenceP).isEqualTo(alone.differenceP)
    }

    @Test
    fun `zero variance does not divide by zero`() {
        val exact = PairedRatio.of(listOf(110.0, 220.0, 330.0), listOf(100.0, 200.0, 300.0))
        assertThat(exact.sdLog).isEqualTo(0.0, within(1e-15))
        assertThat(exact.ratio).isCloseTo(1.1, within(1e-12))
        assertThat(exact.pValue).isEqualTo(0.0)
        val ci = exact.interval(0.95)!!
        assertThat(ci.low).isCloseTo(1.1, within(1e-12))
        assertThat(ci.high).isCloseTo(1.1, within(1e-12))
        assertThat(exact.tostPValue(0.05)).isEqualTo(1.0) // 10% is outside ±5%
        assertThat(exact.tostPValue(0.2)).isEqualTo(0.0)

        val same = PairedRatio.of(listOf(5.0, 7.0), listOf(5.0, 7.0))
        assertThat(same.pValue).isEqualTo(1.0)
        assertThat(same.tostPValue(0.05)).isEqualTo(0.0)

        val d = Verdicts.decide(
            listOf(
                ComparisonInput("A", "B", "throughput", true, exact),
                ComparisonInput("C", "D", "throughput", true, same),
            ),
        )
        assertThat(d[0].outcome).isInstanceOf(Outcome.Better::class.java)
        assertThat((d[0].outcome as Outcome.Better).sizePercent).isCloseTo(10.0, within(1e-9))
        assertThat(d[1].outcome).isEqualTo(Outcome.Equivalent)
    }

    @Test
    fun `a figure's rounding is the least spread its forks can have - equal tick counts decide nothing`() {
        // Direct wan at 1 KB, 322 requests a trial: both forks counted 26 ticks for one arm and 27 for the other.
        val tick = 10_000.0 / 322
        val a = listOf(26 * tick, 26 * tick)
        val b = listOf(27 * tick, 27 * tick)
        assertThat(PairedRatio.of(a, b).interval()!!.let { it.high - it.low }).isEqualTo(0.0, within(1e-15))
        val rounded = PairedRatio.of(a, b, roundingSd = 0.031)
        assertThat(rounded.sdLog).isEqualTo(0.031)
        assertThat(rounded.interval()!!.lowPercent).isLessThan(-20.0)
        assertThat(rounded.interval()!!.highPercent).isGreaterThan(10.0)
        val d = Verdicts.decide(listOf(ComparisonInput("A", "B", "hop_cpu_us_per_req", false, rounded)))
        assertThat(d.single().outcome).isInstanceOf(Outcome.Inconclusive::class.java)
        // A spread larger than the rounding is the forks' own and stays.
        val spread = PairedRatio.of(listOf(100.0, 120.0, 90.0), listOf(100.0, 100.0, 100.0), roundingSd = 0.001)
        assertThat(spread.sdLog).isEqualTo(PairedRatio.of(listOf(100.0, 120.0, 90.0), listOf(100.0, 100.0, 100.0)).sdLog)
    }

    @Test
    fun `the 5 percent margin is symmetric on the log scale - from minus 4_76 to plus 5 percent`() {
        // Exact ratios (zero spread): TOST p is 0 strictly inside (1/1.05, 1.05), 1 outside.
        fun exact(ratio: Double) = PairedRatio.of(listOf(ratio, 2 * ratio), listOf(1.0, 2.0)).tostPValue(0.05)
        assertThat(exact(1.0499)).isEqualTo(0.0)
        assertThat(exact(1.0501)).isEqualTo(1.0)
        assertThat(exact(0.9524)).isEqualTo(0.0) // −4.76%
        assertThat(exact(0.9523)).isEqualTo(1.0) // −4.77%
        assertThat((1 / 1.05 - 1) * 100).isCloseTo(-4.76, within(0.005))
    }

    @Test
    fun `non-positive, missing and non-finite values are dropped and counted`() {
        val r = PairedRatio.of(
            listOf(110.0, 0.0, 105.0, null, 108.0, Double.NaN, 107.0, -1.0),
            listOf(100.0, 100.0, 100.0, 100.0, 100.0, 100.0, Double.POSITIVE_INFINITY, 100.0),
        )
        assertThat(r.n).isEqualTo(3)
        assertThat(r.dropped).isEqualTo(5)
        assertThat(r.logRatios).containsExactly(ln(1.1), ln(1.05), ln(1.08))
        assertThatThrownBy { PairedRatio.of(listOf(1.0), listOf(1.0, 2.0)) }.isInstanceOf(IllegalArgumentException::class.java)
        val d = Verdicts.decide(listOf(ComparisonInput("A", "B", "throughput", true, r))).single()
        assertThat(d.describe()).contains("3 forks, 5 dropped")
    }

    @Test
    fun `all-equal family is equivalent everywhere and never better`() {
        val family = listOf("A" to "B", "A" to "C", "B" to "C").flatMap { (a, b) ->
            listOf(true, false).map { hib ->
                ComparisonInput(a, b, if (hib) "throughput" else "cpu", hib, PairedRatio.of(listOf(3.0, 4.0, 5.0), listOf(3.0, 4.0, 5.0)))
            }
        }
        val decisions = Verdicts.decide(family)
        assertThat(decisions).allSatisfy { assertThat(it.outcome).isEqualTo(Outcome.Equivalent) }
        assertThat(Verdicts.falsePositiveRate(decisions)).isEqualTo(0.0)
        assertThat(
            decisions[0].describe(),
        ).isEqualTo("A vs B equivalent within ±5%: +0.0% [0.0%, 0.0%] (Holm-adjusted 98.3% interval, 3 forks; family of 6)")
    }

    @Test
    fun `looks spread alpha - each look tests at alpha over the looks, and the verdict says so`() {
        val logs = listOf(0.10, 0.12, 0.09, 0.11, 0.10)
        val once = Verdicts.decide(listOf(input("gRPC", "HTTP/JSON", logs))).single()
        val thrice = Verdicts.decide(listOf(input("gRPC", "HTTP/JSON", logs)), looks = 3).single()
        val atThird = Verdicts.decide(listOf(input("gRPC", "HTTP/JSON", logs)), alpha = 0.05 / 3).single()

        assertThat(thrice.alpha).isEqualTo(0.05)
        assertThat(thrice.lookAlpha).isEqualTo(0.05 / 3)
        assertThat(thrice.interval).isEqualTo(atThird.interval)
        assertThat(thrice.interval!!.confidence).isGreaterThan(once.interval!!.confidence)
        assertThat(thrice.describe("faster")).endsWith("(Holm-adjusted 98.3% interval, 5 forks; family of 1, α spread over 3 looks)")
        // Four forks of a 3% difference: decided at one look, open when the same α is spread over three.
        val small = listOf(0.01, 0.05, 0.03, 0.03)
        assertThat(Verdicts.decide(listOf(input("A", "B", small))).single().isBetter).isTrue()
        assertThat(Verdicts.decide(listOf(input("A", "B", small)), looks = 3).single().outcome)
            .isInstanceOf(Outcome.Inconclusive::class.java)
        assertThat(Verdicts.looks(forks = 3, maxForks = 5)).isEqualTo(3)
        assertThat(Verdicts.looks(forks = 4, maxForks = 4)).isEqualTo(1)
    }

    @Test
    fun `higher is better - A better, size is how much higher, interval is Holm-adjusted`() {
        val logs = listOf(0.10, 0.12, 0.09, 0.11, 0.10)
        val d = Verdicts.decide(listOf(input("gRPC", "HTTP/JSON", logs))).single()
        val o = d.outcome as Outcome.Better
        assertThat(o.aBetter).isTrue()
        assertThat(o.winner).isEqualTo("gRPC")
        val mean = logs.average()
        assertThat(o.sizePercent).isCloseTo((exp(mean) - 1) * 100, within(1e-9))
        // One comparison: m = 1, so the Holm interval is the plain 95% interval.
        val ci = PairedRatio.ofLogRatios(logs).interval(0.95)!!
        assertThat(o.lowPercent).isCloseTo(ci.lowPercent, within(1e-9))
        assertThat(o.highPercent).isCloseTo(ci.highPercent, within(1e-9))
        assertThat(d.describe("faster")).startsWith("gRPC faster than HTTP/JSON by 11.0% [")
            .endsWith("(Holm-adjusted 95.0% interval, 5 forks; family of 1)")
    }

    @Test
    fun `lower is better - A lower means A better, size is how much lower`() {
        // A's CPU per request is about 20% lower than B's.
        val logs = listOf(ln(0.80), ln(0.78), ln(0.82), ln(0.79), ln(0.81))
        val d = Verdicts.decide(listOf(input("gRPC/Unary", "HTTP/JSON", logs, higherIsBetter = false, figure = "cpuPerRequest"))).single()
        val o = d.outcome as Outcome.Better
        assertThat(o.aBetter).isTrue()
        val r = exp(logs.average())
        assertThat(o.sizePercent).isCloseTo((1 - r) * 100, within(1e-9))
        assertThat(o.lowPercent).isLessThan(o.sizePercent)
        assertThat(o.highPercent).isGreaterThan(o.sizePercent)
        assertThat(o.lowPercent).isCloseTo((1 - d.differenceInterval!!.high) * 100, within(1e-9))
        assertThat(d.describe("cheaper")).startsWith("gRPC/Unary cheaper than HTTP/JSON by 20.0% [")
    }

    @Test
    fun `B better is named first and its size is relative to A`() {
        // A's throughput is 20% below B's → B is 1/0.8 − 1 = 25% higher.
        val logs = listOf(ln(0.80), ln(0.78), ln(0.82), ln(0.79), ln(0.81))
        val hib = Verdicts.decide(listOf(input("A", "B", logs))).single().outcome as Outcome.Better
        assertThat(hib.aBetter).isFalse()
        assertThat(hib.winner).isEqualTo("B")
        assertThat(hib.sizePercent).isCloseTo((1 / exp(logs.average()) - 1) * 100, within(1e-9))
        // Latency of A 25% above B's (A/B = 1.25) → B is 1 − 1/1.25 = 20% lower.
        val up = logs.map { -it }
        val lib = Verdicts.decide(listOf(input("A", "B", up, higherIsBetter = false))).single().outcome as Outcome.Better
        assertThat(lib.aBetter).isFalse()
        assertThat(lib.sizePercent).isCloseTo((1 - 1 / exp(up.average())) * 100, within(1e-9))
        assertThat(lib.lowPercent).isLessThan(lib.sizePercent)
    }

    @Test
    fun `Holm-adjusted p and interval follow the family`() {
        val family = listOf(
            input("A", "B", listOf(0.10, 0.12, 0.09, 0.11, 0.10)),
            input("A", "C", listOf(0.01, -0.02, 0.03, 0.00, 0.02)),
            input("B", "C", listOf(0.05, -0.06, 0.08, -0.02, 0.09)),
        )
        val d = Verdicts.decide(family)
        val raw = family.map { it.estimate.pValue!! }
        val holm = Holm.of(raw)
        d.forEachIndexed { i, decision ->
            assertThat(decision.differenceP).isEqualTo(holm.adjusted[i])
            assertThat(decision.differenceInterval!!.confidence).isCloseTo(1 - holm.intervalLevel(i, 0.05), within(1e-15))
        }
        // The clear one has the smallest p: rank 1 of 3, interval at 1 − 0.05/3.
        assertThat(d[0].differenceInterval!!.confidence).isCloseTo(1 - 0.05 / 3, within(1e-15))
        assertThat(d[0].describe()).contains("Holm-adjusted 98.3% interval")
        // The two not rejected: both at the level where the step-down stopped, 0.05 / (3 − 1).
        assertThat(d[1].differenceInterval!!.confidence).isCloseTo(1 - 0.05 / 2, within(1e-15))
        assertThat(d[2].differenceInterval!!.confidence).isCloseTo(1 - 0.05 / 2, within(1e-15))
    }

    @Test
    fun `a comparison the step-down never reached is inconclusive and its interval says so by containing no difference`() {
        // Ranks 1 and 2 have nearly equal p-values: the first fails at 0.05/2, so the second is
        // not rejected though its own step level (0.05/1) would have excluded a ratio of 1.
        val first = input("A", "B", listOf(0.10, 0.135, 0.065)) // p 0.038
        val second = input("A", "C", listOf(0.10, 0.137, 0.063)) // p 0.043
        val holm = Holm.of(listOf(first, second).map { it.estimate.pValue!! })
        assertThat(holm.pValues[1]).isLessThan(0.05).isGreaterThan(holm.pValues[0]).isGreaterThan(0.025)
        assertThat(first.estimate.interval(1 - holm.stepLevel(1, 0.05))!!.low).isGreaterThan(1.0)

        val d = Verdicts.decide(listOf(first, second))
        assertThat(d).allSatisfy { assertThat(it.outcome).isInstanceOf(Outcome.Inconclusive::class.java) }
        assertThat(d).allSatisfy { assertThat(it.differenceInterval!!.low).isLessThan(1.0) }
        assertThat(d[1].differenceInterval!!.confidence).isCloseTo(1 - 0.05 / 2, within(1e-15))
    }

    @Test
    fun `inconclusive says how many more forks would decide it`() {
        // Mean +3%, noisy: neither a difference nor inside ±5% at 5 forks.
        val logs = listOf(0.07, -0.03, 0.08, 0.00, 0.03)
        val d = Verdicts.decide(listOf(input("A", "B", logs))).single()
        val o = d.outcome as Outcome.Inconclusive
        assertThat(o.reason).isEqualTo(Outcome.Inconclusive.NOT_DECIDED)
        val need = o.forksToDecide!!
        assertThat(o.moreForks).isEqualTo(need - 5)
        // Check the projection by hand: at `need` forks with the same mean and sd, the 95% interval
        // excludes 0 (or the 90% interval is inside ±ln 1.05); at need − 1 neither holds.
        val bound = ln(1.05)
        fun decidedAt(n: Int): Boolean {
            val sd = d.estimate.sdLog!!
            val se = sd / kotlin.math.sqrt(n.toDouble())
            val t = org.apache.commons.statistics.distribution.TDistribution.of(n - 1.0)
            val mean = logs.average()
            return kotlin.math.abs(mean) / se > t.inverseSurvivalProbability(0.025) ||
                (bound - kotlin.math.abs(mean)) / se > t.inverseSurvivalProbability(0.05)
        }
        assertThat(decidedAt(need)).isTrue()
        assertThat(need == 6 || !decidedAt(need - 1)).isTrue()
        assertThat(d.describe()).isEqualTo(
            "A vs B inconclusive: ${formatPercent(d.estimate.percent, true)} " +
                "[${formatPercent(d.interval!!.lowPercent)}, ${formatPercent(d.interval!!.highPercent)}] " +
                "(Holm-adjusted 95.0% interval, 5 forks; family of 1); about ${need - 5} more forks would decide it",
        )
    }

    @Test
    fun `more than 100 forks gives a null forks-to-decide`() {
        // Mean exactly at the margin, large noise: neither test can succeed at 100 forks.
        val b = ln(1.05)
        val logs = listOf(b + 0.3, b - 0.3, b + 0.2, b - 0.2)
        val d = Verdicts.decide(listOf(input("A", "B", logs))).single()
        val o = d.outcome as Outcome.Inconclusive
        assertThat(o.forksToDecide).isNull()
        assertThat(o.moreForks).isNull()
        assertThat(d.describe()).endsWith("more than 100 forks would be needed to decide it")
    }

    @Test
    fun `percent formatting uses a Unicode minus and one decimal`() {
        assertThat(formatPercent(3.14159, signed = true)).isEqualTo("+3.1%")
        assertThat(formatPercent(-1.94)).isEqualTo("−1.9%")
        assertThat(formatPercent(-0.04, signed = true)).isEqualTo("+0.0%")
        assertThat(formatPercent(3.6)).isEqualTo("3.6%")
    }
}
