package io.protobench.bench.report

import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.Power
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
        return t("aa.power", Numbers.percentText(BIAS_PERCENT / 100), Numbers.percentText(s.powerForBias),
            s.detectablePercent?.let { Numbers.percentText(it / 100) } ?: t("aa.power.none"), Numbers.percentText(POWER))
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
