package io.protobench.bench.design

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class FixedRatesTest {
    private val ceiling = FixedRates.ceiling(0.5)

    @Test
    fun `the ceiling sits the probe's spread above the utilisation`() {
        assertThat(ceiling).isEqualTo(0.65, org.assertj.core.data.Offset.offset(1e-9))
    }

    @Test
    fun `a fixed rate within the ceiling is kept as the scenario fixes it`() {
        // quick's rates on the machine they were chosen on: 34-49% of the slowest capacity.
        assertThat(FixedRates.onMachine(1500, 4000.0, ceiling)).isEqualTo(1500)
        assertThat(FixedRates.onMachine(140, 286.0, ceiling)).isEqualTo(140)
        assertThat(FixedRates.onMachine(1500, 1500 / 0.65, ceiling)).isEqualTo(1500) // exactly at the ceiling
    }

    @Test
    fun `a fixed rate above the ceiling is halved until it is not`() {
        // The slower VM of 2026-11-28: 1,571/s at 1 KB and 135.9/s at 1 MB.
        assertThat(FixedRates.onMachine(1500, 1571.0, ceiling)).isEqualTo(750)
        assertThat(FixedRates.onMachine(140, 135.9, ceiling)).isEqualTo(70)
        assertThat(FixedRates.onMachine(1500, 500.0, ceiling)).isEqualTo(187)
    }

    @Test
    fun `a machine too slow for any halving still gets one request per second`() {
        assertThat(FixedRates.onMachine(140, 0.5, ceiling)).isEqualTo(1)
    }
}
