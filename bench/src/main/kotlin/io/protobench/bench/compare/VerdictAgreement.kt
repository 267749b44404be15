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
 * - **agree** when both can hold: both name the same winner, or both find the arms equivalent,
 *   or one finds them equivalent and the other a winner whose interval reaches inside the
 *   margin (a small difference, which the equivalence allows);
 * - **contradict** when both cannot hold: they name opposite winners, or one finds the arms
 *   equivalent and the other a winner whose whole interval lies beyond the margin (the test a
 *   regression must pass too);
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
    /** A gap between two protocols under one setting against the same gap under another ([io.protobench.bench.report.Interaction]). */
    val interaction: Boolean = false,
) {
    /** What the comparison weighs; each is counted apart. */
    val scope: Scope
        get() = when {
            interaction -> Scope.INTERACTIONS
            Variant.split(first).first == Variant.split(second).first -> Scope.SETTINGS
            else -> Scope.PROTOCOLS
        }
}

/** Two protocols under one setting; one protocol under two settings (variants, networks); a protocol gap under two settings. */
enum class Scope { PROTOCOLS, SETTINGS, INTERACTIONS }

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
                VerdictPair(ca.condition, key.kind, key.figure, stated.a, stated.b, a, b, agreement, key.interaction)
            }
        }
    }

    /** A comparison whatever the order its run named the two arms in. */
    private data class Key(val kind: TrialKind, val figure: String, val arms: Set<String>, val interaction: Boolean)

    /** A condition's protocol, variant and interaction verdicts (not the A/A calibration), by comparison. */
    private fun claims(analysis: ConditionAnalysis): Map<Key, Decision> = analysis.families.flatMap { family ->
        fun key(d: Decision, interaction: Boolean) = Key(family.kind, d.figure, setOf(d.a, d.b), interaction)
        family.claims.map { key(it, interaction = false) to it } +
            family.interactions.map { key(it.decision, interaction = true) to it.decision }
    }.toMap()

    /** What two decisions of one comparison say together; null when neither decided it. */
    internal fun agreement(a: Decision?, b: Decision?): Agreement? {
        val x = a?.let(::said)
        val y = b?.let(::said)
        return when {
            (x == null || x == Said.Open) && (y == null || y == Said.Open) -> null
            x == null || x == Said.Open || y == null || y == Said.Open -> Agreement.ONE_RUN_ONLY
            x is Said.Winner && y is Said.Winner -> if (x.arm == y.arm) Agreement.AGREE else Agreement.CONTRADICT
            x is Said.Winner -> if (x.beyondMargin) Agreement.CONTRADICT else Agreement.AGREE
            y is Said.Winner -> if (y.beyondMargin) Agreement.CONTRADICT else Agreement.AGREE
            else -> Agreement.AGREE // both equivalent
        }
    }

    private sealed interface Said {
        /** [arm] is better; [beyondMargin]: see [Decision.beyondMargin]. */
        data class Winner(val arm: String, val beyondMargin: Boolean) : Said
        data object Equivalent : Said
        data object Open : Said
    }

    private fun said(d: Decision): Said = when (val o = d.outcome) {
        is Outcome.Better -> Said.Winner(o.winner, d.beyondMargin)
        Outcome.Equivalent -> Said.Equivalent
        is Outcome.Inconclusive -> Said.Open
    }
}
