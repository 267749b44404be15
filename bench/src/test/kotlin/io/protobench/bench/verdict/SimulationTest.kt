package io.protobench.bench.verdict

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.util.SplittableRandom
import kotlin.math.exp
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * Synthetic conditions with known truth, fixed seeds.
 *
 * A condition has 4 protocol arms P1..P4 plus an A/A arm P1' (the same protocol as P1,
 * measured separately), 2 figures (throughput, higher is better; CPU per request, lower
 * is better). Comparisons: the 6 pairs among P1..P4 plus P1 vs P1', per figure → 14, decided
 * as one family. In each fork every arm is measured once:
 *
 *     value = base · effect(arm, figure) · forkEffect(fork, figure) · trialNoise(fork, arm, figure)
 *
 * forkEffect is shared by all arms of the fork (fresh JVM pair; CV 5%), trialNoise is
 * independent per measurement (CV 3%); both lognormal with mean 1.
 */
class SimulationTest {
    private val arms = listOf("P1", "P2", "P3", "P4", "P1'")
    private val pairs = listOf(0 to 1, 0 to 2, 0 to 3, 1 to 2, 1 to 3, 2 to 3, 0 to 4)
    private val figures = listOf("throughput" to true, "cpuPerRequest" to false)

    private fun sigma(cv: Double) = sqrt(ln(1 + cv * cv))

    /**
     * One condition's family. [effect] gives the true multiplicative effect of an arm on a figure
     * (1.0 = identical to everyone else).
     */
    private fun condition(
        random: SplittableRandom,
        forks: Int,
        effect: (arm: Int, figure: Int) -> Double = { _, _ -> 1.0 },
        forkCv: Double = 0.05,
        trialCv: Double = 0.03,
    ): List<ComparisonInput> {
        val sf = sigma(forkCv)
        val st = sigma(trialCv)
        // values[figure][arm][fork]
        val values = Array(figures.size) { Array(arms.size) { DoubleArray(forks) } }
        for (f in 0 until forks) {
            for (g in figures.indices) {
                val forkEffect = exp(sf * random.nextGaussian() - sf * sf / 2)
                val base = if (g == 0) 5000.0 else 0.0004
                for (a in arms.indices) {
                    val noise = exp(st * random.nextGaussian() - st * st / 2)
                    values[g][a][f] = base * effect(a, g) * forkEffect * noise
                }
            }
        }
        return figures.flatMapIndexed { g, (figure, higherIsBetter) ->
            pairs.map { (i, j) ->
                ComparisonInput(arms[i], arms[j], figure, higherIsBetter,
                    PairedRatio.of(values[g][i].toList(), values[g][j].toList()))
            }
        }
    }

    private fun SplittableRandom.nextGaussian(): Double {
        // Box–Muller; SplittableRandom has no nextGaussian on Java 17.
        var u: Double
        do { u = nextDouble() } while (u == 0.0)
        return sqrt(-2 * ln(u)) * kotlin.math.cos(2 * Math.PI * nextDouble())
    }

    private fun pct(x: Double) = String.format(java.util.Locale.ROOT, "%.1f%%", x * 100)

    @Test
    fun `A-A conditions - family-wise and per-comparison false positive rates stay at or below 5 percent`() {
        val random = SplittableRandom(20240611L)
        val families = (1..1000).map { Verdicts.decide(condition(random, forks = 5)) }
        val all = families.flatten()
        val familyWise = Verdicts.familyWiseFalsePositiveRate(families)
        val perComparison = Verdicts.falsePositiveRate(all)
        val aaOnly = Verdicts.falsePositiveRate(all.filter { it.b == "P1'" })
        val equivalent = all.count { it.outcome == Outcome.Equivalent }.toDouble() / all.size
        println("A/A, 1000 conditions × 14 comparisons, 5 forks: any 'better' in a condition ${pct(familyWise)}, " +
            "per comparison ${pct(perComparison)}, P1 vs P1' ${pct(aaOnly)}, 'equivalent' ${pct(equivalent)}")
        assertThat(familyWise).isLessThanOrEqualTo(0.05)
        assertThat(perComparison).isLessThanOrEqualTo(0.05)
    }

