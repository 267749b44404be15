package io.protobench.bench.verdict

/**
 * Holm–Bonferroni step-down adjustment for one family of m p-values, in input order.
 *
 * Sort the p-values ascending (ties keep input order); the one at rank k (1-based) is
 * compared with α/(m − k + 1). The adjusted p-value is
 * `min(1, max over j ≤ k of (m − j + 1) · p(j))`: monotone in rank and capped at 1,
 * the same as R's `p.adjust(p, "holm")`. Rejecting every hypothesis whose adjusted
 * p-value is below α keeps the chance of any false rejection in the family ≤ α,
 * whatever the dependence between the tests.
 *
 * [stepLevel] gives the per-step level α/(m − rank + 1) of each hypothesis. A rejected
 * hypothesis always has its interval at that level excluding the null, but the converse
 * can fail: when the step-down stopped at an earlier (smaller) p-value, a later one's
 * step interval may exclude the null while it is not rejected, and a report would print
 * "inconclusive [0.4%, 53.7%]". [intervalLevel] is the level to show instead: the step
 * level for a rejected hypothesis, and α/(m − r), r the number rejected, for the others —
 * the Bonferroni level over what is left, as in the compatible intervals of Strassburger
 * and Bretz (2008) — whose interval always contains the null.
 */
class Holm private constructor(
    /** The raw p-values, input order. */
    val pValues: List<Double>,
    /** Adjusted p-values, input order. */
    val adjusted: List<Double>,
    /** 1-based rank of each p-value in ascending order, input order. */
    val ranks: List<Int>,
) {
    /** Family size. */
    val m: Int get() = pValues.size

    /** α/(m − rank + 1) for hypothesis [index] (input order). */
    fun stepLevel(index: Int, alpha: Double): Double = alpha / (m - ranks[index] + 1)

    /** Hypotheses rejected at [alpha] (adjusted p below it). */
    fun rejected(alpha: Double): Int = adjusted.count { it < alpha }

    /**
     * The level of the interval shown for hypothesis [index]: its [stepLevel] when it is
     * rejected, else α/(m − r) (r = [rejected]), the level at which the step-down stopped,
     * so that the interval of a hypothesis not rejected contains the null.
     */
    fun intervalLevel(index: Int, alpha: Double): Double = if (adjusted[index] <
        alpha
    ) {
        stepLevel(index, alpha)
    } else {
        alpha / (m - rejected(alpha))
    }

    /** Per-step levels for all hypotheses, input order. */
    fun stepLevels(alpha: Double): List<Double> = pValues.indices.map { stepLevel(it, alpha) }

    companion object {
        /** Adjusts [pValues] (each in [0, 1]) as one family. An empty family gives an empty result. */
        fun of(pValues: List<Double>): Holm {
            require(pValues.all { it in 0.0..1.0 }) { "p-values must be in [0, 1]: $pValues" }
            val m = pValues.size
            val order = pValues.indices.sortedBy { pValues[it] } // stable: ties keep input order
            val adjusted = DoubleArray(m)
            val ranks = IntArray(m)
            var running = 0.0
            order.forEachIndexed { position, index ->
                val rank = position + 1
                running = maxOf(running, (m - rank + 1) * pValues[index]).coerceAtMost(1.0)
                adjusted[index] = running
                ranks[index] = rank
            }
            return Holm(pValues.toList(), adjusted.toList(), ranks.toList())
        }

        /** Just the adjusted p-values, input order. */
        fun adjust(pValues: List<Double>): List<Double> = of(pValues).adjusted
    }
}
