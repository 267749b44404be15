package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Axis
import io.protobench.bench.scenario.CrossoverDefaults
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/**
 * Two conditions of a run along one [axis] (everything else the same) where each protocol of a
 * pair was decided the better one on the same [figure]: the answer flips between [low] and
 * [high]. Conditions between them where the pair was undecided or equivalent are skipped over,
 * so the bracket is the narrowest the run's own verdicts give.
 */
data class Flip(val axis: Axis, val fixed: Map<String, String>, val figure: Figure, val low: Point, val high: Point) {
    /** A condition's value on the axis (as its label writes it) and the pair's decision there. */
    data class Point(val value: String, val decision: Decision) {
        val better: Outcome.Better get() = decision.outcome as Outcome.Better
    }

    /**
     * The crossover search that narrows this flip, with the run's fixed settings and at least its
     * forks and share of capacity (a search's points are no less precise than the run that found
     * the bracket); [message] adds the user's message flags (the count axis needs them).
     */
    fun command(scenario: ScenarioRecord, message: io.protobench.bench.message.MessageRecord?): String = buildList {
        add("./protobench crossover --pair ${low.better.winner},${high.better.winner}")
        add("--axis ${axis.id} --from ${low.value.removeSuffix("/s")} --to ${high.value.removeSuffix("/s")}")
        if (scenario.mode == Mode.CAPACITY) add("--mode capacity")
        if (figure == Figure.HOP_P50) add("--figure hop-p50")
        val forks = maxOf(scenario.forks, CrossoverDefaults.FORKS)
        if (forks != CrossoverDefaults.FORKS) add("--forks $forks")
        if (scenario.maxForks > forks) add("--max-forks ${scenario.maxForks}")
        if (scenario.mode == Mode.COST && scenario.utilisation != CrossoverDefaults.UTILISATION) {
            add("--utilisation ${Numbers.percentText(scenario.utilisation)}")
        }
        fixed["vus"]?.takeIf { axis != Axis.VUS }?.let { add("--vus $it") }
        fixed["size"]?.takeIf { axis == Axis.VUS || axis == Axis.RATE }?.let { add("--size $it") }
        if (axis == Axis.COUNT && message != null) add("--message ${message.type} --proto ${message.proto} --sample ${message.sample}")
    }.joinToString(" ")

    companion object {
        /** The figures a flip is looked for on: the hop's CPU and p50 in cost mode, throughput in capacity mode. */
        fun figures(mode: Mode): List<Figure> = when (mode) {
            Mode.CAPACITY -> listOf(Figure.THROUGHPUT)
            Mode.COST -> listOf(Figure.HOP_CPU_US, Figure.HOP_P50)
        }

        /** Every flip of every protocol pair along every axis the run varies, under each variant apart. */
        fun of(analyses: List<ConditionAnalysis>, record: RunRecord): List<Flip> {
            val kind = if (record.scenario.mode == Mode.CAPACITY) TrialKind.CAPACITY else TrialKind.COST
            return AxisLine.of(analyses.filterNot { it.untrustworthy }).flatMap { line ->
                val axis = Axis.entries.firstOrNull { it.id == line.axis } ?: return@flatMap emptyList()
                figures(record.scenario.mode).flatMap { figure -> along(axis, line.fixed, figure, kind, line.members) }
            }
        }

        /** The flips of every pair on [figure] along conditions [along], in axis order. */
        private fun along(
            axis: Axis,
            fixed: Map<String, String>,
            figure: Figure,
            kind: TrialKind,
            along: List<Pair<Map<String, String>, ConditionAnalysis>>,
        ): List<Flip> {
            val decided = along.flatMap { (labels, a) ->
                a.family(kind)?.protocolDecisions.orEmpty()
                    .filter { it.figure == figure.key && it.outcome is Outcome.Better }
                    .map { pairKey(it) to Point(labels.getValue(axis.id), it) }
            }
            return decided.groupBy({ it.first }, { it.second }).values.flatMap { points ->
                points.zipWithNext().filter { (x, y) ->
                    x.better.winner != y.better.winner
                }.map { (x, y) -> Flip(axis, fixed, figure, x, y) }
            }
        }

        /** The same two arms in either order. */
        private fun pairKey(d: Decision) = setOf(d.a, d.b) to Variant.split(d.a).second
    }
}

/** The flips of a run in words, for report.md, in [t]'s language; nothing when there are none. */
object FlipsMarkdown {
    fun render(flips: List<Flip>, record: RunRecord, t: Texts): String = if (flips.isEmpty()) {
        ""
    } else {
        buildString {
            appendLine(t("flips.title"))
            appendLine()
            for (f in flips) {
                val fixed = f.fixed.entries.joinToString(" ") { "${it.key}=${it.value}" }
                appendLine(
                    t(
                        "flips.line",
                        MarkdownReport.figureTitle(f.figure.key, t),
                        if (fixed.isEmpty()) "" else t("flips.at", fixed),
                        won(f.low, t),
                        "${f.axis.id}=${f.low.value}",
                        won(f.high, t),
                        "${f.axis.id}=${f.high.value}",
                    ),
                )
                appendLine(t("flips.narrow", f.command(record.scenario, record.environment.message)))
            }
            appendLine()
        }
    }

    private fun won(p: Flip.Point, t: Texts): String = p.decision.advantage(p.better, MarkdownReport.betterWord(p.decision.figure, t), t)
}
