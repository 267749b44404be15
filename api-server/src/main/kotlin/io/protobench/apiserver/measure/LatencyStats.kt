package io.protobench.apiserver.measure

import io.protobench.contract.window.LatencyStats
import org.HdrHistogram.Histogram

private const val MICROS_PER_MS = 1_000.0

/** The contract's [LatencyStats], in ms, of a histogram whose values are microseconds. */
fun Histogram.toLatencyStats(): LatencyStats {
    if (totalCount == 0L) return LatencyStats.EMPTY
    fun at(percentile: Double) = getValueAtPercentile(percentile) / MICROS_PER_MS
    return LatencyStats(
        avgMs = mean / MICROS_PER_MS,
        minMs = minValue / MICROS_PER_MS,
        maxMs = maxValue / MICROS_PER_MS,
        p50Ms = at(50.0),
        p90Ms = at(90.0),
        p95Ms = at(95.0),
        p99Ms = at(99.0),
        p999Ms = at(99.9),
    )
}
