package io.protobench.bench

import io.protobench.bench.stats.Comparison
import io.protobench.bench.stats.Estimate
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class StatisticsTest {
    @Test
    fun `estimate gives median and a t interval of the mean`() {
        // mean 12, s = 2, n = 3: half-width = t(0.975, 2) * 2 / sqrt(3) = 4.302653 * 1.154701 = 4.968275
        val e = Estimate.of(listOf(14.0, 10.0, 12.0))!!
        assertThat(e.median).isEqualTo(12.0)
        assertThat(e.mean).isEqualTo(12.0)
        assertThat(e.standardDeviation!!).isCloseTo(2.0, within(1e-12))
        assertThat(e.ciLow!!).isCloseTo(12 - 4.968275, within(1e-5))
        assertThat(e.ciHigh!!).isCloseTo(12 + 4.968275, within(1e-5))
    }

    @Test
    fun `one trial has a median but no interval, and no values give nothing`() {
        val e = Estimate.of(listOf(5.0))!!
        assertThat(e.median).isEqualTo(5.0)
        assertThat(e.ciLow).isNull()
        assertThat(Estimate.of(emptyList())).isNull()
    }

    @Test
    fun `a clear difference is significant with a Welch interval`() {
        // diff 10 over mean 102; se = sqrt(4/3 + 4/3) = 1.632993, df = 4, t = 2.776445
        val c = Comparison.of("A", listOf(110.0, 112.0, 114.0), "B", listOf(100.0, 102.0, 104.0))!!
        assertThat(c.differencePercent).isCloseTo(10 / 102.0 * 100, within(1e-9))
        val half = 2.776445 * 1.632993 / 102 * 100
        assertThat(c.ciLowPercent!!).isCloseTo(c.differencePercent - half, within(1e-4))
        assertThat(c.ciHighPercent!!).isCloseTo(c.differencePercent + half, within(1e-4))
        assertThat(c.pValue!!).isLessThan(0.05)
        assertThat(c.significant).isTrue()
    }

    @Test
    fun `overlapping noisy trials are no significant difference`() {
        val c = Comparison.of("A", listOf(100.0, 110.0, 90.0), "B", listOf(101.0, 95.0, 105.0))!!
        assertThat(c.ciLowPercent!!).isNegative()
        assertThat(c.ciHighPercent!!).isPositive()
        assertThat(c.significant).isFalse()
    }

    @Test
    fun `a difference below the noise floor is never called a win`() {
        val c = Comparison.of("A", listOf(110.0, 112.0, 114.0), "B", listOf(100.0, 102.0, 104.0), noiseFloorPercent = 15.0)!!
        assertThat(c.significant).isFalse()
    }

    @Test
    fun `a single trial per side gives a difference but no verdict`() {
        val c = Comparison.of("A", listOf(120.0), "B", listOf(100.0))!!
        assertThat(c.differencePercent).isCloseTo(20.0, within(1e-9))
        assertThat(c.significant).isFalse()
        assertThat(c.undecidedReason).contains("fewer than 2 trials")
    }
}
