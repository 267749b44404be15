package io.protobench.bench.design

/**
 * A rate the scenario fixes (`costRates`) is an operating point chosen on one machine:
 * quick's 1,500/s at 1 KB was 34-41% of the slowest protocol's capacity where it was
 * tuned, and 95.5% on a slower VM, where its 1 KB verdicts flipped under saturation. So
 * the probe checks it: a fixed rate above [ceiling] of the slowest capacity is halved
 * until it is not. Halving rather than a calibrated share keeps what fixed rates are for:
 * two runs on one machine land on the same rate unless its capacity sits near a step,
 * where a calibrated share moves with every probe (2,162/s and 1,765/s in two runs).
 */
object FixedRates {
    /**
     * How far above the scenario's utilisation a fixed rate may read. One protocol's 3 s
     * probe differed by up to 23% between two runs on one machine (HTTP/Binary 4,493 and
     * 3,642/s), so a rate set at half of one probe can read as 65% of another: beyond that
     * the machine is slower, not the probe noisier.
     */
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
