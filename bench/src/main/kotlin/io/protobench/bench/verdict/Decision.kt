package io.protobench.bench.verdict

import io.protobench.bench.text.Texts
import org.apache.commons.statistics.distribution.TDistribution
import java.util.Locale
import kotlin.math.abs
import kotlin.math.ln
import kotlin.math.sqrt

/**
 * One comparison to decide: arm [a] against arm [b] on the figure [figure]
 * (a key such as "throughput"), measured fork by fork in [estimate] (ratios A/B).
 * [higherIsBetter] is the figure's direction: true for throughput, false for latency or CPU.
 */
data class ComparisonInput(val a: String, val b: String, val figure: String, val higherIsBetter: Boolean, val estimate: PairedRatio)

/** The three outcomes of a comparison. */
sealed class Outcome {
    /**
     * One arm is better: the Holm-adjusted two-sided p-value of ratio = 1 is below α.
     *
     * [winner] and [loser] are arm names; [aBetter] tells whether the winner is A.
     * [sizePercent] is the winner's advantage relative to the loser, always ≥ 0:
     * - higherIsBetter: (winner/loser − 1) · 100, how many percent higher the winner is;
     * - lower is better: (1 − winner/loser) · 100, how many percent lower the winner is.
     * ([lowPercent], [highPercent]) is the Holm-adjusted interval of that same number,
     * low ≤ high. Ratios are geometric means over forks.
     */
    data class Better(
        val aBetter: Boolean,
        val winner: String,
        val loser: String,
        val sizePercent: Double,
        val lowPercent: Double,
        val highPercent: Double,
    ) : Outcome()

    /** Not better, and the Holm-adjusted TOST p-value is below α: A/B lies within (1/(1+margin), 1+margin). */
    data object Equivalent : Outcome()

    /**
     * Neither. [forksToDecide] is the smallest total number of forks (≤ [Verdicts.MAX_FORKS]) at which,
     * if the observed mean and sd of the log ratios held and the comparison kept its Holm steps,
     * either test would succeed; null when there is no such number (more than [Verdicts.MAX_FORKS],
     * or fewer than 2 forks so there is no sd). [moreForks] = forksToDecide − current forks.
     */
    data class Inconclusive(val reason: String, val forksToDecide: Int?, val moreForks: Int?) : Outcome() {
        companion object {
            const val FEWER_THAN_2_FORKS = "fewer than 2 forks"
            const val NOT_DECIDED = "neither a difference nor equivalence at this number of forks"
        }
    }
}

/**
 * The decision on one [ComparisonInput], made within its family by [Verdicts.decide].
 *
 * - [differenceP]: Holm-adjusted two-sided p-value of "ratio = 1" (null below 2 forks).
 * - [equivalenceP]: Holm-adjusted TOST p-value of "within ±margin" (null below 2 forks).
 * - [differenceInterval]: ratio A/B at confidence 1 − α/(m − rank + 1), rank of this
 *   comparison's difference p-value in its family (the "Holm-adjusted interval").
 * - [equivalenceInterval]: ratio A/B at confidence 1 − 2α/(m − rank + 1), rank of its TOST
 *   p-value; it lies inside ±margin exactly when this TOST p-value is below its Holm step level.
 * - [interval]: the one that goes with the outcome (equivalence interval for [Outcome.Equivalent],
 *   difference interval otherwise).
 * - [familySize]: the comparisons of its Holm family that could be tested (m).
 * - [looks]: the looks at the data [alpha] is spent over (see [Verdicts.decide]); each look
 *   tests at [lookAlpha] = alpha / looks: the adjusted p-values are compared with it, and the
 *   intervals' confidence levels are taken from it.
 */
