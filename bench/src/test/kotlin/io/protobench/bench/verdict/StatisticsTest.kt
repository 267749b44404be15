package io.protobench.bench.verdict

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
    fun `rates get a geometric mean and an interval on the log scale that stays positive`() {
        // logs: ln 1000 ± ln 10, s = ln 10: half-width = t(0.975, 2) * ln 10 / sqrt(3) = 5.719938
        val rates = listOf(100.0, 1000.0, 10000.0)
        assertThat(Estimate.of(rates)!!.ciLow!!).isNegative()
        val e = Estimate.ofRates(rates)!!
        assertThat(e.mean).isCloseTo(1000.0, within(1e-9))
        assertThat(e.median).isEqualTo(1000.0)
        assertThat(e.ciLow!!).isCloseTo(1000 * Math.exp(-5.719938), within(1e-4))
        assertThat(e.ciHigh!!).isCloseTo(1000 * Math.exp(5.719938), within(1.0))
        assertThat(Estimate.ofRates(listOf(5.0, 0.0))).isNull()
    }

    @Test
    fun `an estimate's interval is at least as wide as the figure's rounding allows`() {
        val equal = Estimate.of(listOf(807.5, 807.5))!!
        assertThat(equal.ciHigh!! - equal.ciLow!!).isEqualTo(0.0)
        // sd floor 18 µs over 2 values: half-width t(0.975, 1) * 18 / sqrt(2) = 12.706205 * 12.727922
        val floored = Estimate.of(listOf(807.5, 807.5), sdFloor = 18.0)!!
        assertThat(floored.standardDeviation).isEqualTo(18.0)
        assertThat(floored.ciHigh!! - 807.5).isCloseTo(161.72, within(0.01))
        assertThat(Estimate.of(listOf(14.0, 10.0, 12.0), sdFloor = 1.0)!!.standardDeviation).isEqualTo(2.0)
    }
}
