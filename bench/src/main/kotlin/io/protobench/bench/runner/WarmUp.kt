package io.protobench.bench.runner

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.WarmupRecord
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Scenario
import kotlin.math.abs

/**
 * Warm-up that is checked, not assumed. Every cell runs for the scenario's warm-up
 * time, round after round, until each cell's throughput moved by at most
 * [SETTLED_CHANGE] since its previous round (the JIT and caches have settled) or
 * [Scenario.warmupRounds] rounds have passed. Nothing here is counted; the records
 * say which cells settled.
 */
class WarmUp(private val cells: CellRunner, private val progress: (String) -> Unit) {
    companion object {
        /** Round-over-round throughput change below which a cell counts as settled. */
        const val SETTLED_CHANGE = 0.10
    }

    fun run(scenario: Scenario): List<WarmupRecord> {
        if (scenario.warmup.isZero) return emptyList()
        val records = mutableListOf<WarmupRecord>()
        val previous = mutableMapOf<Cell, Double>()
        for (round in 1..scenario.warmupRounds) {
            val settled = scenario.cells.map { cell ->
                progress("warm-up round $round/${scenario.warmupRounds}: ${cell.label} (${scenario.warmup.seconds} s, not counted)")
                val record = warm(cell, scenario, round, previous[cell])
                records += record
                record.throughputRps?.let { previous[cell] = it }
                record.settled == true
            }
            if (settled.all { it }) break
        }
        return records
    }

    private fun warm(cell: Cell, scenario: Scenario, round: Int, before: Double?): WarmupRecord = try {
        val m = cells.measure(cell, scenario.warmup, "warm-up ${cell.condition.label} round $round")
        val rps = TrialFigures.fromK6(m.k6Summary)[Figure.THROUGHPUT.key]
        val change = before?.takeIf { it > 0 }?.let { previous -> rps?.let { it / previous - 1 } }
        WarmupRecord(cell.condition.label, cell.protocolLabel, round, rps, change, change?.let { abs(it) <= SETTLED_CHANGE })
    } catch (e: RuntimeException) {
        WarmupRecord(cell.condition.label, cell.protocolLabel, round, null, null, null, e.message)
    }
}