data class Decision(
    val a: String,
    val b: String,
    val figure: String,
    val higherIsBetter: Boolean,
    val estimate: PairedRatio,
    val outcome: Outcome,
    val alpha: Double,
    val margin: Double,
    val differenceP: Double?,
    val equivalenceP: Double?,
    val differenceInterval: RatioInterval?,
    val equivalenceInterval: RatioInterval?,
    val familySize: Int = 1,
    val looks: Int = 1,
) {
    val lookAlpha: Double get() = alpha / looks

    val interval: RatioInterval? get() = if (outcome is Outcome.Equivalent) equivalenceInterval else differenceInterval

    val isBetter: Boolean get() = outcome is Outcome.Better

    /** Better, but by less than the margin even at its interval's far end: true, and too small to matter in practice. */
    val insideMargin: Boolean get() = (outcome as? Outcome.Better)?.let { it.highPercent < margin * 100 } ?: false

    /** Better by more than the margin even at its interval's near end: no equivalence within the margin can hold beside it. */
    val beyondMargin: Boolean get() = (outcome as? Outcome.Better)?.let { it.lowPercent >= margin * 100 } ?: false

    /** "W faster than L by S% [lo%, hi%]" of a winner, without the interval's tail. */
    fun advantage(o: Outcome.Better, better: String, t: Texts = Texts.EN): String = t(
        "verdict.better",
        o.winner,
        better,
        o.loser,
        formatPercent(o.sizePercent),
        formatPercent(o.lowPercent),
        formatPercent(o.highPercent),
    )

    /**
     * One line of plain English. [better] is the caller's word for "better" on this figure
     * ("faster", "cheaper"). Numbers:
     * - better: "W faster than L by S% [lo%, hi%]": S as in [Outcome.Better.sizePercent];
     * - equivalent / inconclusive: "+x% [lo%, hi%]" is A relative to B, (A/B − 1) · 100
     *   (geometric mean over forks), with the interval in [interval];
     * - "(Holm-adjusted C% interval, n forks)": the interval's confidence and the usable forks.
     */
    fun describe(better: String = "better", t: Texts = Texts.EN): String {
        val tail = tail(t)
        return when (val o = outcome) {
            is Outcome.Better -> advantage(o, better, t) + tail

            is Outcome.Equivalent -> t("verdict.equivalent", a, b, formatMargin(margin), signedWithInterval()) + tail

            is Outcome.Inconclusive -> when {
                o.reason == Outcome.Inconclusive.FEWER_THAN_2_FORKS ->
                    t("verdict.too-few", a, b, estimate.n, droppedText(t)) +
                        if (estimate.n == 1) t("verdict.single-fork", formatPercent(estimate.percent, signed = true)) else ""

                else -> t("verdict.open", a, b, signedWithInterval()) + tail + moreForksText(t)
            }
        }
    }

    /** " (Holm-adjusted C% interval, n forks; family of m)": how sure, after the interval; empty without one. */
    fun tail(t: Texts = Texts.EN): String {
        val ci = interval ?: return ""
        val family = if (looks > 1) t("verdict.family-looks", familySize, looks) else t("verdict.family", familySize)
        return t("verdict.tail", formatConfidence(ci.confidence), estimate.n, droppedText(t), family)
    }

    /** What would decide an open comparison: "; about N more forks would decide it"; empty when it is not open. */
    fun moreForksText(t: Texts = Texts.EN): String {
        val o = outcome as? Outcome.Inconclusive ?: return ""
        return when {
            o.reason == Outcome.Inconclusive.FEWER_THAN_2_FORKS -> ""
            o.moreForks != null -> t(if (o.moreForks == 1) "verdict.one-more-fork" else "verdict.more-forks", o.moreForks)
            else -> t("verdict.too-many-forks", Verdicts.MAX_FORKS)
        }
    }

    private fun droppedText(t: Texts) = if (estimate.dropped > 0) t("verdict.dropped", estimate.dropped) else ""

    /** A relative to B, "+x% [lo%, hi%]" (the interval of [interval]; the estimate alone without one). */
    fun signedWithInterval(): String {
        val ci = interval ?: return formatPercent(estimate.percent, signed = true)
        return "${formatPercent(estimate.percent, signed = true)} [${formatPercent(ci.lowPercent)}, ${formatPercent(ci.highPercent)}]"
    }
}

/** Decides families of comparisons. */
object Verdicts {
    const val ALPHA = 0.05
    const val MARGIN = 0.05
    const val MAX_FORKS = 100

