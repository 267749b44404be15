package io.protobench.bench.compare

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Recorded
import io.protobench.bench.stats.Estimate
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.RatioInterval
import io.protobench.bench.verdict.WelchRatio

/** Which of the two runs: A is the first given (the baseline), B the second. */
enum class Side { A, B }

/** What [RunComparison.of] answers: the same run twice, a refusal, or the comparison. */
sealed interface CompareResult {
    /** Both are the same run (the same id and start, or two runs with the same per-fork values): nothing to compute. */
    data class Identical(val runA: String, val runB: String) : CompareResult {
        fun message(t: Texts = Texts.EN) = if (runA == runB) t("compare.identical", runA) else t("compare.identical.values", runA, runB)
    }

    /**
     * Not comparable. [differences]: machine or settings that differ (refused unless forced);
     * [conditionsA]/[conditionsB]: both runs' conditions, set when they share none (refused even when forced).
     */
    data class Refused(val differences: List<Difference>, val conditionsA: List<String>? = null, val conditionsB: List<String>? = null) :
        CompareResult {
        val noSharedCondition: Boolean get() = conditionsA != null
    }

    data class Compared(val comparison: Comparison) : CompareResult
}

/**
 * One field in which the runs differ, as "field: A=… B=…". [field] is its name in run.json
 * (cpuModel, durationMs, a library's name), or the last part of a `compare.field.*` key for one
 * named in words, whose blank [variant] fills. A value is null where the run did not record
 * it, empty where it recorded an empty list.
 */
data class Difference(val field: String, val a: String?, val b: String?, val variant: String? = null) {
    fun text(t: Texts = Texts.EN): String {
        val label = if (t.has("compare.field.$field")) t("compare.field.$field", variant) else field
        fun value(v: String?) = v?.ifEmpty { t("compare.none") } ?: t("header.not-recorded")
        return t("compare.difference", label, value(a), value(b))
    }

    override fun toString() = text()
}

/** One run as the comparison describes it; a fact the run did not record is null. */
data class RunFacts(
    val side: Side,
    val runId: String,
    val scenario: String,
    val commit: String?,
    val dirty: Boolean?,
    val cpuModel: String?,
    val cpuCores: Int?,
    val memoryTotalMb: Long?,
    val kernel: String?,
    /** The servers' JDK, its first line. */
    val jdk: String?,
    val startedAt: String,
    val status: RunStatus,
    val failure: String?,
    val margin: Double,
) {
    /** Interrupted, abandoned (still marked running) or failed: only what it measured is compared. */
    val incomplete: Boolean get() = status != RunStatus.COMPLETE
}

/** The outcome of one compared figure, B against A. */
sealed interface Change {
    /** Worse in B, and the whole Holm-adjusted interval of the change lies beyond the margin in the worse direction. */
    data object Regression : Change

    /** Worse in B beyond noise, but the interval does not lie wholly beyond the margin. */
    data object Worse : Change

    /** Better in B beyond noise. */
    data object Improvement : Change

    /** Equivalent within ±margin (TOST, Holm-adjusted). */
    data object Equivalent : Change

    /**
     * Neither. [tooFewForks]: the runs with fewer than 2 usable forks of this arm and figure
     * (then there is no test); [forksPerRun]: the forks each run would need for a decision if
     * the observed difference and spread held, null when unknown or above the limit.
     */
    data class Inconclusive(val tooFewForks: List<Side>, val forksPerRun: Int?) : Change
}

/**
 * One arm and figure of one condition and trial kind, B against A.
 * [a]/[b]: mean over each run's forks with its 95% t interval (null without values).
 * [estimate]: ratio of the geometric means B/A ([WelchRatio.of] with B first).
 * [interval]: the Holm-adjusted interval of that ratio that goes with the outcome (the
 * equivalence interval, at 1 − 2α/(m − rank + 1), for [Change.Equivalent]; the difference
 * interval, at 1 − α/(m − rank + 1), otherwise); null below 2 forks.
 * [differenceP]/[equivalenceP]: Holm-adjusted p-values of "no change" and of TOST.
 */
