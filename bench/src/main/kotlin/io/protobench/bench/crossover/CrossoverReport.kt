package io.protobench.bench.crossover

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.Numbers
import io.protobench.bench.report.Recorded
import io.protobench.bench.text.Texts
import java.time.Duration
import java.time.Instant

/** crossover.md and the stdout summary, from a [CrossoverRecord] alone, in the catalogue's language. */
object CrossoverReport {
    fun render(r: CrossoverRecord, t: Texts = Texts.EN): String = buildString {
        val axis = r.axis
        val figure = MarkdownReport.figureTitle(r.figure, t)
        appendLine(t("crossover.title", r.pair[0], r.pair[1], axis.id))
        appendLine()
        appendLine(t("crossover.question", axis.display(r.from), axis.display(r.to), figure, t("mode.${r.mode}")))
        appendLine()
        appendLine(
            t(
                "crossover.status",
                t("status.${r.status.name.lowercase()}"),
                r.stoppedBecause?.let { t("crossover.stopped", recorded(it, t)) } ?: "",
                r.startedAt,
                r.finishedAt ?: "–",
                elapsed(r, t)?.let { t("crossover.elapsed", it) } ?: "",
            ),
        )
        appendLine(t("crossover.every-point", recorded(r.fixed, t), Numbers.percentText(r.margin)))
        appendLine(
            t(
                "crossover.search",
                t("crossover.bisect.${axis.id}", r.resolution),
                r.maxPoints - 2, // the midpoints the resolution allows within --steps, not --steps itself
                r.maxPoints,
                t("crossover.minutes", CrossoverPlan.wholeMinutes(r.estimatedPointSeconds)),
            ) + if (r.edge) t("crossover.search.edge") else "",
        )
        appendLine(t("crossover.machine", machine(r.machine, t)))
        appendLine()
        appendLine(t("crossover.answer-title"))
        appendLine()
        appendLine((if (r.status == RunStatus.RUNNING) t("crossover.so-far") else "") + answer(r, t))
        appendLine()
        appendLine(t("crossover.points-title", axis.id))
        appendLine()
        appendLine(t("crossover.columns", axis.id, r.pair[0], r.pair[1], figure))
        appendLine("|---|---:|---|---:|---|---:|---:|---|")
        for (p in r.points.sortedBy { it.position }) {
            val ratio = p.ratio?.let { Numbers.signed((it - 1) * 100) } ?: "–"
            val time = p.seconds?.let { t("crossover.minutes", Math.round(it / 60.0)) } ?: "–"
            val run = p.run?.let { "[$it/]($it/report.md)" } ?: "–"
            val decision = p.decision?.let { Recorded.decision(it, t) } ?: p.failure?.let { recorded(it, t) } ?: "–"
            appendLine("| ${axis.display(p.position)} | ${p.n} | ${short(r, p, t)} | $ratio | $decision | ${p.forks} | $time | $run |")
        }
        appendLine()
        appendLine(t("crossover.ratio", r.pair[0], figure, r.pair[1], Numbers.percentText(r.margin)))
    }

    /** The stdout summary: the answer, then one line per point in axis order. */
    fun summary(r: CrossoverRecord, t: Texts = Texts.EN): List<String> =
        listOf(answer(r, t).replace("**", "")) + r.points.sortedBy { it.position }.map { p ->
            "  ${r.axis.display(p.position).padEnd(10)} " +
                "${p.decision?.let { Recorded.decision(it, t) } ?: t("crossover.failed-point", p.failure?.let { recorded(it, t) })}"
        }

    /** The answer in one paragraph: the flip bracket with the band, or what each end decided. */
    fun answer(r: CrossoverRecord, t: Texts = Texts.EN): String {
        val f = r.findings()
        val axis = r.axis
        val word = CrossoverSearch.word(Figure.byKey(r.figure) ?: Figure.HOP_CPU_US, t)
        val failed = r.points.lastOrNull { it.outcome == PointOutcome.FAILED }
            ?.let {
                "\n\n" + t("crossover.did-not-finish", it.n, axis.display(it.position), it.failure?.let { text -> recorded(text, t) })
            } ?: ""
        if (f.atFrom == null || f.atTo == null) return t("crossover.no-answer") + failed
        if (!f.flips) {
            if (f.edgeWinner != null) return edgeAnswer(r, f, word, t) + failed
            val ends = if (f.lowWinner != null && f.lowWinner == f.highWinner) {
                t("crossover.both-ends", f.lowWinner, word)
            } else {
                t("crossover.each-end", axis.display(r.from), short(r, f.atFrom, t), axis.display(r.to), short(r, f.atTo, t))
            }
            // An undecided end could hide a flip: say so instead of claiming there is none.
            val open = listOf(f.atFrom, f.atTo).any { it.outcome == PointOutcome.INCONCLUSIVE || it.outcome == PointOutcome.FAILED }
            return t(
                "crossover.no-flip-answer",
                t(if (open) "crossover.unknown" else "crossover.no-flip"),
                axis.display(r.from),
                axis.display(r.to),
                ends,
                f.atFrom.decision?.let { Recorded.decision(it, t) },
                f.atTo.decision?.let { Recorded.decision(it, t) },
            ) + failed
        }
        val low = f.lastLow!!
        val high = f.firstHigh!!
        val between = if (f.band.isEmpty()) "" else t("crossover.between", band(r, f.band, t))
        val strays = if (f.strays.isEmpty()) "" else t("crossover.strays", f.strays.joinToString(", ") { axis.display(it.position) })
        return t(
            "crossover.flip-answer", axis.display(low.position), axis.display(high.position), f.lowWinner, word,
            axis.display(low.position), f.highWinner, axis.display(high.position), between,
        ) + strays + failed
    }

