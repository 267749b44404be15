package io.protobench.bench.verdict

import org.apache.commons.statistics.inference.AlternativeHypothesis
import org.apache.commons.statistics.inference.TTest
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/** The t, Holm and TOST machinery against published or hand-computed values. */
class ReferenceValuesTest {
    // R's `sleep` data set: extra hours of sleep for 10 patients under two drugs.
    private val group1 = listOf(0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0)
    private val group2 = listOf(1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4)

    @Test
    fun `paired t on differences matches R's t-test on the sleep data`() {
        // R: t.test(extra ~ group, data = sleep, paired = TRUE)
        //    t = -4.0621, df = 9, p-value = 0.002833
        //    95 percent confidence interval: -2.4598858 -0.7001142; mean difference -1.58
        val t = OneSampleT(group1.zip(group2) { x, y -> x - y }.toDoubleArray())
        assertThat(t.df).isEqualTo(9)
        assertThat(t.mean).isCloseTo(-1.58, within(1e-12))
        assertThat(t.statistic()).isCloseTo(-4.0621, within(5e-5))
        assertThat(t.pValue()).isCloseTo(0.002833, within(5e-7))
        val (lo, hi) = t.interval(0.95)
        assertThat(lo).isCloseTo(-2.4598858, within(1e-7))
        assertThat(hi).isCloseTo(-0.7001142, within(1e-7))
    }

    @Test
    fun `PairedRatio on exp of the sleep data reproduces the same test on the log scale`() {
        // ln(exp(x)/exp(y)) = x - y, so the log-ratio machinery must give R's numbers back.
        val r = PairedRatio.of(group1.map { exp(it) }, group2.map { exp(it) })
        assertThat(r.n).isEqualTo(10)
        assertThat(r.dropped).isZero()
        assertThat(r.meanLog).isCloseTo(-1.58, within(1e-12))
        assertThat(r.ratio).isCloseTo(exp(-1.58), within(1e-12))
        assertThat(r.percent).isCloseTo((exp(-1.58) - 1) * 100, within(1e-9))
        assertThat(r.pValue!!).isCloseTo(0.002833, within(5e-7))
        val ci = r.interval(0.95)!!
        assertThat(ln(ci.low)).isCloseTo(-2.4598858, within(1e-7))
        assertThat(ln(ci.high)).isCloseTo(-0.7001142, within(1e-7))
        assertThat(ci.lowPercent).isCloseTo((exp(-2.4598858) - 1) * 100, within(1e-5))
        assertThat(ci.excludesOne).isTrue()
        // sd of the differences: se = 1.58 / 4.0621 → sd = se * sqrt(10)
        assertThat(r.sdLog!!).isCloseTo(1.58 / 4.062128 * sqrt(10.0), within(1e-5))
    }

    @Test
    fun `p-values agree with Commons Statistics' own one-sample t-test`() {
        val x = doubleArrayOf(0.031, -0.012, 0.044, 0.020, 0.008, 0.027)
        val mine = OneSampleT(x)
        assertThat(mine.pValue()).isCloseTo(TTest.withDefaults().test(x).pValue, within(1e-12))
        // TOST = the larger of two one-sided tests at mu = -bound (greater) and mu = +bound (less).
        val bound = ln(1.05)
        val greater = TTest.withDefaults().withMu(-bound).with(AlternativeHypothesis.GREATER_THAN).test(x).pValue
        val less = TTest.withDefaults().withMu(bound).with(AlternativeHypothesis.LESS_THAN).test(x).pValue
        assertThat(mine.tostPValue(-bound, bound)).isCloseTo(maxOf(greater, less), within(1e-12))
        assertThat(PairedRatio.ofLogRatios(x.toList()).tostPValue(0.05)!!).isCloseTo(maxOf(greater, less), within(1e-12))
    }

