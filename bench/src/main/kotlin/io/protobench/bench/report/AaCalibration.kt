package io.protobench.bench.report

import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
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
 * could have caught is its power ([Sensitivity]) at the lab's measured noise ([LabNoise]),
 * a stable figure from 40 forks, rather than at the spread of this run's few forks, which
 * is given beside it as the rough measure it is.
 */
object AaCalibration {
    /** The systematic difference between identical arms the check is rated against. */
    const val BIAS_PERCENT = 10.0

    /** The power the smallest detectable bias is quoted at. */
    const val POWER = 0.8

    /**
     * What one A/A comparison could have caught with its forks if their log ratios scatter by
     * [sd]: the chance of calling a [BIAS_PERCENT] bias, and the bias it calls with probability
     * [POWER] (null when not even a doubling is). Rated at the first Holm step (α over the looks
     * and the family), the level a lone biased comparison must pass. [lab]: [sd] is the lab's
     * pooled noise, not this comparison's own spread.
     */
    data class Sensitivity(val powerForBias: Double, val detectablePercent: Double?, val sd: Double, val lab: Boolean)

    /** Null below 2 forks or without a positive spread: then nothing can be said of its power. */
    fun sensitivity(d: Decision, sd: Double, lab: Boolean): Sensitivity? {
        if (d.estimate.n < 2 || !(sd > 0 && sd.isFinite())) return null
        val level = d.lookAlpha / d.familySize
        return Sensitivity(
            Power.pairedT(ln(1 + BIAS_PERCENT / 100), sd, d.estimate.n, level),
            Power.detectablePercent(sd, d.estimate.n, level, POWER),
            sd,
            lab,
        )
    }

    /** At the comparison's own forks' spread: what its few forks say, noisily. */
    fun sensitivity(d: Decision): Sensitivity? = d.estimate.sdLog?.let { sensitivity(d, it, lab = false) }

    /**
     * At the lab's pooled noise for the comparison's figure and payload ([LabNoise]) where it is
     * measured, with this comparison's forks and Holm step; else at its own spread.
     */
    fun sensitivity(d: Decision, condition: String, kind: TrialKind): Sensitivity? =
        LabNoise.sd(condition, kind, d.figure)?.let { sensitivity(d, it, lab = true) } ?: sensitivity(d)

    /**
     * One A/A comparison's power under [condition] in trials of [kind], as a clause after its
     * verdict, saying which noise it is rated at; empty when unknown.
     */
    fun clause(d: Decision, condition: String, kind: TrialKind, t: Texts = Texts.EN): String {
        val s = sensitivity(d, condition, kind) ?: return ""
        val detectable = s.detectablePercent?.let { Numbers.percentText(it / 100) }
        val key = (if (s.lab) "aa.power" else "aa.power.own") + if (detectable == null) ".weak" else ""
        // {5}, the comparison's own spread beside the lab's: what these forks measured, for what it is worth.
        return t(
            key,
            Numbers.percentText(BIAS_PERCENT / 100),
            Numbers.percentText(s.powerForBias),
            detectable,
            Numbers.percentText(POWER),
            Numbers.number(s.sd),
            Numbers.number(d.estimate.sdLog),
            d.estimate.n,
        )
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
    data class Tally(
        val blocks: Int,
        val checks: Int,
        val failed: Int,
        val interval: Pair<Double, Double>,
        val pValues: Int,
        val belowFive: Int,
        val belowTen: Int,
    )

    /** Null unless [record] has at least two blocks of complete forks with A/A comparisons. */
    fun tally(record: RunRecord): Tally? {
        val complete = record.forks.filter { it.status == ForkStatus.COMPLETE }.sortedBy { it.index }
        val blocks = complete.chunked(BLOCK_FORKS).filter { it.size == BLOCK_FORKS }
        if (blocks.size < 2) return null
        val design = record.scenario.let { s ->
            s.copy(forks = BLOCK_FORKS, maxForks = BLOCK_FORKS, conditions = s.conditions.map { it.copy(forks = null) })
        }
        val checks = blocks.flatMap { forks ->
            Analysis.of(record.copy(scenario = design, forks = forks)).flatMap { a -> a.families.map { it.aaDecisions } }
        }.filter { it.isNotEmpty() }
        if (checks.isEmpty()) return null
        val failed = checks.count { family -> family.any { it.isBetter } }
        val pValues = checks.flatten().mapNotNull { it.estimate.pValue }
        return Tally(
            blocks.size,
            checks.size,
            failed,
            clopperPearson(failed, checks.size),
            pValues.size,
            pValues.count { it < 0.05 },
            pValues.count { it < 0.10 },
        )
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
        return t(
            "aa.tally", y.blocks, BLOCK_FORKS, y.failed, y.checks, Numbers.percentText(y.failed.toDouble() / y.checks),
            Numbers.percentText(y.interval.first), Numbers.percentText(y.interval.second),
            y.belowFive, y.pValues, Numbers.percentText(y.belowFive.toDouble() / y.pValues),
            y.belowTen, Numbers.percentText(y.belowTen.toDouble() / y.pValues),
        )
    }

    /**
     * The run's A/A comparisons in one sentence: how many came out "better", and the range of
     * their power for a [BIAS_PERCENT] bias at the lab's noise, over the comparisons where it
     * is measured; at their own spread, said so, where it is measured for none.
     */
    fun sentence(analyses: List<ConditionAnalysis>, t: Texts = Texts.EN): String? {
        val aa = analyses.flatMap { a -> a.families.flatMap { f -> f.aaDecisions.map { Triple(a.condition, f.kind, it) } } }
        if (aa.isEmpty()) return null
        val decisions = aa.map { it.third }
        val wrong = decisions.count { it.isBetter }
        val counts = t(
            "aa.sentence",
            wrong,
            aa.size,
            Numbers.percentText(wrong.toDouble() / aa.size),
            decisions.count { it.outcome is Outcome.Equivalent },
            decisions.count { it.outcome is Outcome.Inconclusive },
        )
        val rated = aa.mapNotNull { (condition, kind, d) -> sensitivity(d, condition, kind) }
        val atLab = rated.filter { it.lab }
        val shown = atLab.ifEmpty { rated }.map { it.powerForBias }
        if (shown.isEmpty()) return counts
        val key = when {
            atLab.isEmpty() -> "aa.sentence.power.own"
            atLab.size < rated.size -> "aa.sentence.power.some"
            else -> "aa.sentence.power"
        }
        return counts + " " + t(
            key,
            Numbers.percentText(decisions.first().alpha),
            Numbers.percentText(BIAS_PERCENT / 100),
            Numbers.percentText(shown.min()),
            Numbers.percentText(shown.max()),
            atLab.size,
            rated.size,
        )
    }
}
