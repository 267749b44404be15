package io.protobench.bench.compare

import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.Numbers
import io.protobench.bench.report.Recorded
import io.protobench.bench.stats.Estimate
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.formatPercent

/** compare.md: a [Comparison] in words and tables, in the catalogue's language. The sentences shared with stdout are public. */
object CompareMarkdown {
    const val FILE_NAME = "compare.md"

    fun render(c: Comparison, t: Texts = Texts.EN): String = buildString {
        appendLine(t("compare.title", c.a.runId, c.b.runId))
        appendLine()
        if (c.warnings.isNotEmpty()) {
            appendLine(t("compare.forced"))
            appendLine(t("compare.forced-why"))
            c.warnings.forEach { appendLine("> - ${cell(it.text(t))}") }
            appendLine()
        }
        appendLine(t("compare.runs-header"))
        appendLine("|---|---|---|")
        fun row(key: String, value: (RunFacts) -> String) = appendLine("| ${t(key)} | ${cell(value(c.a))} | ${cell(value(c.b))} |")
        row("compare.run") { it.runId }
        row("compare.scenario") { it.scenario }
        row("compare.commit") { (it.commit?.take(12) ?: t("header.not-recorded")) + if (it.dirty == true) t("header.dirty") else "" }
        row("compare.machine") { machine(it, t) }
        row("compare.jdk") { it.jdk ?: t("header.not-recorded") }
        row("compare.started") { it.startedAt }
        row("compare.status") { t("status.${it.status.name.lowercase()}") + (it.failure?.let { f -> ": ${Recorded.failure(f, t)}" } ?: "") }
        appendLine()
        c.notes.forEach { appendLine("- ${it.text(t)}") }
        if (c.notes.isNotEmpty()) appendLine()
        if (c.versions.isNotEmpty()) {
            appendLine(t("compare.versions", c.versions.joinToString("; ") { cell(it.text(t)) }))
            appendLine()
        }

        appendLine(t("compare.what-title"))
        appendLine()
        appendLine(
            t(
                "compare.what",
                RunComparison.COST_FIGURES.joinToString(", ") { MarkdownReport.figureTitle(it.key, t) },
                RunComparison.CAPACITY_FIGURES.joinToString(", ") { MarkdownReport.figureTitle(it.key, t) },
            ),
        )
        appendLine()
        appendLine(t("compare.method", c.alpha, Numbers.percentText(c.margin)))
        appendLine()
        appendLine(regressionRule(Numbers.percentText(c.margin), t))
        appendLine()

        yardstick(c, t)

        for (condition in c.conditions) {
            appendLine("## ${condition.condition}")
            appendLine()
            if (condition.changes.isEmpty()) {
                appendLine(t("compare.no-arm"))
                appendLine()
                continue
            }
            appendLine(t("compare.columns"))
            appendLine("|---|---|---:|---:|---:|---|")
            for (f in condition.changes) {
                appendLine(
                    "| ${cell(f.arm)} | ${figure(f, t)} | ${mean(f.a, t)} | ${mean(f.b, t)} | " +
                        "${change(f)} | ${outcome(f, c.margin, t)} |",
                )
            }
            appendLine()
        }

        verdicts(c, t)

        appendLine(t("compare.summary-title"))
        appendLine()
        appendLine(summary(c, t) + ".")
        appendLine(verdictSummary(c, t) + ".")
        if (c.regressions.isNotEmpty()) {
            appendLine()
            c.regressions.forEach { (condition, f) -> appendLine("- ${regression(condition, f, t)}") }
        }
        appendLine()

        if (c.notCompared.isNotEmpty()) {
            appendLine(t("compare.not-compared-title"))
            appendLine()
            c.notCompared.forEach {
                appendLine(t(if (it.isCondition) "compare.only-condition" else "compare.only-arm", cell(it.what), it.onlyIn))
            }
            appendLine()
        }
    }

    /**
     * Each run's own verdicts side by side, contradictions first, then those decided in one
     * run only, then those that agree; comparisons open in both runs are left out.
     */
    private fun StringBuilder.verdicts(c: Comparison, t: Texts) {
        appendLine(t("compare.verdicts-title"))
        appendLine()
        appendLine(t("compare.verdicts-what"))
        appendLine()
        if (c.verdicts.isEmpty()) {
            appendLine(t("compare.verdicts-none"))
            appendLine()
            return
        }
        appendLine(t("compare.verdicts-columns"))
        appendLine("|---|---|---|---|---|---|")
        for (v in c.verdicts.sortedBy { listOf(Agreement.CONTRADICT, Agreement.ONE_RUN_ONLY, Agreement.AGREE).indexOf(it.agreement) }) {
            val figure = MarkdownReport.figureTitle(v.figure, t) + if (v.kind == TrialKind.CAPACITY) t("compare.capacity-probes") else ""
            appendLine(
                "| ${cell(v.condition)} | $figure | ${cell("${v.first} – ${v.second}")} | " +
                    "${verdict(v.a, t)} | ${verdict(v.b, t)} | ${agreement(v, t)} |",
            )
        }
        appendLine()
    }

