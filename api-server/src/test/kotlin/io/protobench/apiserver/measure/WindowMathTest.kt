package io.protobench.apiserver.measure

import io.protobench.contract.window.DataTransfer
import org.HdrHistogram.Histogram
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds

class WindowMathTest {

    @Test
    fun `throughput is requests per second of window`() {
        assertThat(WindowMath.throughputRps(300, 60.seconds)).isEqualTo(5.0)
        assertThat(WindowMath.throughputRps(3, 1_500.milliseconds)).isEqualTo(2.0)
    }

    @Test
    fun `an empty or zero-length window has zero throughput`() {
        assertThat(WindowMath.throughputRps(0, 10.seconds)).isZero()
        assertThat(WindowMath.throughputRps(5, Duration.ZERO)).isZero()
    }

    @Test
    fun `average response bytes divide by successful requests`() {
        val counts = WindowCounts(
            successes = 4,
            failuresByKind = mapOf("data-server timeout" to 6L),
            responseBytes = 1_000,
            latencyMicros = Histogram(3),
        )

        assertThat(WindowMath.dataTransfer(counts)).isEqualTo(DataTransfer(1_000, 250.0))
        assertThat(WindowMath.dataTransfer(counts.copy(successes = 0, responseBytes = 0)).avgResponseBytes).isZero()
    }
}
