package io.protobench.bench.report

import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.text.Texts

/**
 * What a new connection costs, and whether its first [TrialFigures.COLD_CALLS] calls warmed
 * it: in topology direct the hop's own connection (its cold calls left out of the latency
 * figures), through the gateway the driver's connection to it (every call timed there). The driver times each call by its place among its
 * connection's calls (k6 did by its virtual user's, in older records); per arm, the p50 of each place as a range over the arm's cost trials
 * (one per fork).
 * Across a link a connection's first calls wait for windows to grow; the "next" column should
 * match the "later" one (else the trials carry [io.protobench.bench.measure.Flag.ConnectionsWarming]).
 */
object NewConnections {

    fun render(out: StringBuilder, trials: List<TrialRecord>, direct: Boolean, t: Texts): Unit = with(out) {
        val byArm = trials.filter { it.valid && it.kind == TrialKind.COST }
            .groupBy({ it.arm }, { TrialFigures.callSteps(it) })
            .filterValues { forks -> forks.any { it.isNotEmpty() } }
        if (byArm.isEmpty()) return
        val cold = TrialFigures.COLD_CALLS
        appendLine(t(if (direct) "connections.title" else "connections.title.gateway", cold))
        appendLine()
        val titles = TrialFigures.USER_CALL_PLACES.map { place ->
            when (place) {
                "next" -> t("connections.next", cold + 1, 2 * cold)
                "later" -> t("connections.later", 2 * cold + 1)
                else -> t("connections.call", place)
            }
        }
        appendLine("| ${t("column.arm")} | ${titles.joinToString(" | ")} |")
        appendLine("|---|" + "---:|".repeat(titles.size))
        for ((arm, forks) in byArm) {
            val cells = TrialFigures.USER_CALL_PLACES.map { place -> range(forks.mapNotNull { it[place]?.first }) }
            appendLine("| $arm | ${cells.joinToString(" | ")} |")
        }
        appendLine()
    }

    /** The forks' p50s as "low–high" (one number when they agree to the digit shown); – when none. */
    private fun range(p50s: List<Double>): String {
        if (p50s.isEmpty()) return "–"
        val low = Numbers.number(p50s.min())
        val high = Numbers.number(p50s.max())
        return if (low == high) low else "$low–$high"
    }
}
