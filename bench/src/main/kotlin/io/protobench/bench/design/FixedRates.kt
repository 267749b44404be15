package io.protobench.bench.design

/**
 * A fixed rate (`costRates`) is one machine's operating point and can saturate a slower
 * machine, so the probe checks it: above [ceiling] of the slowest capacity it is halved
 * until it is not. Halving, not a calibrated share, keeps two runs on one machine at the
 * same rate unless its capacity sits near a step
 * (docs/journal/2026-11-28-halving-fixed-rates.md).
 */
object FixedRates {
    /** How far above the scenario's utilisation a fixed rate may read: the probe's own spread between runs on one machine. */
    const val PROBE_SPREAD = 1.3

    /** The largest share of the slowest capacity a fixed rate keeps. */
    fun ceiling(utilisation: Double): Double = utilisation * PROBE_SPREAD

    /** The rate measured on this machine: [declared] halved until at most [ceiling] of [capacity], at least 1/s. */
    fun onMachine(declared: Int, capacity: Double, ceiling: Double): Int {
        var rate = declared
        while (rate > 1 && rate > capacity * ceiling) rate /= 2
        return rate
    }
}
