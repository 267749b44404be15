package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.WarmupRecord
import kotlin.math.abs

/**
 * Whether each cell's warm-up had settled. A cell is settled when its last warm-up
 * round moved at most 10% from the round before, or — the last round being the first
 * at its plateau — when the cell's first measured trial came within 10% of that last
 * round (the plateau confirmed in hindsight).
 */
object WarmUpVerdict {
    private const val SETTLED_CHANGE = 0.10

    /** The cells that had not settled: their last warm-up round, and the first trial's difference from it (percent). */
    fun unsettled(record: RunRecord): List<Pair<WarmupRecord, Double?>> =
        record.warmups.groupBy { it.condition to it.protocol }.values
            .map { rounds -> rounds.maxBy { it.round } }
            .filter { it.settled == false }
            .map { last -> last to firstTrialChange(record, last) }
            .filter { (_, change) -> change == null || abs(change) > SETTLED_CHANGE * 100 }

    private fun firstTrialChange(record: RunRecord, last: WarmupRecord): Double? {
        val warm = last.throughputRps?.takeIf { it > 0 } ?: return null
        val first = record.trials.filter { it.condition == last.condition && it.protocol == last.protocol && it.error == null }
            .minByOrNull { it.sequence }?.figures?.get(Figure.THROUGHPUT.key) ?: return null
        return (first / warm - 1) * 100
    }
}
