package io.protobench.bench.measure

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.Steadiness
import io.protobench.bench.measure.TrialFigures
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** Steady-state and open-model detectors on fixed data. */
class DetectorsTest {
    @Test
    fun `a flat timeline is steady, ignoring the ragged first and last second`() {
        val s = Steadiness.of(listOf(120, 1000, 1010, 990, 1005, 995, 1000, 300))
        assertThat(s.steady).isTrue()
        assertThat(s.seconds).isEqualTo(6)
    }

    @Test
    fun `a climbing timeline is not steady because it drifts`() {
        val s = Steadiness.of(listOf(100, 500, 600, 700, 800, 900, 1000, 1100, 50))
        assertThat(s.steady).isFalse()
        assertThat(s.drift!!).isGreaterThan(0.10)
        assertThat(s.describe()).contains("drifted +")
    }

    @Test
    fun `a jumpy timeline is not steady because it varies`() {
        assertThat(Steadiness.of(listOf(0, 1000, 400, 1000, 400, 1000, 400, 0)).steady).isFalse()
    }

    @Test
    fun `too short a timeline gets no verdict`() {
        assertThat(Steadiness.of(listOf(10, 1000, 1000, 10)).steady).isNull()
    }

    @Test
    fun `an open-model trial that fell short of its rate is flagged with what it achieved`() {
        val figures = Figures.of(Figure.THROUGHPUT to 812.0, Figure.DROPPED_ITERATIONS to 1880.0)
        val withShare = figures + TrialFigures.rateShare(figures, 1000)
        assertThat(withShare[Figure.TARGET_RATE_SHARE]).isEqualTo(0.812)
        assertThat(TrialFigures.rateFlags(withShare, 1000)).containsExactly(Flag.RateNotHeld(812.0, 1000, 1880.0))
        assertThat(TrialFigures.rateFlags(withShare, 1000).single().describe())
            .isEqualTo("achieved 812/s of 1000/s, 1880 iterations dropped")
    }

    @Test
    fun `an open-model trial that held its rate, and any closed trial, is not flagged`() {
        val held = Figures.of(Figure.THROUGHPUT to 998.0, Figure.DROPPED_ITERATIONS to 0.0)
        assertThat(TrialFigures.rateFlags(held + TrialFigures.rateShare(held, 1000), 1000)).isEmpty()
        assertThat(TrialFigures.rateShare(held, null)).isEqualTo(Figures.NONE)
    }

    @Test
    fun `dropped iterations alone are enough to flag`() {
        val f = Figures.of(Figure.THROUGHPUT to 1000.0, Figure.DROPPED_ITERATIONS to 3.0)
        assertThat(TrialFigures.rateFlags(f + TrialFigures.rateShare(f, 1000), 1000)).hasSize(1)
    }

    @Test
    fun `a trial whose JIT compilers took a tenth of the servers' CPU or more is flagged with their share`() {
        fun figures(apiJit: Double, dataJit: Double?) = Figures.of(
            Figure.API_CPU_US to 400.0,
            Figure.DATA_CPU_US to 200.0,
            Figure.API_JIT_CPU_US to apiJit,
            Figure.DATA_JIT_CPU_US to dataJit,
        )
        val flag = Flag.JitActive.of(figures(apiJit = 45.0, dataJit = 15.0))!!
        assertThat(flag.compilerShare).isEqualTo(0.10)
        assertThat(flag.describe()).contains("10%")
        assertThat(Flag.JitActive.of(figures(apiJit = 40.0, dataJit = 15.0))).isNull()
        // Without /proc's per-thread figures there is nothing to judge.
        assertThat(Flag.JitActive.of(Figures.of(Figure.API_CPU_US to 400.0))).isNull()
    }
}
