package io.protobench.bench.design

import io.protobench.bench.scenario.Cell
import kotlin.math.roundToInt
import kotlin.math.sqrt

/**
 * The order of requests in a fork's soak. The JIT compiles a method once it has been
 * called often enough, so what a soak must hand out quickly is invocations of every
 * endpoint's code. In an even round robin over 1 KB and 1 MB endpoints, the 1 MB
 * requests take almost all of the time and every endpoint gets ~80 calls a second at
 * two virtual users: its C2 thresholds are reached after a minute or more. Here a
 * payload endpoint comes up `sqrt(largest / its size)` times per cycle (at most
 * [MAX_WEIGHT]): 1 KB endpoints 32 times for each 1 MB call. Large payloads still come
 * every cycle; their byte loops warm within a few requests (back-edge counters). Member
 * creations weigh by the image bytes of a request.
 * Complexity levels have no size to weigh by and keep one call per cycle.
 */
object SoakMix {
    const val MAX_WEIGHT = 32

    /** [cells] repeated by weight and interleaved, so each stretch of the cycle calls every endpoint. */
    fun weighted(cells: List<Cell>): List<Cell> {
        val bytes = cells.associateWith(::payloadBytes)
        val largest = bytes.values.filterNotNull().maxOrNull() ?: return cells
        val weights = cells.map { cell -> bytes[cell]?.let { weight(largest, it) } ?: 1 }
        return (0 until (weights.maxOrNull() ?: 1)).flatMap { round -> cells.filterIndexed { i, _ -> weights[i] > round } }
    }

    private fun weight(largest: Int, bytes: Int): Int =
        sqrt(largest.toDouble() / bytes.coerceAtLeast(1)).roundToInt().coerceIn(1, MAX_WEIGHT)

    private fun payloadBytes(cell: Cell): Int? = cell.condition.target.bytes
}
