package io.protobench.apiserver.measure

import org.HdrHistogram.Histogram

/**
 * Hop latency of the successful requests of a window, milliseconds. Percentiles come
 * from an HdrHistogram (3 significant digits), so each is exact to within 0.1%.
 */
data class LatencyStats(
    val avgMs: Double,
    val minMs: Double,
    val maxMs: Double,
    val p50Ms: Double,
    val p90Ms: Double,
    val p95Ms: Double,
    val p99Ms: Double,
    val p999Ms: Double,
) {
    companion object {
        private const val MICROS_PER_MS = 1_000.0

        /** All zero: a window without successful requests. */
        val EMPTY = LatencyStats(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

        /** Stats of a histogram whose values are microseconds. */
        fun fromMicros(histogram: Histogram): LatencyStats {
            if (histogram.totalCount == 0L) return EMPTY
            fun at(percentile: Double) = histogram.getValueAtPercentile(percentile) / MICROS_PER_MS
            return LatencyStats(
                avgMs = histogram.mean / MICROS_PER_MS,
                minMs = histogram.minValue / MICROS_PER_MS,
                maxMs = histogram.maxValue / MICROS_PER_MS,
                p50Ms = at(50.0),
                p90Ms = at(90.0),
                p95Ms = at(95.0),
                p99Ms = at(99.0),
                p999Ms = at(99.9),
            )
        }
    }
}
