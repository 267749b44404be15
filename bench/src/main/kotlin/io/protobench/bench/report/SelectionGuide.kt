package io.protobench.bench.report

/**
 * The protocol-selection guide, derived from the measured winners only: for every
 * axis that varies in the run (size, complexity, vus, rate), the winner at each
 * value, where it flips, and where no protocol is significantly ahead.
 */
object SelectionGuide {
    fun lines(analyses: List<ConditionAnalysis>): List<String> {
        val parsed = analyses.map { parse(it.condition) to it }
        val axes = parsed.flatMap { it.first.keys }.distinct().filter { key -> parsed.map { it.first[key] }.distinct().size > 1 }
        val lines = mutableListOf<String>()
        for ((_, analysis) in parsed) {
            lines += "- **${analysis.condition}**: ${winnerText(analysis)}" + cheapestText(analysis)
        }
        for (axis in axes) lines += flips(axis, parsed)
        return lines
    }

    /** The protocol that costs both servers the least CPU per request, when that is significant. */
    private fun cheapestText(a: ConditionAnalysis): String {
        val w = a.rankings[io.protobench.bench.measure.Figure.TOTAL_CPU_US]?.winner ?: return ""
        val c = w.overRunnerUp ?: return ""
        return if (w.tiedWith.isEmpty() && c.significant) {
            "; cheapest in CPU per request: **${w.protocol}** (${Verdicts.pct(kotlin.math.abs(c.differencePercent))} less than ${c.b})"
        } else {
            "; CPU per request: no protocol significantly cheaper than all others"
        }
    }

    private fun winnerText(a: ConditionAnalysis): String {
        val w = a.winner ?: return "no measurement"
        val c = w.overRunnerUp
        return when {
            c == null -> "${w.protocol} (only protocol measured)"
            c.undecidedReason != null -> "${w.protocol} ahead by ${Verdicts.pct(c.differencePercent)} over ${c.b}, but ${c.undecidedReason}"
            w.tiedWith.isEmpty() -> "use **${w.protocol}** — faster than the runner-up ${c.b} by ${Verdicts.pct(c.differencePercent)} (significant)"
            else -> "no significant difference between ${(listOf(w.protocol) + w.tiedWith).joinToString(", ")}; " +
                "${w.protocol} has the highest median"
        }
    }

    private fun flips(axis: String, parsed: List<Pair<Map<String, String>, ConditionAnalysis>>): List<String> {
        val groups = parsed.groupBy { (labels, _) -> labels - axis }
        return groups.flatMap { (fixed, members) ->
            val values = members.map { (labels, a) -> labels.getValue(axis) to decidedWinner(a) }
            val decided = values.withIndex().filter { it.value.second != null }
            decided.zipWithNext().filter { (x, y) -> x.value.second != y.value.second }.map { (x, y) ->
                val context = fixed.entries.joinToString(" ") { "${it.key}=${it.value}" }
                val between = values.subList(x.index + 1, y.index).map { it.first }
                val undecided = if (between.isEmpty()) "" else " (no significant winner at ${between.joinToString(", ")})"
                "- **Flip along $axis** ($context): ${x.value.second} wins at $axis=${x.value.first}, " +
                    "${y.value.second} at $axis=${y.value.first}$undecided — the crossover lies between them"
            }
        }
    }

    /** The winner when it is significantly ahead of every other protocol, else null. */
    private fun decidedWinner(a: ConditionAnalysis): String? =
        a.winner?.takeIf { it.tiedWith.isEmpty() && it.overRunnerUp?.significant == true }?.protocol

    fun parse(condition: String): Map<String, String> = condition.split(" ").filter { "=" in it }
        .associate { it.substringBefore("=") to it.substringAfter("=") }
}