    /**
     * The null hop's own cost in both runs, before the protocols' changes: when the harness
     * itself costs more per request in one run, so may every protocol, whatever the code did.
     */
    private fun StringBuilder.yardstick(c: Comparison, t: Texts) {
        if (c.yardstick.isEmpty()) return
        appendLine(t("compare.yardstick-title"))
        appendLine()
        appendLine(t("compare.yardstick-what"))
        appendLine()
        appendLine(t("compare.yardstick-columns"))
        appendLine("|---|---|---|---:|---:|---:|---|")
        for (condition in c.yardstick) {
            for (f in condition.changes) {
                appendLine(
                    "| ${cell(condition.condition)} | ${cell(f.arm)} | ${figure(f, t)} | ${mean(f.a, t)} | ${mean(f.b, t)} | " +
                        "${change(f)} | ${yardstickOutcome(f, c.margin, t)} |",
                )
            }
        }
        appendLine()
        appendLine(yardstickSummary(c, t) + ".")
        appendLine()
    }

    /** A yardstick figure's outcome: costlier or cheaper in run B (not a regression of the code), else as [outcome]. */
    private fun yardstickOutcome(f: FigureChange, margin: Double, t: Texts): String = when (f.change) {
        Change.Regression, Change.Worse -> t("compare.yardstick.costlier")
        Change.Improvement -> t("compare.yardstick.cheaper")
        else -> outcome(f, margin, t)
    }

    /**
     * Whether the yardstick moved, in a line (printed by `protobench compare` too): how many
     * of its figures changed beyond noise and by how much, else how many held within the margin.
     */
    fun yardstickSummary(c: Comparison, t: Texts = Texts.EN): String {
        val all = c.yardstick.flatMap { it.changes }
        val moved = c.yardstickMoved.map { it.second.estimate.percent }
        return if (moved.isEmpty()) {
            t("compare.yardstick.held", all.count { it.change == Change.Equivalent }, all.size, Numbers.percentText(c.margin))
        } else {
            t(
                "compare.yardstick.moved",
                moved.size,
                all.size,
                formatPercent(moved.min(), signed = true),
                formatPercent(moved.max(), signed = true),
            )
        }
    }

    /** One run's verdict in a few words: "gRPC/Unary cheaper by 48.1% [2.5%, 72.4%]", "equivalent within ±5%", "open". */
    private fun verdict(d: Decision?, t: Texts): String {
        if (d == null) return t("compare.verdict.absent")
        return when (val o = d.outcome) {
            is Outcome.Better -> t(
                "compare.verdict.better",
                cell(o.winner),
                MarkdownReport.betterWord(d.figure, t),
                formatPercent(o.sizePercent),
                formatPercent(o.lowPercent),
                formatPercent(o.highPercent),
            ) +
                if (d.insideMargin) t("compare.verdict.inside", Numbers.percentText(d.margin)) else ""

            Outcome.Equivalent -> t("compare.verdict.equivalent", Numbers.percentText(d.margin))

            is Outcome.Inconclusive -> t("compare.verdict.open")
        }
    }

    private fun agreement(v: VerdictPair, t: Texts): String = when (v.agreement) {
        Agreement.AGREE -> t("compare.verdicts.agree")
        Agreement.ONE_RUN_ONLY -> t("compare.verdicts.one-run", if (v.a?.outcome is Outcome.Inconclusive || v.a == null) "B" else "A")
        Agreement.CONTRADICT -> t("compare.verdicts.contradict")
    }

    /**
     * "Verdicts of each run between protocols: N agree, M decided in one run only, K contradict",
     * then the same for settings of one protocol (variants, networks) and for interactions
     * (a protocol gap under two settings) when there are any (printed by `protobench compare` too).
     */
    fun verdictSummary(c: Comparison, t: Texts = Texts.EN): String {
        fun counts(scope: Scope) = Agreement.entries.map { c.count(it, scope) }
        fun part(scope: Scope, key: String) = counts(scope).let { n -> if (n.sum() == 0) "" else t(key, n[0], n[1], n[2]) }
        val protocols = counts(Scope.PROTOCOLS)
        return t("compare.verdicts-summary", protocols[0], protocols[1], protocols[2]) +
            part(Scope.SETTINGS, "compare.verdicts-summary-settings") + part(Scope.INTERACTIONS, "compare.verdicts-summary-interactions")
    }

