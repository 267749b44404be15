package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
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

/** The best protocol by throughput under a condition, and those it cannot be told apart from. */
data class Winner(val protocol: String, val tiedWith: List<String>, val overRunnerUp: Comparison?)

data class ConditionAnalysis(
    val condition: String,
    val cells: List<CellStats>,
    /** A/A control cells (a protocol measured again as if it were another); empty without noise control. */
    val controls: List<CellStats>,
    /** Each control against the protocol it copies: the spread of identical cells. */
    val controlComparisons: List<Comparison>,
    /**
     * The largest throughput difference (percent) two identical cells showed here: the
     * bound of the A/A interval farthest from zero (or the A/A difference itself with one
     * trial). Differences below it are never called wins. Null without a control.
     */
    val noiseFloorPercent: Double?,
    /** Throughput comparisons of every protocol pair, faster-by-median first in each pair. */
    val comparisons: List<Comparison>,
    /** Protocols by median throughput, best first. */
    val ranking: List<String>,
    val winner: Winner?,
)

/** The statistics of a run: per cell, per condition, pairwise. Pure: computed from run.json only. */
object Analysis {
    fun of(record: RunRecord): List<ConditionAnalysis> = record.scenario.conditions.map { condition ->
        val cells = record.scenario.protocols.map { protocol -> cellStats(record, condition, protocol) }
        val controls = record.scenario.controls.map { control -> cellStats(record, condition, control) }
        val controlComparisons = controls.mapNotNull { control ->
            compare(record, condition, control.protocol, control.protocol.removeSuffix(CONTROL_SUFFIX), null)
        }
        val floor = controlComparisons.mapNotNull(::noiseFloor).maxOrNull()
        val byThroughput = cells.filter { it.median(Figure.THROUGHPUT) != null }
            .sortedByDescending { it.median(Figure.THROUGHPUT) }
        val comparisons = byThroughput.flatMapIndexed { i, faster ->
            byThroughput.drop(i + 1).mapNotNull { slower -> compare(record, condition, faster.protocol, slower.protocol, floor) }
        }
        ConditionAnalysis(condition, cells, controls, controlComparisons, floor, comparisons,
            byThroughput.map { it.protocol }, winner(byThroughput, comparisons))
    }

    private const val CONTROL_SUFFIX = " (A/A)"

    private fun noiseFloor(aa: Comparison): Double? =
        if (aa.ciLowPercent != null && aa.ciHighPercent != null) maxOf(kotlin.math.abs(aa.ciLowPercent), kotlin.math.abs(aa.ciHighPercent))
        else kotlin.math.abs(aa.differencePercent)

    fun throughputValues(record: RunRecord, condition: String, protocol: String): List<Double> =
        record.trials.filter { it.condition == condition && it.protocol == protocol && it.error == null }
            .mapNotNull { it.figures[Figure.THROUGHPUT.key] }

    private fun cellStats(record: RunRecord, condition: String, protocol: String): CellStats {
        val trials = record.trials.filter { it.condition == condition && it.protocol == protocol }
        val good = trials.filter { it.error == null }
        val estimates = Figure.entries.mapNotNull { figure ->
            Estimate.of(good.mapNotNull { it.figures[figure.key] })?.let { figure to it }
        }.toMap()
        return CellStats(condition, protocol, trials.size, trials.size - good.size, estimates)
    }

    private fun compare(record: RunRecord, condition: String, a: String, b: String, noiseFloor: Double?) =
        Comparison.of(a, throughputValues(record, condition, a), b, throughputValues(record, condition, b), noiseFloor)

    private fun winner(ranked: List<CellStats>, comparisons: List<Comparison>): Winner? {
        val best = ranked.firstOrNull() ?: return null
        val againstBest = comparisons.filter { it.a == best.protocol }
        val tied = againstBest.filter { !it.significant }.map { it.b }
        return Winner(best.protocol, tied, againstBest.firstOrNull())
    }
}
