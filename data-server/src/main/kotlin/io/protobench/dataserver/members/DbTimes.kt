package io.protobench.dataserver.members

import io.protobench.contract.members.DbTimeStats
import org.HdrHistogram.Histogram
import org.HdrHistogram.Recorder

/**
 * Database time of the write transactions that commit, microseconds, in an HdrHistogram
 * [Recorder] (3 significant digits): recording is wait-free for the writers; [interval]
 * hands the values since its previous call to one reader.
 */
class DbTimes {
    private val recorder = Recorder(SIGNIFICANT_DIGITS)

    /** The histogram handed back to the recorder on the next [interval], so no interval allocates one. */
    private var recycled: Histogram? = null

    /** Runs [call] and, when it returns, records how long it took (a call that throws is not recorded). */
    fun <T> timed(call: () -> T): T {
        val start = System.nanoTime()
        val result = call()
        recorder.recordValue((System.nanoTime() - start) / NANOS_PER_MICRO)
        return result
    }

    /** The times recorded since the previous call (since start for the first). */
    @Synchronized
    fun interval(): DbTimeStats {
        val histogram = recorder.getIntervalHistogram(recycled)
        recycled = histogram
        return histogram.toDbTimeStats()
    }

    private companion object {
        const val SIGNIFICANT_DIGITS = 3
        const val NANOS_PER_MICRO = 1_000L
    }
}

private const val MICROS_PER_MS = 1_000.0

/** The contract's [DbTimeStats], in ms, of a histogram whose values are microseconds. */
fun Histogram.toDbTimeStats(): DbTimeStats {
    if (totalCount == 0L) return DbTimeStats.EMPTY
    return DbTimeStats(
        count = totalCount,
        meanMs = mean / MICROS_PER_MS,
        p50Ms = getValueAtPercentile(50.0) / MICROS_PER_MS,
        p99Ms = getValueAtPercentile(99.0) / MICROS_PER_MS,
        maxMs = maxValue / MICROS_PER_MS,
    )
}
