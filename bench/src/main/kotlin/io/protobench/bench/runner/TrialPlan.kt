package io.protobench.bench.runner

import io.protobench.bench.scenario.Cell
import kotlin.random.Random

/** One trial to run: a cell in a round, at a position in the run. */
data class PlannedTrial(val cell: Cell, val round: Int, val sequence: Int)

/**
 * The order of trials: every round runs each cell once, in an order shuffled
 * anew per round, so slow drift of the machine (heat, JIT, GC, neighbours) spreads
 * over all protocols instead of favouring whichever runs first.
 */
object TrialPlan {
    fun of(cells: List<Cell>, rounds: Int, seed: Long): List<PlannedTrial> {
        val random = Random(seed)
        var sequence = 0
        return (1..rounds).flatMap { round -> cells.shuffled(random).map { PlannedTrial(it, round, ++sequence) } }
    }
}
