package io.protobench.bench.crossover

import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.Numbers
import java.time.Duration
import java.time.Instant

/** crossover.md and the stdout summary, from a [CrossoverRecord] alone. */
object CrossoverReport {
    fun render(r: CrossoverRecord): String = buildString {
        val axis = r.axis
        appendLine("# Proto-Bench crossover: ${r.pair[0]} vs ${r.pair[1]} by ${axis.id}")
        appendLine()
        appendLine("Where does the answer flip between ${axis.display(r.from)} and ${axis.display(r.to)}? " +
            "Compared at every point: ${r.figureTitle} (${r.mode} mode).")
        appendLine()
        appendLine("- Status: **${r.status.name.lowercase()}**${r.stoppedBecause?.let { " — $it" } ?: ""}; " +
            "started ${r.startedAt}, finished ${r.finishedAt ?: "–"}${elapsed(r)?.let { ", $it in all" } ?: ""}")
        appendLine("- Every point: ${r.fixed}; margin of equivalence ±${Numbers.percentText(r.margin)}; " +
            "each point is its own run with fresh forks (its folder has run.json and report.md)")
        appendLine("- Search: both ends first; while one protocol wins at one end and the other at the other, " +
            "${axis.bisection(r.resolution)}, at most ${r.steps} midpoints (${r.maxPoints} points); " +
            "estimated ${CrossoverPlan.minutes(r.estimatedPointSeconds)} per point at the minimum forks")
        appendLine("- Machine: ${machine(r.machine)}")
        appendLine()
        appendLine("## Answer")
        appendLine()
        appendLine((if (r.status == RunStatus.RUNNING) "So far (the search is still running): " else "") + answer(r))
        appendLine()
        appendLine("## Probed points, in ${axis.id} order")
        appendLine()
        appendLine("| ${axis.id} | probe | outcome | ${r.pair[0]} / ${r.pair[1]} | decision on ${r.figureTitle} | forks | time | run |")
        appendLine("|---|---:|---|---:|---|---:|---:|---|")
        for (p in r.points.sortedBy { it.position }) {
            val ratio = p.ratio?.let { Numbers.signed((it - 1) * 100) } ?: "–"
            val time = p.seconds?.let { "${Math.round(it / 60.0)} min" } ?: "–"
            val run = p.run?.let { "[$it/]($it/report.md)" } ?: "–"
            appendLine("| ${axis.display(p.position)} | ${p.n} | ${short(r, p)} | $ratio | ${p.decision ?: p.failure ?: "–"} | ${p.forks} | $time | $run |")
        }
        appendLine()
        appendLine("The ratio is ${r.pair[0]}'s ${r.figureTitle} over ${r.pair[1]}'s (geometric mean over forks); the decision gives " +
            "its interval, Holm-adjusted within the point's run. Equivalent: within ±${Numbers.percentText(r.margin)}. " +
            "Undecided: neither, after the extra forks the point's planner could spend on it.")
    }

    /** The stdout summary: the answer, then one line per point in axis order. */
    fun summary(r: CrossoverRecord): List<String> =
        listOf(answer(r).replace("**", "")) + r.points.sortedBy { it.position }.map { p ->
            "  ${r.axis.display(p.position).padEnd(10)} ${p.decision ?: "failed: ${p.failure}"}"
        }

    /** The answer in one paragraph: the flip bracket with the band, or what each end decided. */
    fun answer(r: CrossoverRecord): String {
        val f = r.findings()
        val axis = r.axis
        val word = CrossoverSearch.word(Figure.byKey(r.figure) ?: Figure.HOP_CPU_US)
        val failed = r.points.lastOrNull { it.outcome == PointOutcome.FAILED }
            ?.let { "\n\nThe search did not finish at point ${it.n} (${axis.display(it.position)}): ${it.failure}." } ?: ""
        if (f.atFrom == null || f.atTo == null) return "No answer: the ends were not both measured.$failed"
        if (!f.flips) {
            val ends = if (f.lowWinner != null && f.lowWinner == f.highWinner) "${f.lowWinner} is $word at both ends"
                else "at ${axis.display(r.from)} ${short(r, f.atFrom)}, at ${axis.display(r.to)} ${short(r, f.atTo)}"
            // An undecided end could hide a flip: say so instead of claiming there is none.
            val open = listOf(f.atFrom, f.atTo).any { it.outcome == PointOutcome.INCONCLUSIVE || it.outcome == PointOutcome.FAILED }
            val head = if (open) "Unknown whether the answer flips" else "No flip"
            return "**$head between ${axis.display(r.from)} and ${axis.display(r.to)}**: $ends " +
                "(${f.atFrom.decision}; ${f.atTo.decision}).$failed"
        }
        val low = f.lastLow!!
        val high = f.firstHigh!!
        val between = if (f.band.isEmpty()) "" else "; between them ${band(r, f.band)}"
        val strays = if (f.strays.isEmpty()) "" else " Also undecided or equivalent, inside a protocol's range: " +
            f.strays.joinToString(", ") { axis.display(it.position) } + "."
        return "**The answer flips between ${axis.display(low.position)} and ${axis.display(high.position)}**: " +
            "${f.lowWinner} is $word up to ${axis.display(low.position)}, ${f.highWinner} from ${axis.display(high.position)}$between.$strays$failed"
    }

    private fun band(r: CrossoverRecord, band: List<PointRecord>): String {
        val equivalent = band.filter { it.outcome == PointOutcome.EQUIVALENT }.map { r.axis.display(it.position) }
        val undecided = band.filter { it.outcome == PointOutcome.INCONCLUSIVE }.map { r.axis.display(it.position) }
        return listOfNotNull(
            equivalent.takeIf { it.isNotEmpty() }?.let { "equivalent within ±${Numbers.percentText(r.margin)} at ${it.joinToString(", ")}" },
            undecided.takeIf { it.isNotEmpty() }?.let { "undecided at ${it.joinToString(", ")}" },
        ).joinToString(" and ")
    }

    private fun short(r: CrossoverRecord, p: PointRecord): String {
        val word = CrossoverSearch.word(Figure.byKey(r.figure) ?: Figure.HOP_CPU_US)
        return when (p.outcome) {
            PointOutcome.BETTER -> "${p.winner} $word" + (p.advantagePercent?.let { " by ${Numbers.pct(it)}" } ?: "")
            PointOutcome.EQUIVALENT -> "equivalent"
            PointOutcome.INCONCLUSIVE -> "undecided" + (p.moreForks?.let { " (about $it more fork${if (it == 1) "" else "s"})" } ?: "")
            PointOutcome.FAILED -> "failed"
        }
    }

    private fun elapsed(r: CrossoverRecord): String? {
        val end = r.finishedAt ?: return null
        val minutes = Duration.between(Instant.parse(r.startedAt), Instant.parse(end)).toMinutes()
        return if (minutes < 1) "under a minute" else "$minutes min"
    }

    private fun machine(m: RunEnvironment): String {
        if (m == RunEnvironment.NONE) return "not recorded (no point was run)"
        return listOfNotNull(
            m.cpuModel?.let { "$it, ${m.cpuCores} cores" + (m.memoryTotalMb?.let { mb -> ", $mb MB" } ?: "") },
            m.kernel?.let { "kernel $it" },
            m.serverJdk?.let { "servers' JDK $it" },
            m.loadGenerator?.let { "`$it`" },
            m.gitCommit?.let { "commit `$it`" + if (m.gitDirty == true) " (with uncommitted changes)" else "" },
            m.placement?.let { "CPU placement: $it" },
        ).joinToString("; ")
    }
}
