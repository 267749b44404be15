package io.protobench.bench.verdict

import org.apache.commons.statistics.distribution.ChiSquaredDistribution
import org.apache.commons.statistics.distribution.NormalDistribution
import org.apache.commons.statistics.distribution.TDistribution
import kotlin.math.PI
import kotlin.math.abs
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * The power of the two-sided paired t test [Verdicts] runs on per-fork log ratios: the
 * chance that [n] forks whose log ratios scatter by [sd] around a true shift call the
 * difference at [level]. It is what tells an A/A check that came out clean from one that
 * could not have failed: a check whose power for a 10% bias is low says little.
 *
 * Computed exactly from the noncentral t: with λ = shift·√n/sd and c the two-sided
 * critical value at df = n − 1, power = E[Φ(λ − c·√(V/df)) + Φ(−λ − c·√(V/df))] over
 * V ~ χ²(df), the expectation taken by Simpson's rule over √V.
 */
object Power {
    private val normal = NormalDistribution.of(0.0, 1.0)
    private const val STEPS = 2_000

    /** The chance of calling a true log-ratio [shift] at two-sided [level] with [n] forks of spread [sd]. */
    fun pairedT(shift: Double, sd: Double, n: Int, level: Double): Double {
        require(n >= 2) { "a t test needs at least 2 forks, got $n" }
        require(sd > 0 && sd.isFinite()) { "the spread must be positive and finite, got $sd" }
        require(level > 0 && level < 1) { "the level must be in (0, 1), got $level" }
        val df = n - 1.0
        val lambda = abs(shift) * sqrt(n.toDouble()) / sd
        val critical = TDistribution.of(df).inverseSurvivalProbability(level / 2)
        val chi = ChiSquaredDistribution.of(df)
        val top = sqrt(chi.inverseSurvivalProbability(1e-12))
        val h = top / STEPS

        // Over S = √V, whose density 2s·f(s²) stays finite at 0 even for df = 1 (there √(2/π)).
        fun integrand(s: Double): Double {
            val density = if (s == 0.0) (if (df == 1.0) sqrt(2 / PI) else 0.0) else 2 * s * chi.density(s * s)
            val scaled = critical * s / sqrt(df)
            return density * (normal.cumulativeProbability(lambda - scaled) + normal.cumulativeProbability(-lambda - scaled))
        }
        val inner = (1 until STEPS).sumOf { i -> (if (i % 2 == 1) 4 else 2) * integrand(i * h) }
        return ((integrand(0.0) + inner + integrand(top)) * h / 3).coerceIn(0.0, 1.0)
    }

    /**
     * The smallest bias, as a percentage (ratio − 1)·100, that [n] forks of spread [sd]
     * call at [level] with probability [power]; null when even a doubling is not (a
     * check that weak says nothing).
     */
    fun detectablePercent(sd: Double, n: Int, level: Double, power: Double = 0.8): Double? {
        require(power > 0 && power < 1) { "the power must be in (0, 1), got $power" }
        var low = 0.0
        var high = ln(2.0)
        if (pairedT(high, sd, n, level) < power) return null
        repeat(50) {
            val mid = (low + high) / 2
            if (pairedT(mid, sd, n, level) < power) low = mid else high = mid
        }
        return (kotlin.math.exp(high) - 1) * 100
    }
}