    /**
     * The A/A check as the report decides it: P1 against its copy P1' in a Holm family of
     * their own (the two figures), apart from the 12 protocol comparisons. With no bias it
     * fails by chance in at most 5% of conditions; with P1' 10% dearer in CPU it fails about
     * as often as [Power] says for that spread — and far more often than inside the protocol
     * family of 14, where its first step needs p below α/14.
     */
    @Test
    fun `A-A check in a family of its own - fails about 5 percent by chance, and catches a 10 percent bias as Power says`() {
        fun split(family: List<ComparisonInput>) = family.partition { it.b == "P1'" }
        val calibrated = SplittableRandom(20261129L)
        val clean = (1..4000).map { Verdicts.decide(split(condition(calibrated, forks = 5)).first) }
        val biased = SplittableRandom(20261130L)
        val bias = { arm: Int, figure: Int -> if (arm == 4 && figure == 1) 1.10 else 1.0 }
        val conditions = (1..1000).map { condition(biased, forks = 5, effect = bias) }
        val own = conditions.map { Verdicts.decide(split(it).first) }
        val shared = conditions.map { Verdicts.decide(it).filter { d -> d.b == "P1'" } }
        val caught = { families: List<List<Decision>> -> families.count { f -> f.any { it.isBetter } }.toDouble() / families.size }
        // P1 and P1' share the fork effect: their log ratio scatters by the trial noise of two measurements.
        val sd = sqrt(2.0) * sigma(0.03)
        val lone = Power.pairedT(ln(1.10), sd, 5, Verdicts.ALPHA / 2)
        println("A/A family of its own: clean conditions failed ${pct(caught(clean))}; a 10% bias caught ${pct(caught(own))} " +
            "(Power at the first Holm step ${pct(lone)}); inside the family of 14 ${pct(caught(shared))}")
        // Holm over two independent tests fails 4.9% of clean conditions; 4,000 of them put 6% three standard errors above
        // (a check at α per comparison, with no family, would fail 9.75%).
        assertThat(caught(clean)).isLessThanOrEqualTo(0.06)
        assertThat(caught(own)).isBetween(lone - 0.04, Power.pairedT(ln(1.10), sd, 5, Verdicts.ALPHA) + 0.04)
        assertThat(caught(shared)).isLessThan(caught(own) - 0.2)
    }

    /** Median of forksToDecide over inconclusive decisions that have one; "-" when none. */
    private fun medianForksToDecide(decisions: List<Decision>): String {
        val needs = decisions.mapNotNull { (it.outcome as? Outcome.Inconclusive)?.forksToDecide }.sorted()
        val beyond = decisions.count { (it.outcome as? Outcome.Inconclusive)?.let { o -> o.forksToDecide == null } == true }
        return (if (needs.isEmpty()) "-" else needs[needs.size / 2].toString()) + " (more than 100: $beyond)"
    }

    /**
     * P2's throughput is 10% higher than every other arm's; everything else identical.
     * The brief asked for "better" in most conditions at 5 forks. With this noise, a family
     * of 14 and df = 4 it is not: the rate is printed, not asserted, at 5 forks; the majority
     * is asserted at 6 forks. The method is not tuned to pass.
     */
    @Test
    fun `true 10 percent effect - called better, never the wrong way`() {
        for (forks in listOf(5, 6)) {
            val random = SplittableRandom(7L + forks)
            val families = (1..1000).map {
                Verdicts.decide(condition(random, forks, effect = { a, g -> if (a == 1 && g == 0) 1.10 else 1.0 }))
            }
            val isAffected = { d: Decision -> d.figure == "throughput" && (d.a == "P2" || d.b == "P2") }
            val affected = families.flatten().filter(isAffected)
            val correct = affected.count { (it.outcome as? Outcome.Better)?.winner == "P2" }.toDouble() / affected.size
            val wrongWay = affected.count { (it.outcome as? Outcome.Better)?.let { o -> o.winner != "P2" } == true }
            val nullFamilyWise = Verdicts.familyWiseFalsePositiveRate(families.map { f -> f.filterNot(isAffected) })
            println("10% effect, $forks forks, family of 14: P2 called better in ${pct(correct)} of its " +
                "${affected.size} comparisons ($wrongWay the wrong way); median forks-to-decide of the rest " +
                "${medianForksToDecide(affected)}; false 'better' among the 11 true nulls, family-wise ${pct(nullFamilyWise)}")
            assertThat(wrongWay).isZero()
            assertThat(nullFamilyWise).isLessThanOrEqualTo(0.05)
            if (forks == 6) assertThat(correct).isGreaterThan(0.5)
        }
    }

    /**
     * P2 is 1% higher on both figures (better throughput, worse CPU); everything else identical.
     * The brief asked for "equivalent within ±5%" in most conditions at 5 forks. With this noise
     * that is out of reach for any level-5% TOST, even for one comparison alone (printed below);
     * the majority is asserted at 15 forks.
     */
    @Test
    fun `true 1 percent effect - equivalent within 5 percent once there are enough forks`() {
        for (forks in listOf(5, 10, 15)) {
            val random = SplittableRandom(11L + forks)
            val families = (1..1000).map {
                Verdicts.decide(condition(random, forks, effect = { a, _ -> if (a == 1) 1.01 else 1.0 }))
            }
            val affected = families.flatten().filter { it.a == "P2" || it.b == "P2" }
            val equivalent = affected.count { it.outcome == Outcome.Equivalent }.toDouble() / affected.size
            val better = affected.count { it.isBetter }.toDouble() / affected.size
            // The same 1% comparisons decided alone (family of 1): no multiplicity at all.
            val alone = affected.count {
                Verdicts.decide(listOf(ComparisonInput(it.a, it.b, it.figure, it.higherIsBetter, it.estimate)))
                    .single().outcome == Outcome.Equivalent
            }.toDouble() / affected.size
            println("1% effect, $forks forks, family of 14: 'equivalent within ±5%' in ${pct(equivalent)} of its " +
                "${affected.size} comparisons, 'better' in ${pct(better)}; median forks-to-decide of the rest " +
                "${medianForksToDecide(affected)}; decided alone (no Holm) equivalent in ${pct(alone)}")
            if (forks == 15) assertThat(equivalent).isGreaterThan(0.5)
        }
    }
}
