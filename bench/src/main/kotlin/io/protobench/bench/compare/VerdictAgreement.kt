package io.protobench.bench.compare

import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.ConditionAnalysis
import io.protobench.bench.scenario.Variant
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/**
 * What two runs' own verdicts say together about one comparison: the lab publishes a run
 * only beside a second one whose verdicts do not contradict it, and this is that check.
 *
 * Each run decides its comparisons from its own forks (a paired ratio per fork, Holm over
 * the condition's family); nothing is pooled here. Two verdicts:
 * - **agree** when both name the same winner, or both find the arms equivalent, or one finds
 *   them equivalent and the other a winner whose whole interval lies inside the margin;
 * - **contradict** when they name opposite winners, or one finds the arms equivalent and the
 *   other a winner beyond the margin;
 * - are **decided in one run only** when the other left the comparison open.
 */
enum class Agreement { AGREE, ONE_RUN_ONLY, CONTRADICT }

/**
 * One comparison of [first] and [second] (in the order run A states it) on [figure], in
 * [condition] and trial [kind], with each run's decision ([a], [b]; null where that run has
 * no such comparison) and what they say together.
 */
data class VerdictPair(
    val condition: String,
    val kind: TrialKind,
    val figure: String,
    val first: String,
    val second: String,
    val a: Decision?,
    val b: Decision?,
    val agreement: Agreement,
) {
    /** One protocol under two settings (variants, networks), not two protocols: counted apart. */
    val betweenSettings: Boolean get() = Variant.split(first).first == Variant.split(second).first
}

object VerdictAgreement {
    /**
     * Every comparison that at least one of the two runs decided, in run A's order of
     * conditions and decisions (then run B's own); comparisons open in both are left out.
     */
    fun of(analysesA: List<ConditionAnalysis>, analysesB: List<ConditionAnalysis>): List<VerdictPair> {
        val byConditionB = analysesB.associateBy { it.condition }
        return analysesA.filter { it.condition in byConditionB }.flatMap { ca ->
            val decisionsB = claims(byConditionB.getValue(ca.condition))
            val decisionsA = claims(ca)
            val keys = (decisionsA.keys + decisionsB.keys).distinct()
            keys.mapNotNull { key ->
                val a = decisionsA[key]
                val b = decisionsB[key]
                val agreement = agreement(a, b) ?: return@mapNotNull null
                val stated = a ?: b!!
                VerdictPair(ca.condition, key.kind, key.figure, stated.a, stated.b, a, b, agreement)
            }
        }
    }

    /** A comparison whatever the order its run named the two arms in. */
    private data class Key(val kind: TrialKind, val figure: String, val arms: Set<String>)

    /** A condition's protocol and variant verdicts (not the A/A calibration), by comparison. */
    private fun claims(analysis: ConditionAnalysis): Map<Key, Decision> =
        analysis.families.flatMap { family -> family.claims.map { Key(family.kind, it.figure, setOf(it.a, it.b)) to it } }.toMap()

    /** What two decisions of one comparison say together; null when neither decided it. */
    internal fun agreement(a: Decision?, b: Decision?): Agreement? {
        val x = a?.let(::said)
        val y = b?.let(::said)
        return when {
            (x == null || x == Said.Open) && (y == null || y == Said.Open) -> null
            x == null || x == Said.Open || y == null || y == Said.Open -> Agreement.ONE_RUN_ONLY
            x is Said.Winner && y is Said.Winner -> if (x.arm == y.arm) Agreement.AGREE else Agreement.CONTRADICT
            x is Said.Winner -> if (x.insideMargin) Agreement.AGREE else Agreement.CONTRADICT
            y is Said.Winner -> if (y.insideMargin) Agreement.AGREE else Agreement.CONTRADICT
            else -> Agreement.AGREE // both equivalent
        }
    }

    private sealed interface Said {
        /** [arm] is better; [insideMargin]: see [Decision.insideMargin]. */
        data class Winner(val arm: String, val insideMargin: Boolean) : Said
        data object Equivalent : Said
        data object Open : Said
    }

    private fun said(d: Decision): Said = when (val o = d.outcome) {
        is Outcome.Better -> Said.Winner(o.winner, d.insideMargin)
        Outcome.Equivalent -> Said.Equivalent
        is Outcome.Inconclusive -> Said.Open
    }
}