    /** One contradiction in a line: "contradiction: size=1mb vus=10, Hop p50, HTTP/Binary – gRPC/Unary: run A …; run B …". */
    fun contradiction(v: VerdictPair, t: Texts = Texts.EN) = t(
        "compare.contradiction",
        v.condition,
        MarkdownReport.figureTitle(v.figure, t),
        "${v.first} – ${v.second}",
        verdict(v.a, t),
        verdict(v.b, t),
    )

    /** What a regression is, for a margin given as text; said in compare.md and in `protobench compare --help`. */
    fun regressionRule(margin: String, t: Texts = Texts.EN) = t("compare.regression-rule", margin)

    /**
     * "N regressions beyond the margin, M improvements, K equivalent, L inconclusive" (and the worse changes within the margin, if any).
     */
    fun summary(c: Comparison, t: Texts = Texts.EN): String {
        val worse = c.count { it == Change.Worse }
        return t(
            "compare.summary",
            c.count { it == Change.Regression },
            c.count { it == Change.Improvement },
            c.count { it == Change.Equivalent },
            c.count { it is Change.Inconclusive },
        ) +
            if (worse > 0) t("compare.summary-worse", worse) else ""
    }

    /** One regression in a line: "regression: size=1kb vus=10, gRPC/Unary, Hop CPU/req: +12.0% [+8.0%, +16.0%]". */
    fun regression(condition: String, f: FigureChange, t: Texts = Texts.EN) =
        t("compare.regression", condition, f.arm, MarkdownReport.figureTitle(f.figure.key, t), change(f))

    /** The figure's title and unit, and whether it comes from the capacity probes. */
    fun figure(f: FigureChange, t: Texts) = "${MarkdownReport.figureTitle(f.figure.key, t)} (${f.figure.unit})" +
        if (f.kind == TrialKind.CAPACITY) t("compare.capacity-probes") else ""

    private fun mean(e: Estimate?, t: Texts): String = when {
        e == null -> "–"
        e.ciLow == null || e.ciHigh == null -> t("compare.one-fork", Numbers.number(e.mean))
        else -> t("compare.mean", Numbers.number(e.mean), Numbers.number(e.ciLow), Numbers.number(e.ciHigh), e.n)
    }

    /** "+12.0% [+8.0%, +16.0%]": the change B against A with its Holm-adjusted interval. */
    fun change(f: FigureChange): String {
        if (f.estimate.meanLog.isNaN()) return "–"
        val estimate = formatPercent(f.estimate.percent, signed = true)
        val ci = f.interval ?: return estimate
        return "$estimate [${formatPercent(ci.lowPercent, signed = true)}, ${formatPercent(ci.highPercent, signed = true)}]"
    }

    /** The outcome in words, with the forks left out of either run. */
    fun outcome(f: FigureChange, margin: Double, t: Texts = Texts.EN): String {
        val words = when (val ch = f.change) {
            Change.Regression -> t("compare.outcome.regression")

            Change.Worse -> t("compare.outcome.worse")

            Change.Improvement -> t("compare.outcome.improvement")

            Change.Equivalent -> t("compare.outcome.equivalent", Numbers.percentText(margin))

            is Change.Inconclusive -> when {
                ch.tooFewForks.isNotEmpty() -> t("compare.outcome.too-few", ch.tooFewForks.joinToString(t("compare.and")))
                ch.forksPerRun != null -> t("compare.outcome.forks", ch.forksPerRun)
                else -> t("compare.outcome.inconclusive")
            }
        }
        val dropped = listOfNotNull(
            f.droppedA.takeIf { it > 0 }?.let { t("compare.dropped-in", it, "A") },
            f.droppedB.takeIf { it > 0 }?.let { t("compare.dropped-in", it, "B") },
        )
        return words + if (dropped.isEmpty()) "" else t("compare.dropped", dropped.joinToString(", "))
    }

    /** "AMD EPYC, 2 cores, 24105 MB, kernel 6.18": what the run recorded of its machine. */
    private fun machine(f: RunFacts, t: Texts) = listOfNotNull(
        f.cpuModel,
        f.cpuCores?.let { t("compare.cores", it) },
        f.memoryTotalMb?.let { t("compare.memory", it) },
        f.kernel?.let { t("compare.kernel", it) },
    ).joinToString(", ").ifEmpty { t("header.not-recorded") }

    /** Text safe inside a table cell. */
    private fun cell(text: String) = text.replace("|", "\\|").replace("\n", " ")
}
