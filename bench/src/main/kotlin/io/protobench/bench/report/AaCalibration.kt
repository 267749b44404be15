package io.protobench.bench.report

import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Outcome

/**
 * The A/A check over a whole run: every comparison of a protocol with an identical copy
 * of itself, analysed like any pair. A well-calibrated lab calls none of them "better";
 * the share it does is its observed false-positive rate.
 */
object AaCalibration {
    fun sentence(analyses: List<ConditionAnalysis>, t: Texts = Texts.EN): String? {
        val aa = analyses.flatMap { a -> a.families.flatMap { it.aaDecisions } }
        if (aa.isEmpty()) return null
        val wrong = aa.count { it.isBetter }
        return t("aa.sentence", wrong, aa.size, Numbers.percentText(wrong.toDouble() / aa.size),
            aa.count { it.outcome is Outcome.Equivalent }, aa.count { it.outcome is Outcome.Inconclusive })
    }
}