    @Test
    fun `TOST with two forks has a hand-computable answer`() {
        // n = 2 → df = 1, Student's t with 1 df is Cauchy: P(T > t) = 1/2 − atan(t)/π.
        // Log ratios {−d, +d}: mean 0, sd = d·√2, se = d. With bound δ = ln(1.05) and d = δ/√3,
        // both one-sided statistics are ±√3 and P(T > √3) = 1/2 − (π/3)/π = 1/6.
        val delta = ln(1.05)
        val d = delta / sqrt(3.0)
        val symmetric = PairedRatio.ofLogRatios(listOf(-d, d))
        assertThat(symmetric.tostPValue(0.05)!!).isCloseTo(1.0 / 6, within(1e-12))
        // Log ratios {m − d, m + d} with m = δ/2, d = δ/2: the binding side is (δ − m)/se = 1,
        // P(T > 1) = 1/2 − (π/4)/π = 1/4; the other side is (δ + m)/se = 3, P = 1/2 − atan(3)/π.
        val shifted = PairedRatio.ofLogRatios(listOf(0.0, delta))
        assertThat(shifted.tostPValue(0.05)!!).isCloseTo(0.25, within(1e-12))
        // Equivalently: the 1 − 2·0.25 = 50% interval touches the upper bound exactly.
        assertThat(ln(shifted.interval(0.5)!!.high)).isCloseTo(delta, within(1e-12))
    }

    @Test
    fun `TOST below alpha exactly when the 1 - 2 alpha interval lies inside the bounds`() {
        val bound = ln(1.05)
        val cases = listOf(
            listOf(0.01, -0.01, 0.02, 0.0, 0.005),
            listOf(0.03, 0.05, 0.04, 0.02, 0.045),
            listOf(-0.02, 0.01, -0.03, 0.0, -0.01, -0.015, 0.005),
        )
        for (logs in cases) {
            val r = PairedRatio.ofLogRatios(logs)
            val ci = r.interval(1 - 2 * 0.05)!!
            val inside = ln(ci.low) > -bound && ln(ci.high) < bound
            assertThat(r.tostPValue(0.05)!! < 0.05).`as`("$logs").isEqualTo(inside)
        }
    }

    @Test
    fun `Holm matches R's p adjust`() {
        // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") → 0.03 0.06 0.06 0.02
        val holm = Holm.of(listOf(0.01, 0.04, 0.03, 0.005))
        listOf(0.03, 0.06, 0.06, 0.02).forEachIndexed { i, expected ->
            assertThat(holm.adjusted[i]).isCloseTo(expected, within(1e-12))
        }
        assertThat(holm.ranks).containsExactly(2, 4, 3, 1)
        val levels = holm.stepLevels(0.05)
        assertThat(levels[0]).isCloseTo(0.05 / 3, within(1e-15))
        assertThat(levels[1]).isCloseTo(0.05 / 1, within(1e-15))
        assertThat(levels[2]).isCloseTo(0.05 / 2, within(1e-15))
        assertThat(levels[3]).isCloseTo(0.05 / 4, within(1e-15))
    }

    @Test
    fun `Holm caps at one, is monotone, keeps ties in input order`() {
        // R: p.adjust(c(0.5, 0.02, 0.02, 0.9), "holm") → 1.00 0.08 0.08 1.00
        val holm = Holm.of(listOf(0.5, 0.02, 0.02, 0.9))
        assertThat(holm.adjusted[0]).isEqualTo(1.0)
        assertThat(holm.adjusted[1]).isCloseTo(0.08, within(1e-12))
        assertThat(holm.adjusted[2]).isCloseTo(0.08, within(1e-12))
        assertThat(holm.adjusted[3]).isEqualTo(1.0)
        assertThat(holm.ranks).containsExactly(3, 1, 2, 4)
        assertThat(Holm.adjust(emptyList())).isEmpty()
        assertThat(Holm.adjust(listOf(0.03))).containsExactly(0.03)
    }
}