    /**
     * Decides every comparison of one family (typically all comparisons of one condition,
     * every figure). Output order = input order.
     *
     * Comparisons with fewer than 2 usable forks have no test: they are
     * [Outcome.Inconclusive] ("fewer than 2 forks") and do not count in the family size m.
     * For the others:
     * 1. Difference: two-sided p-values of ratio = 1, Holm-adjusted over the family;
     *    adjusted p < [alpha] → [Outcome.Better].
     * 2. Otherwise equivalence: TOST p-values for ±[margin] (log-symmetric bounds ±ln(1 + margin)),
     *    Holm-adjusted over the family's equivalence tests; adjusted p < [alpha] → [Outcome.Equivalent].
     * 3. Otherwise [Outcome.Inconclusive] with forks-to-decide.
     * "Better" claims therefore have family-wise error ≤ alpha, and so do "equivalent" claims.
     *
     * [looks]: how many times the family may be tested while forks are added (the planner
     * judges a condition after each fork from its minimum to its maximum, and stops where
     * it is decided). Each look tests at alpha / looks, so the chance of a false claim at
     * any of them is at most alpha (Bonferroni's inequality over the looks, whatever the
     * stopping rule); with one look this is the fixed design.
     */
    fun decide(family: List<ComparisonInput>, alpha: Double = ALPHA, margin: Double = MARGIN, looks: Int = 1): List<Decision> {
        require(alpha > 0 && alpha < 0.5) { "alpha must be in (0, 0.5), got $alpha" }
        require(margin > 0) { "margin must be positive, got $margin" }
        require(looks >= 1) { "looks must be at least 1, got $looks" }
        return decideAt(family, alpha / looks, margin).map { it.copy(alpha = alpha, looks = looks) }
    }

    /** How many looks a design with [forks] to [maxForks] forks takes: one after each fork from the minimum on. */
    fun looks(forks: Int, maxForks: Int): Int = (maxForks - forks + 1).coerceAtLeast(1)

    /**
     * The |t| a comparison over [forks] forks must exceed to be called different at Holm step
     * [step] (1: the smallest p-value) of a family of [family], tested at each of [looks] looks:
     * the two-sided t quantile at alpha/([looks] · ([family] − [step] + 1)), df = [forks] − 1.
     * A |t| above it is a raw p-value below that level, which [decide] rejects at that step once
     * the steps before it are rejected (its Holm-adjusted p-value then below alpha/[looks]). The
     * docs quote these thresholds to say what few forks can decide; a test reads them back from
     * the docs and compares.
     */
    fun threshold(forks: Int, family: Int, step: Int = 1, looks: Int = 1, alpha: Double = ALPHA): Double {
        require(forks >= 2) { "a t test needs at least 2 forks, got $forks" }
        require(step in 1..family) { "the step must be within the family of $family, got $step" }
        require(looks >= 1) { "looks must be at least 1, got $looks" }
        val level = alpha / looks / (family - step + 1)
        return TDistribution.of(forks - 1.0).inverseSurvivalProbability(level / 2)
    }

    private fun decideAt(family: List<ComparisonInput>, alpha: Double, margin: Double): List<Decision> {
        val testable = family.indices.filter { family[it].estimate.testable }
        val diffP = testable.map { family[it].estimate.pValue!! }
        val eqP = testable.map { family[it].estimate.tostPValue(margin)!! }
        val diffHolm = Holm.of(diffP)
        val eqHolm = Holm.of(eqP)
        val bound = ln(1 + margin)
        val slot = testable.withIndex().associate { (k, i) -> i to k }

        return family.mapIndexed { i, c ->
            val k = slot[i]
            val e = c.estimate
            if (k == null) {
                Decision(
                    c.a, c.b, c.figure, c.higherIsBetter, e,
                    Outcome.Inconclusive(Outcome.Inconclusive.FEWER_THAN_2_FORKS, null, null),
                    alpha, margin, null, null, null, null, testable.size,
                )
            } else {
                // Intervals at the level compatible with the step-down; the forks a comparison
                // would take are estimated at its own step's level, as it would next be tested.
                val diffInterval = e.interval(1 - diffHolm.intervalLevel(k, alpha))!!
                val eqInterval = e.interval(1 - 2 * eqHolm.intervalLevel(k, alpha))!!
                val diffLevel = diffHolm.stepLevel(k, alpha)
                val eqLevel = eqHolm.stepLevel(k, alpha)
                val adjDiff = diffHolm.adjusted[k]
                val adjEq = eqHolm.adjusted[k]
                val outcome = when {
                    adjDiff < alpha -> better(c, diffInterval)

                    adjEq < alpha -> Outcome.Equivalent

                    else -> {
                        val need = forksToDecide(e.meanLog, e.sdLog!!, e.n, diffLevel, eqLevel, bound)
                        Outcome.Inconclusive(Outcome.Inconclusive.NOT_DECIDED, need, need?.minus(e.n))
                    }
                }
                Decision(
                    c.a, c.b, c.figure, c.higherIsBetter, e, outcome, alpha, margin,
                    adjDiff, adjEq, diffInterval, eqInterval, testable.size,
                )
            }
        }
    }

