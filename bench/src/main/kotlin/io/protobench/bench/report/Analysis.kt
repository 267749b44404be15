package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.scenario.Cell
import io.protobench.bench.stats.Comparison
import io.protobench.bench.stats.Estimate

/** One protocol under one condition, summarised over its trials. */
data class CellStats(
    val condition: String,
    val protocol: String,
    val trials: Int,
    val failedTrials: Int,
    val estimates: Map<Figure, Estimate>,
) {
    fun median(figure: Figure): Double? = estimates[figure]?.median
}

/** The best protocol on a figure under a condition, and those it cannot be told apart from. */
data class Winner(val protocol: String, val tiedWith: List<String>, val overRunnerUp: Comparison?)

/** The protocols of one condition ordered and compared on one figure. */
data class Ranking(
    val figure: Figure,
    /** Protocols by median, best first ([Figure.higherIsBetter] says which way is best). */
    val order: List<String>,
    /** Every protocol pair, the better-by-median first in each pair. */
    val comparisons: List<Comparison>,
    /** Each A/A control against the protocol it copies, on this figure. */
    val controlComparisons: List<Comparison>,
    /**
     * The largest difference (percent) two identical cells showed on this figure: the bound
     * of the A/A interval farthest from zero (or the A/A difference itself with one trial).
     * Differences below it are never called wins. Null without a control.
     */
    val noiseFloorPercent: Double?,
    val winner: Winner?,
)

data class ConditionAnalysis(
    val condition: String,
    val cells: List<CellStats>,
    /** A/A control cells (a protocol measured again as if it were another); empty without noise control. */
    val controls: List<CellStats>,
    /** The comparison on each of [Analysis.RANKED] figures. */
    val rankings: Map<Figure, Ranking>,
) {
    private val byThroughput get() = rankings.getValue(Figure.THROUGHPUT)
    val comparisons get() = byThroughput.comparisons
    val controlComparisons get() = byThroughput.controlComparisons
    val noiseFloorPercent get() = byThroughput.noiseFloorPercent
    val ranking get() = byThroughput.order
    val winner get() = byThroughput.winner
}

/** The statistics of a run: per cell, per condition, pairwise. Pure: computed from run.json only. */
object Analysis {
    /**
     * Figures protocols are compared on: throughput (the headline, as in the seeds), the CPU
     * both servers spend per request (robust even when the machine is saturated, because it
     * is per request), and the hop latency the gateway measured.
     */
    val RANKED = listOf(Figure.THROUGHPUT, Figure.TOTAL_CPU_US, Figure.HOP_P50)

    fun of(record: RunRecord): List<ConditionAnalysis> = record.scenario.conditions.map { condition ->
        val cells = record.scenario.protocols.map { protocol -> cellStats(record, condition, protocol) }
        val controls = record.scenario.controls.map { control -> cellStats(record, condition, control) }
        ConditionAnalysis(condition, cells, controls, RANKED.associateWith { rank(record, condition, cells, controls, it) })
    }

    fun values(record: RunRecord, condition: String, protocol: String, figure: Figure): List<Double> =
        record.trials.filter { it.condition == condition && it.protocol == protocol && it.error == null }
            .mapNotNull { it.figures[figure.key] }

    private fun rank(record: RunRecord, condition: String, cells: List<CellStats>, controls: List<CellStats>, figure: Figure): Ranking {
        fun compare(a: String, b: String, floor: Double?) =
            Comparison.of(a, values(record, condition, a, figure), b, values(record, condition, b, figure), floor)

        val controlComparisons = controls.mapNotNull { compare(it.protocol, Cell.controlledLabel(it.protocol), null) }
        val floor = controlComparisons.mapNotNull(::noiseFloor).maxOrNull()
        val measured = cells.filter { it.median(figure) != null }
        val ordered = if (figure.higherIsBetter) measured.sortedByDescending { it.median(figure) } else measured.sortedBy { it.median(figure) }
        val comparisons = ordered.flatMapIndexed { i, better ->
            ordered.drop(i + 1).mapNotNull { worse -> compare(better.protocol, worse.protocol, floor) }
        }
        return Ranking(figure, ordered.map { it.protocol }, comparisons, controlComparisons, floor, winner(ordered, comparisons))
    }

    private fun cellStats(record: RunRecord, condition: String, protocol: String): CellStats {
        val trials = record.trials.filter { it.condition == condition && it.protocol == protocol }
        val good = trials.filter { it.error == null }
        val estimates = Figure.entries.mapNotNull { figure ->
            Estimate.of(good.mapNotNull { it.figures[figure.key] })?.let { figure to it }
        }.toMap()
        return CellStats(condition, protocol, trials.size, trials.size - good.size, estimates)
    }

    private fun noiseFloor(aa: Comparison): Double =
        if (aa.ciLowPercent != null && aa.ciHighPercent != null) maxOf(kotlin.math.abs(aa.ciLowPercent), kotlin.math.abs(aa.ciHighPercent))
        else kotlin.math.abs(aa.differencePercent)

    private fun winner(ranked: List<CellStats>, comparisons: List<Comparison>): Winner? {
        val best = ranked.firstOrNull() ?: return null
        val againstBest = comparisons.filter { it.a == best.protocol }
        val tied = againstBest.filter { !it.significant }.map { it.b }
        return Winner(best.protocol, tied, againstBest.firstOrNull())
    }
}
