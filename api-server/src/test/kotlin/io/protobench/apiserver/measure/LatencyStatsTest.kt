package io.protobench.apiserver.measure

import io.protobench.contract.window.LatencyStats
import org.HdrHistogram.Histogram
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.assertj.core.data.Percentage.withPercentage
import org.junit.jupiter.api.Test

class LatencyStatsTest {

    private fun histogramOf(values: Iterable<Long>) = Histogram(3).apply { values.forEach(::recordValue) }

    @Test
    fun `1 to 1000 microseconds give the textbook percentiles in milliseconds`() {
        val stats = histogramOf(1L..1000L).toLatencyStats()

        assertThat(stats.minMs).isEqualTo(0.001)
        assertThat(stats.maxMs).isEqualTo(1.0)
        assertThat(stats.avgMs).isCloseTo(0.5005, within(1e-9))
        assertThat(stats.p50Ms).isEqualTo(0.5)
        assertThat(stats.p90Ms).isEqualTo(0.9)
        assertThat(stats.p95Ms).isEqualTo(0.95)
        assertThat(stats.p99Ms).isEqualTo(0.99)
        assertThat(stats.p999Ms).isEqualTo(0.999)
    }

    @Test
    fun `a slow tail shows in p99 and max but not in p50`() {
        val values = List(990) { 2_000L } + List(10) { 250_000L }

        val stats = histogramOf(values).toLatencyStats()

        assertThat(stats.p50Ms).isEqualTo(2.0)
        assertThat(stats.p99Ms).isEqualTo(2.0)
        assertThat(stats.p999Ms).isCloseTo(250.0, withPercentage(0.1))
        assertThat(stats.maxMs).isCloseTo(250.0, withPercentage(0.1))
        assertThat(stats.avgMs).isCloseTo((990 * 2.0 + 10 * 250.0) / 1000, withPercentage(0.1))
    }

    @Test
    fun `large values stay within three significant digits`() {
        val stats = histogramOf(listOf(12_345_678L)).toLatencyStats()

        assertThat(stats.p50Ms).isCloseTo(12_345.678, withPercentage(0.1))
        assertThat(stats.minMs).isCloseTo(12_345.678, withPercentage(0.1))
    }

    @Test
    fun `an empty histogram gives zeros`() {
        assertThat(Histogram(3).toLatencyStats()).isEqualTo(LatencyStats.EMPTY)
    }
}
