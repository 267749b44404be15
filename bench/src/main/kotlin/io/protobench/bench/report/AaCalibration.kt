package io.protobench.bench.report

import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.Power
import org.apache.commons.statistics.distribution.BetaDistribution
import kotlin.math.ln

/**
 * The A/A check over a whole run: every comparison of a protocol with an identical copy
 * of itself, analysed like any pair in a Holm family of its own per condition. A
 * well-calibrated lab calls none of them "better" but by chance, at most α of the time
 * per condition; the share it does is its observed false-positive rate. What the check
 * could have caught is its power at the spread of this run's forks ([Sensitivity]).
 */
object AaCalibration {
    /** The systematic difference between identical arms the check is rated against. */
    const val BIAS_PERCENT = 10.0

    /** The power the smallest detectable bias is quoted at. */
    const val POWER = 0.8

    /**
     * What one A/A comparison could have caught, at its own forks' spread: the chance of
     * calling a [BIAS_PERCENT] bias, and the bias it calls with probability [POWER] (null
     * when not even a doubling is). Rated at the first Holm step (α over the looks and the
     * family), the level a lone biased comparison must pass.
     */
    data class Sensitivity(val powerForBias: Double, val detectablePercent: Double?)

    /** Null below 2 forks or with no spread: then nothing can be said of its power. */
    fun sensitivity(d: Decision): Sensitivity? {
        val sd = d.estimate.sdLog?.takeIf { it > 0 && it.isFinite() } ?: return null
        val level = d.lookAlpha / d.familySize
        return Sensitivity(
            Power.pairedT(ln(1 + BIAS_PERCENT / 100), sd, d.estimate.n, level),
            Power.detectablePercent(sd, d.estimate.n, level, POWER),
        )
    }

    /** One A/A comparison's power, as a clause after its verdict; empty when unknown. */
    fun clause(d: Decision, t: Texts = Texts.EN): String {
        val s = sensitivity(d) ?: return ""
        val bias = Numbers.percentText(BIAS_PERCENT / 100)
        val power = Numbers.percentText(s.powerForBias)
        val detectable = s.detectablePercent ?: return t("aa.power.weak", bias, power, Numbers.percentText(POWER))
        return t("aa.power", bias, power, Numbers.percentText(detectable / 100), Numbers.percentText(POWER))
    }

    /** Forks per block of a long A/A run: the main job's forks, so each block is one quick's check. */
    const val BLOCK_FORKS = 5

    /**
     * The A/A check repeated: a long run's complete forks cut into consecutive blocks of
     * [BLOCK_FORKS], each block decided on its own as the main job would decide it. Over
     * [checks] condition checks (a condition's A/A family in one block) [failed] called a
     * difference; [interval] is the exact (Clopper–Pearson) 95% interval of that rate, to
     * hold against the 5% a calibrated lab cannot exceed. The raw p-values of the A/A
     * comparisons should be uniform: [belowFive] and [belowTen] of [pValues] fell below
     * 0.05 and 0.10.
     */
    data class Tally(val blocks: Int, val checks: Int, val failed: Int, val interval: Pair<Double, Double>,
                     val pValues: Int, val belowFive: Int, val belowTen: Int)

    /** Null unless [record] has at least two blocks of complete forks with A/A comparisons. */
    fun tally(record: RunRecord): Tally? {
        val complete = record.forks.filter { it.status == ForkStatus.COMPLETE }.sortedBy { it.index }
        val blocks = complete.chunked(BLOCK_FORKS).filter { it.size == BLOCK_FORKS }
        if (blocks.size < 2) return null
        val design = record.scenario.copy(forks = BLOCK_FORKS, maxForks = BLOCK_FORKS)
        val checks = blocks.flatMap { forks ->
            Analysis.of(record.copy(scenario = design, forks = forks)).flatMap { a -> a.families.map { it.aaDecisions } }
        }.filter { it.isNotEmpty() }
        if (checks.isEmpty()) return null
        val failed = checks.count { family -> family.any { it.isBetter } }
        val pValues = checks.flatten().mapNotNull { it.estimate.pValue }
        return Tally(blocks.size, checks.size, failed, clopperPearson(failed, checks.size),
            pValues.size, pValues.count { it < 0.05 }, pValues.count { it < 0.10 })
    }

    /** The exact two-sided 95% interval of a binomial rate, [k] of [n]. */
    internal fun clopperPearson(k: Int, n: Int): Pair<Double, Double> {
        require(n > 0 && k in 0..n) { "need 0 <= k <= n and n > 0, got $k of $n" }
        val low = if (k == 0) 0.0 else BetaDistribution.of(k.toDouble(), (n - k + 1).toDouble()).inverseCumulativeProbability(0.025)
        val high = if (k == n) 1.0 else BetaDistribution.of((k + 1).toDouble(), (n - k).toDouble()).inverseCumulativeProbability(0.975)
        return low to high
    }

    /** The [tally] of [record] as a sentence; null when the run is too short for one. */
    fun tallySentence(record: RunRecord, t: Texts = Texts.EN): String? {
        val y = tally(record) ?: return null
        return t("aa.tally", y.blocks, BLOCK_FORKS, y.failed, y.checks, Numbers.percentText(y.failed.toDouble() / y.checks),
            Numbers.percentText(y.interval.first), Numbers.percentText(y.interval.second),
            y.belowFive, y.pValues, Numbers.percentText(y.belowFive.toDouble() / y.pValues),
            y.belowTen, Numbers.percentText(y.belowTen.toDouble() / y.pValues))
    }

    fun sentence(analyses: List<ConditionAnalysis>, t: Texts = Texts.EN): String? {
        val aa = analyses.flatMap { a -> a.families.flatMap { it.aaDecisions } }
        if (aa.isEmpty()) return null
        val wrong = aa.count { it.isBetter }
        val counts = t("aa.sentence", wrong, aa.size, Numbers.percentText(wrong.toDouble() / aa.size),
            aa.count { it.outcome is Outcome.Equivalent }, aa.count { it.outcome is Outcome.Inconclusive })
        val powers = aa.mapNotNull(::sensitivity).map { it.powerForBias }
        if (powers.isEmpty()) return counts
        return counts + " " + t("aa.sentence.power", Numbers.percentText(aa.first().alpha), Numbers.percentText(BIAS_PERCENT / 100),
            Numbers.percentText(powers.min()), Numbers.percentText(powers.max()))
    }
}