data class FigureChange(
    val arm: String,
    val kind: TrialKind,
    val figure: Figure,
    val a: Estimate?,
    val b: Estimate?,
    val estimate: WelchRatio,
    val interval: RatioInterval?,
    val differenceP: Double?,
    val equivalenceP: Double?,
    val change: Change,
) {
    // [estimate] is B against A: its first sample is run B's.
    /** Forks of run A with a usable (positive, finite) value. */
    val forksA: Int get() = estimate.nB
    val forksB: Int get() = estimate.nA

    /** Forks of run A left out because their value was missing or not positive (hop CPU can be ≤ 0). */
    val droppedA: Int get() = estimate.droppedB
    val droppedB: Int get() = estimate.droppedA
}

/** The compared figures of one condition present in both runs, each trial kind its own Holm family. */
data class ConditionChanges(val condition: String, val changes: List<FigureChange>)

/** A condition or an arm that only one run has. */
data class NotCompared(val what: String, val onlyIn: Side, val isCondition: Boolean)

/** Something a reader must know beside the figures, said in the catalogue's language by [text]. */
sealed interface Note {
    /** The runs' margins of equivalence differ and no `--margin` was given: run A's is used. */
    data class MarginsDiffer(val a: Double, val b: Double) : Note

    /** Run [side] did not complete: only what it measured is compared. */
    data class Incomplete(val side: Side, val runId: String, val status: RunStatus, val failure: String?) : Note

    /**
     * A condition's cost trials (under [variant]) ran at rates more than
     * [RunComparison.RATE_TOLERANCE] apart; CPU per request depends on the rate.
     */
    data class RatesApart(val condition: String, val variant: String?, val rateA: Int, val rateB: Int) : Note {
        val apart: Double get() = kotlin.math.abs(rateB.toDouble() / rateA - 1)
    }

    fun text(t: Texts = Texts.EN): String = when (this) {
        is MarginsDiffer -> t("compare.note.margins", a, b)

        is Incomplete -> t(
            "compare.note.incomplete",
            side,
            runId,
            t("status.${status.name.lowercase()}"),
            failure?.let { ": ${Recorded.failure(it, t)}" } ?: "",
        )

        is RatesApart -> t(
            "compare.note.rates",
            condition,
            variant?.let { t("compare.note.variant", it) } ?: "",
            rateA,
            rateB,
            "%.0f".format(java.util.Locale.ROOT, apart * 100),
        )
    }
}

/**
 * Two runs compared. [warnings]: differences of machine or settings that `--force` overrode;
 * [notes]: other things a reader must know (e.g. which margin was used when the runs' differ);
 * [versions]: what differs besides (commit, libraries, tools), for information.
 */
data class Comparison(
    val a: RunFacts,
    val b: RunFacts,
    val margin: Double,
    val alpha: Double,
    val warnings: List<Difference>,
    val notes: List<Note>,
    val versions: List<Difference>,
    val conditions: List<ConditionChanges>,
    val notCompared: List<NotCompared>,
    /** Each run's own protocol verdicts side by side (see [VerdictAgreement]). */
    val verdicts: List<VerdictPair> = emptyList(),
    /** The null hop's figures of [RunComparison.YARDSTICK_FIGURES], B against A, per condition. */
    val yardstick: List<ConditionChanges> = emptyList(),
) {
    val changes: List<FigureChange> get() = conditions.flatMap { it.changes }
    val regressions: List<Pair<String, FigureChange>> get() =
        conditions.flatMap { c -> c.changes.filter { it.change == Change.Regression }.map { c.condition to it } }
    val hasRegression: Boolean get() = changes.any { it.change == Change.Regression }

    fun count(predicate: (Change) -> Boolean): Int = changes.count { predicate(it.change) }

    fun count(agreement: Agreement): Int = verdicts.count { it.agreement == agreement }

    /** [count] among the verdicts of one [scope]: between protocols, between settings of one protocol, or interactions. */
    fun count(agreement: Agreement, scope: Scope): Int = verdicts.count { it.agreement == agreement && it.scope == scope }

    /**
     * The yardstick's figures that changed beyond noise, with their condition: the harness
     * itself cost more (or less) per request, so the protocols' CPU changes may be the machine's.
     */
    val yardstickMoved: List<Pair<String, FigureChange>> get() = yardstick.flatMap { c ->
        c.changes.filter { it.change == Change.Regression || it.change == Change.Worse || it.change == Change.Improvement }
            .map { c.condition to it }
    }

    /** No verdict of one run contradicts the other's: the lab's rule for publishing the two. */
    val verdictsHold: Boolean get() = verdicts.none { it.agreement == Agreement.CONTRADICT }
}
