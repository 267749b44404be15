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
 * [stepLevel] gives the per-step level α/(m − rank + 1) of each hypothesis; the
 * two-sided interval at confidence 1 − stepLevel is the "Holm-adjusted interval". A
 * rejected hypothesis always has its adjusted interval excluding the null; the converse
 * can fail when the step-down stopped at an earlier (smaller) p-value.
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
