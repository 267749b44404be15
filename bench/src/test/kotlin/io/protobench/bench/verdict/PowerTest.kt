package io.protobench.bench.verdict

import org.apache.commons.statistics.distribution.TDistribution
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import java.util.SplittableRandom
import kotlin.math.abs
import kotlin.math.cos
import kotlin.math.ln
import kotlin.math.sqrt

class PowerTest {
    @Test
    fun `with no shift the power is the level itself`() {
        for (n in listOf(2, 3, 5, 12)) {
            assertThat(Power.pairedT(0.0, 0.05, n, 0.05)).isCloseTo(0.05, within(1e-4))
            assertThat(Power.pairedT(0.0, 0.05, n, 0.0125)).isCloseTo(0.0125, within(1e-4))
        }
    }

    @Test
    fun `the power agrees with t tests simulated on normal log ratios`() {
        val random = SplittableRandom(7L)
        for ((n, sd, level) in listOf(Triple(5, 0.05, 0.025), Triple(5, 0.08, 0.05), Triple(3, 0.03, 0.05), Triple(10, 0.1, 0.01))) {
            val shift = ln(1.10)
            val critical = TDistribution.of(n - 1.0).inverseSurvivalProbability(level / 2)
            val draws = 40_000
            val called = (1..draws).count {
                val x = DoubleArray(n) { shift + sd * random.gaussian() }
                val mean = x.average()
                val s = sqrt(x.sumOf { (it - mean) * (it - mean) } / (n - 1))
                abs(mean) / (s / sqrt(n.toDouble())) > critical
            }
            // 40,000 draws: a standard error of at most 0.0025.
            assertThat(Power.pairedT(shift, sd, n, level)).`as`("n=$n sd=$sd level=$level")
                .isCloseTo(called.toDouble() / draws, within(0.01))
        }
    }

    @Test
    fun `the detectable bias is the one called with the asked probability, larger for a wider spread`() {
        val narrow = Power.detectablePercent(0.04, 5, 0.025)!!
        val wide = Power.detectablePercent(0.08, 5, 0.025)!!
        assertThat(Power.pairedT(ln(1 + narrow / 100), 0.04, 5, 0.025)).isCloseTo(0.8, within(1e-6))
        assertThat(wide).isGreaterThan(narrow * 1.9)
        assertThat(Power.detectablePercent(0.04, 10, 0.025)!!).isLessThan(narrow)
        assertThat(Power.detectablePercent(0.9, 3, 0.001)).`as`("a spread that not even a doubling overcomes").isNull()
    }

    private fun SplittableRandom.gaussian(): Double {
        var u: Double
        do {
            u = nextDouble()
        } while (u == 0.0)
        return sqrt(-2 * ln(u)) * cos(2 * Math.PI * nextDouble())
    }
}