    /** One end's lead followed to the first point where it is not shown, and what the far end decided. */
    private fun edgeAnswer(r: CrossoverRecord, f: Findings, word: String, t: Texts): String {
        val lost = f.edgeLost!!
        val far = if (f.edgeAtLow) f.atTo!! else f.atFrom!!
        val farText = if (far == lost) "" else t("crossover.edge.far", r.axis.display(far.position), short(r, far, t))
        return t(
            if (f.edgeAtLow) "crossover.edge.low" else "crossover.edge.high",
            f.edgeWinner,
            word,
            r.axis.display(f.edgeWon!!.position),
            r.axis.display(lost.position),
            short(r, lost, t),
            farText,
        )
    }

    private fun band(r: CrossoverRecord, band: List<PointRecord>, t: Texts): String {
        val equivalent = band.filter { it.outcome == PointOutcome.EQUIVALENT }.map { r.axis.display(it.position) }
        val undecided = band.filter { it.outcome == PointOutcome.INCONCLUSIVE }.map { r.axis.display(it.position) }
        return listOfNotNull(
            equivalent.takeIf { it.isNotEmpty() }
                ?.let { t("crossover.band.equivalent", Numbers.percentText(r.margin), it.joinToString(", ")) },
            undecided.takeIf { it.isNotEmpty() }?.let { t("crossover.band.undecided", it.joinToString(", ")) },
        ).joinToString(t("crossover.band.and"))
    }

    private fun short(r: CrossoverRecord, p: PointRecord, t: Texts): String {
        val word = CrossoverSearch.word(Figure.byKey(r.figure) ?: Figure.HOP_CPU_US, t)
        return when (p.outcome) {
            PointOutcome.BETTER -> p.advantagePercent?.let { t("crossover.short.by", p.winner, word, Numbers.pct(it)) }
                ?: t("crossover.short.better", p.winner, word)

            PointOutcome.EQUIVALENT -> t("crossover.short.equivalent")

            PointOutcome.INCONCLUSIVE ->
                p.moreForks?.let { t(if (it == 1) "crossover.short.more-fork" else "crossover.short.more-forks", it) }
                    ?: t("crossover.short.undecided")

            PointOutcome.FAILED -> t("crossover.short.failed")
        }
    }

    private fun elapsed(r: CrossoverRecord, t: Texts): String? {
        val end = r.finishedAt ?: return null
        val minutes = Duration.between(Instant.parse(r.startedAt), Instant.parse(end)).toMinutes()
        return if (minutes < 1) t("crossover.under-a-minute") else t("crossover.minutes", minutes)
    }

    private fun machine(m: RunEnvironment, t: Texts): String {
        if (m == RunEnvironment.NONE) return t("crossover.machine.none")
        return listOfNotNull(
            m.cpuModel?.let {
                t("crossover.machine.cpu", it, m.cpuCores) + (m.memoryTotalMb?.let { mb -> t("crossover.machine.memory", mb) } ?: "")
            },
            m.kernel?.let { t("crossover.machine.kernel", it) },
            m.serverJdk?.let { t("crossover.machine.jdk", it) },
            m.loadGenerator?.let { "`$it`" },
            m.gitCommit?.let { t("crossover.machine.commit", it) + if (m.gitDirty == true) t("header.dirty") else "" },
            m.placement?.let { t("crossover.machine.placement", Recorded.placement(it, t)) },
        ).joinToString("; ")
    }

    /**
     * A sentence crossover.json keeps in English (the settings every point shares, why the search
     * stopped, why a point failed), in [t]'s language; what no shape matches as recorded.
     */
    private fun recorded(text: String, t: Texts): String = t.recorded(text, RECORDED) { value(it, t) }

    /** A value inside such a sentence: a run's status, a sentence of its own, or a point's run's failure ([Recorded.failure]). */
    private fun value(text: String, t: Texts): String =
        RunStatus.entries.firstOrNull { it.name.lowercase() == text }?.let { t("status.${it.name.lowercase()}") }
            ?: t.readBack(text, RECORDED + RECORDED_PARTS) { value(it, t) } ?: Recorded.failure(text, t)

    private val RECORDED = listOf(
        "crossover.fixed", "crossover.fixed.forks",
        "crossover.stop.failed", "crossover.stop.no-flip", "crossover.stop.end-undecided", "crossover.stop.steps",
        "crossover.stop.whole-kb", "crossover.stop.whole",
        "crossover.stop.adjacent", "crossover.stop.resolution", "crossover.stop.interrupted", "crossover.stop.interrupted-at",
        "crossover.failure.no-decision", "crossover.failure.signal", "crossover.failure.run",
    ).map { listOf(it) }

    /** What the sentences of [RECORDED] hold: the load and the trials of every point, or that a failed run's report says why. */
    private val RECORDED_PARTS = listOf(
        "crossover.payload",
        "crossover.load.vus",
        "crossover.load.rate",
        "crossover.load.closed",
        "crossover.trials.cost",
        "crossover.trials.rate",
        "crossover.trials.capacity",
        "crossover.failure.see-report",
    ).map { listOf(it) }
}
