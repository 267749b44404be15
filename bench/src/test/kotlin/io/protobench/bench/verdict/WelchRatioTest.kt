package io.protobench.bench.verdict

import org.apache.commons.statistics.inference.TTest
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/** Welch's unequal-variance t on the log scale, against R and hand-computed values. */
class WelchRatioTest {
    // R's `sleep` data set, the two groups taken as independent samples.
    private val group1 = listOf(0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0)
    private val group2 = listOf(1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4)

    @Test
    fun `Welch on exp of the sleep data matches R's unpaired t-test`() {
        // R: t.test(extra ~ group, data = sleep)   (Welch is R's default)
        //    t = -1.8608, df = 17.776, p-value = 0.07939
        //    95 percent confidence interval: -3.3654832 0.2054832
        // By hand: means 0.75 and 2.33, variances 3.2005556 and 4.009, n = 10 each:
        //    se = √(0.32005556 + 0.4009) = 0.8490910, t = −1.58 / se = −1.860813,
        //    df = 0.72095556² / (0.32005556²/9 + 0.4009²/9) = 17.776474.
        // ln(exp(x)) = x, so the log-scale machinery must give those numbers back.
        val w = WelchRatio.of(group1.map { exp(it) }, group2.map { exp(it) })
        assertThat(w.nA).isEqualTo(10)
        assertThat(w.nB).isEqualTo(10)
        assertThat(w.meanLog).isCloseTo(-1.58, within(1e-12))
        assertThat(w.varianceA!!).isCloseTo(3.2005556, within(1e-7))
        assertThat(w.varianceB!!).isCloseTo(4.009, within(1e-9))
        assertThat(w.se!!).isCloseTo(0.8490910, within(1e-7))
        assertThat(w.df!!).isCloseTo(17.776474, within(1e-6))
        assertThat(w.statistic!!).isCloseTo(-1.860813, within(1e-6))
        assertThat(w.pValue!!).isCloseTo(0.07939, within(5e-6))
        val ci = w.interval(0.95)!!
        assertThat(ln(ci.low)).isCloseTo(-3.3654832, within(1e-7))
        assertThat(ln(ci.high)).isCloseTo(0.2054832, within(1e-7))
        assertThat(ci.excludesOne).isFalse()
        assertThat(w.ratio).isCloseTo(exp(-1.58), within(1e-12))
    }

    @Test
    fun `p-value agrees with Commons Statistics' own Welch test`() {
        val a = doubleArrayOf(5.02, 5.10, 4.97, 5.06)
        val b = doubleArrayOf(5.30, 5.21, 5.44, 5.18, 5.35, 5.27)
        val w = WelchRatio.of(a.map { exp(it) }, b.map { exp(it) })
        val reference = TTest.withDefaults().test(a, b) // unequal variances by default
        assertThat(w.pValue!!).isCloseTo(reference.pValue, within(1e-12))
        assertThat(w.statistic!!).isCloseTo(reference.statistic, within(1e-12))
        assertThat(w.df!!).isCloseTo(reference.degreesOfFreedom, within(1e-9))
    }

    @Test
    fun `TOST with two forks a side has a hand-computable answer`() {
        // nA = nB = 2 with equal variances: df = (2q)² / (2q²/1) = 2, and Student's t with 2 df
        // has P(T > t) = 1/2 − t / (2√(t² + 2)). Logs {−d, +d} on both sides: meanLog 0,
        // variances 2d², se = √(2d²/2 + 2d²/2) = d√2. With d = δ/√2 (δ = ln 1.05), se = δ and
        // both one-sided statistics are ±1: TOST p = 1/2 − 1/(2√3) = 0.2113249.
        val delta = ln(1.05)
        val d = delta / sqrt(2.0)
        val values = listOf(exp(-d), exp(d))
        val w = WelchRatio.of(values, values)
        assertThat(w.df!!).isCloseTo(2.0, within(1e-12))
        assertThat(w.se!!).isCloseTo(delta, within(1e-15))
        assertThat(w.tostPValue(0.05)!!).isCloseTo(0.5 - 1 / (2 * sqrt(3.0)), within(1e-12))
        assertThat(w.pValue!!).isEqualTo(1.0)
        // The 1 − 2p interval touches the equivalence bound exactly.
        val p = w.tostPValue(0.05)!!
        assertThat(ln(w.interval(1 - 2 * p)!!.high)).isCloseTo(delta, within(1e-12))
    }

    @Test
    fun `unusable values are dropped and counted, and below 2 a side there is no test`() {
        val w = WelchRatio.of(listOf(1.0, null, -3.0, 2.0), listOf(Double.NaN, 4.0))
        assertThat(w.nA).isEqualTo(2)
        assertThat(w.droppedA).isEqualTo(2)
        assertThat(w.nB).isEqualTo(1)
        assertThat(w.droppedB).isEqualTo(1)
        assertThat(w.testable).isFalse()
        assertThat(w.pValue).isNull()
        assertThat(w.interval()).isNull()
        assertThat(w.tostPValue(0.05)).isNull()
        assertThat(w.forksPerRunToDecide(0.05, 0.05, 0.05)).isNull()
        // ln(√2) − ln(4): the geometric mean of 1 and 2 against 4.
        assertThat(w.ratio).isCloseTo(sqrt(2.0) / 4, within(1e-12))
    }

    @Test
    fun `zero spread on both sides is exact`() {
        val same = WelchRatio.of(listOf(100.0, 100.0), listOf(100.0, 100.0, 100.0))
        assertThat(same.pValue).isEqualTo(1.0)
        assertThat(same.tostPValue(0.05)).isEqualTo(0.0)
        assertThat(same.df).isNull()
        val apart = WelchRatio.of(listOf(110.0, 110.0), listOf(100.0, 100.0))
        assertThat(apart.pValue).isEqualTo(0.0)
        assertThat(apart.tostPValue(0.05)).isEqualTo(1.0)
        assertThat(apart.interval()!!.low).isCloseTo(1.1, within(1e-12))
        assertThat(apart.interval()!!.high).isCloseTo(1.1, within(1e-12))
    }

    @Test
    fun `forks per run to decide grow with the noise and meet the test at that n`() {
        val a = listOf(100.0, 112.0, 95.0)
        val b = listOf(104.0, 118.0, 99.0)
        val w = WelchRatio.of(a, b)
        val n = w.forksPerRunToDecide(0.05, 0.05, 0.05)!!
        assertThat(n).isGreaterThan(3)
        // Half the noise needs fewer forks.
        val calmer = WelchRatio.of(a.map { 100 + (it - 100) / 2 }, b.map { 104 + (it - 104) / 2 })
        assertThat(calmer.forksPerRunToDecide(0.05, 0.05, 0.05)!!).isLessThanOrEqualTo(n)
    }
}