    /**
     * A/A calibration: among [decisions] of comparisons whose arms are truly identical,
     * the share decided [Outcome.Better] (either way). NaN for an empty list.
     */
    fun falsePositiveRate(decisions: List<Decision>): Double = if (decisions.isEmpty()) {
        Double.NaN
    } else {
        decisions.count { it.isBetter }.toDouble() /
            decisions.size
    }

    /** A/A calibration per family: the share of [families] with at least one [Outcome.Better]. */
    fun familyWiseFalsePositiveRate(families: List<List<Decision>>): Double = if (families.isEmpty()) {
        Double.NaN
    } else {
        families.count { f -> f.any { it.isBetter } }.toDouble() /
            families.size
    }

    private fun better(c: ComparisonInput, ci: RatioInterval): Outcome.Better {
        val e = c.estimate
        val aBetter = if (c.higherIsBetter) e.meanLog > 0 else e.meanLog < 0
        // Winner/loser ratio and its interval (low ≤ high).
        val r = if (aBetter) e.ratio else 1 / e.ratio
        val lo = if (aBetter) ci.low else 1 / ci.high
        val hi = if (aBetter) ci.high else 1 / ci.low
        return if (c.higherIsBetter) {
            Outcome.Better(
                aBetter,
                if (aBetter) c.a else c.b,
                if (aBetter) c.b else c.a,
                (r - 1) * 100,
                (lo - 1) * 100,
                (hi - 1) * 100,
            )
        } else {
            Outcome.Better(
                aBetter,
                if (aBetter) c.a else c.b,
                if (aBetter) c.b else c.a,
                (1 - r) * 100,
                (1 - hi) * 100,
                (1 - lo) * 100,
            )
        }
    }

    /**
     * Smallest n in (current, [MAX_FORKS]] at which a sample of n forks with this [mean] and [sd]
     * would pass the difference test at [diffLevel] (two-sided) or TOST at [eqLevel] with
     * bounds ±[bound], using t at df n − 1. Null when none does (or sd is 0: already decided).
     */
    internal fun forksToDecide(mean: Double, sd: Double, current: Int, diffLevel: Double, eqLevel: Double, bound: Double): Int? {
        if (sd == 0.0 || !sd.isFinite()) return null
        for (n in (current + 1)..MAX_FORKS) {
            val se = sd / sqrt(n.toDouble())
            val t = TDistribution.of(n - 1.0)
            val difference = abs(mean) / se > t.inverseSurvivalProbability(diffLevel / 2)
            val equivalence = (bound - abs(mean)) / se > t.inverseSurvivalProbability(eqLevel)
            if (difference || equivalence) return n
        }
        return null
    }
}

private fun formatConfidence(confidence: Double): String {
    var decimals = 1
    var s: String
    do {
        s = String.format(Locale.ROOT, "%.${decimals}f", confidence * 100)
        decimals++
    } while (s.startsWith("100") && decimals < 6)
    return "$s%"
}

internal fun formatMargin(margin: Double): String {
    val p = margin * 100
    return if (abs(p - Math.rint(p)) < 1e-9) "${Math.rint(p).toLong()}%" else String.format(Locale.ROOT, "%.1f%%", p)
}
