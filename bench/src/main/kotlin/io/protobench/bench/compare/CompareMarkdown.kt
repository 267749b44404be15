package io.protobench.bench.compare

import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Numbers
import io.protobench.bench.stats.Estimate
import io.protobench.bench.verdict.formatPercent

/** compare.md: a [Comparison] in words and tables. The sentences shared with stdout are public. */
object CompareMarkdown {
    const val FILE_NAME = "compare.md"

    fun render(c: Comparison): String = buildString {
        appendLine("# Comparison: ${c.a.runId} → ${c.b.runId}")
        appendLine()
        if (c.warnings.isNotEmpty()) {
            appendLine("> **Warning: these runs differ in machine or settings; they were compared only because of `--force`.**")
            appendLine("> A change below may come from these differences rather than from what you changed:")
            c.warnings.forEach { appendLine("> - ${cell(it.toString())}") }
            appendLine()
        }
        appendLine("| | run A (baseline) | run B |")
        appendLine("|---|---|---|")
        fun row(name: String, value: (RunFacts) -> String) = appendLine("| $name | ${cell(value(c.a))} | ${cell(value(c.b))} |")
        row("run") { it.runId }
        row("scenario") { it.scenario }
        row("commit") { (it.commit?.take(12) ?: "not recorded") + if (it.dirty == true) " (with uncommitted changes)" else "" }
        row("machine") { it.machine }
        row("servers' JDK") { it.jdk }
        row("started") { it.startedAt }
        row("status") { it.status.name.lowercase() + (it.failure?.let { f -> ": $f" } ?: "") }
        appendLine()
        c.notes.forEach { appendLine("- $it") }
        if (c.notes.isNotEmpty()) appendLine()
        if (c.versions.isNotEmpty()) {
            appendLine("Also different (shown, not checked): " + c.versions.joinToString("; ") { cell(it.toString()) } + ".")
            appendLine()
        }

        appendLine("## What was compared")
        appendLine()
        appendLine("Every condition and every protocol arm (variants included) that both runs have; the null hop and A/A copies " +
            "are controls and are not compared. Cost trials: " + RunComparison.COST_FIGURES.joinToString(", ") { it.title } +
            "; capacity trials: " + RunComparison.CAPACITY_FIGURES.joinToString(", ") { it.title } + ".")
        appendLine()
        appendLine("The change is B against A: the ratio of the geometric means over each run's forks, as a percentage. " +
            "The two runs' forks are independent, so each change is tested with Welch's unequal-variance t on the log scale; " +
            "all comparisons of one condition and trial kind are one Holm family (α = ${c.alpha}), and the interval shown is the " +
            "Holm-adjusted one. Margin of equivalence: ±${Numbers.percentText(c.margin)} (TOST).")
        appendLine()
        appendLine(REGRESSION_RULE.format(Numbers.percentText(c.margin)))
        appendLine()

        for (condition in c.conditions) {
            appendLine("## ${condition.condition}")
            appendLine()
            if (condition.changes.isEmpty()) {
                appendLine("No arm compared here has trials in either run.")
                appendLine()
                continue
            }
            appendLine("| arm | figure | A mean [95% CI] | B mean [95% CI] | change [Holm-adjusted interval] | outcome |")
            appendLine("|---|---|---:|---:|---:|---|")
            for (f in condition.changes) {
                val figure = "${f.figure.title} (${f.figure.unit})" + if (f.kind == TrialKind.CAPACITY) ", capacity probes" else ""
                appendLine("| ${cell(f.arm)} | $figure | ${mean(f.a)} | ${mean(f.b)} | ${change(f)} | ${outcome(f, c.margin)} |")
            }
            appendLine()
        }

        appendLine("## Summary")
        appendLine()
        appendLine(summary(c) + ".")
        if (c.regressions.isNotEmpty()) {
            appendLine()
            c.regressions.forEach { (condition, f) -> appendLine("- ${regression(condition, f)}") }
        }
        appendLine()

        if (c.notCompared.isNotEmpty()) {
            appendLine("## Not compared")
            appendLine()
            c.notCompared.forEach { appendLine("- ${if (it.isCondition) "condition" else "arm"} ${cell(it.what)}: only in run ${it.onlyIn}") }
            appendLine()
        }
    }

    /** What a regression is, with a blank for the margin; said in compare.md and in `protobench compare --help`. */
    const val REGRESSION_RULE = "A **regression** is a change for the worse beyond noise whose whole Holm-adjusted interval lies " +
        "beyond the margin in the worse direction (more than +%1\$s for CPU or latency, less than 1/(1 + %1\$s) of A for throughput). " +
        "`protobench compare` exits 4 when there is at least one."

    /** "N regressions beyond the margin, M improvements, K equivalent, L inconclusive" (and the worse changes within the margin, if any). */
    fun summary(c: Comparison): String {
        val worse = c.count { it == Change.Worse }
        return "${c.count { it == Change.Regression }} regressions beyond the margin, ${c.count { it == Change.Improvement }} improvements, " +
            "${c.count { it == Change.Equivalent }} equivalent, ${c.count { it is Change.Inconclusive }} inconclusive" +
            if (worse > 0) "; $worse worse beyond noise but not wholly beyond the margin" else ""
    }

    /** One regression in a line: "size=1kb vus=10, gRPC/Unary, Hop CPU/req: +12.0% [+8.0%, +16.0%]". */
    fun regression(condition: String, f: FigureChange) = "regression: $condition, ${f.arm}, ${f.figure.title}: ${change(f)}"

    private fun mean(e: Estimate?): String = when {
        e == null -> "–"
        e.ciLow == null || e.ciHigh == null -> "${Numbers.number(e.mean)}, 1 fork"
        else -> "${Numbers.number(e.mean)} [${Numbers.number(e.ciLow)}, ${Numbers.number(e.ciHigh)}], ${e.n} forks"
    }

    private fun change(f: FigureChange): String {
        if (f.estimate.meanLog.isNaN()) return "–"
        val estimate = formatPercent(f.estimate.percent, signed = true)
        val ci = f.interval ?: return estimate
        return "$estimate [${formatPercent(ci.lowPercent, signed = true)}, ${formatPercent(ci.highPercent, signed = true)}]"
    }

    private fun outcome(f: FigureChange, margin: Double): String {
        val words = when (val ch = f.change) {
            Change.Regression -> "**regression**: worse beyond the margin"
            Change.Worse -> "worse beyond noise, not wholly beyond the margin"
            Change.Improvement -> "improvement"
            Change.Equivalent -> "equivalent within ±${Numbers.percentText(margin)}"
            is Change.Inconclusive -> when {
                ch.tooFewForks.isNotEmpty() -> "inconclusive: fewer than 2 forks in run ${ch.tooFewForks.joinToString(" and ")}"
                ch.forksPerRun != null -> "inconclusive: about ${ch.forksPerRun} forks per run would decide it"
                else -> "inconclusive"
            }
        }
        val dropped = listOfNotNull(f.droppedA.takeIf { it > 0 }?.let { "$it in A" }, f.droppedB.takeIf { it > 0 }?.let { "$it in B" })
        return words + if (dropped.isEmpty()) "" else " (forks without a positive value, left out: ${dropped.joinToString(", ")})"
    }

    /** Text safe inside a table cell. */
    private fun cell(text: String) = text.replace("|", "\\|").replace("\n", " ")
}
