package io.protobench.bench.measure

import com.fasterxml.jackson.databind.JsonNode

/** Turns the k6 summary and the gateway's window result of one trial into [Figure] values. */
object TrialFigures {

    fun from(k6Summary: JsonNode?, gateway: JsonNode?): Map<String, Double?> {
        val figures = linkedMapOf<String, Double?>()
        k6Summary?.let { figures.putAll(fromK6(it)) }
        gateway?.let { figures.putAll(fromGateway(it)) }
        val api = figures[Figure.API_CPU_US.key]
        val data = figures[Figure.DATA_CPU_US.key]
        if (api != null && data != null) {
            figures[Figure.TOTAL_CPU_US.key] = api + data
            figures[Figure.REQ_PER_CPU_SECOND.key] = if (api + data > 0) 1e6 / (api + data) else null
        }
        return figures
    }

    /** Metrics of k6's end-of-test summary (handleSummary data). */
    fun fromK6(summary: JsonNode): Map<String, Double?> {
        val metrics = summary.path("metrics")
        val duration = metrics.path("http_req_duration").path("values")
        val checks = metrics.path("checks").path("values")
        val passes = checks.path("passes").asDouble(0.0)
        val fails = checks.path("fails").asDouble(0.0)
        return mapOf(
            Figure.THROUGHPUT.key to metrics.path("http_reqs").path("values").number("rate"),
            Figure.LATENCY_AVG.key to duration.number("avg"),
            Figure.LATENCY_P50.key to duration.number("med"),
            Figure.LATENCY_P90.key to duration.number("p(90)"),
            Figure.LATENCY_P95.key to duration.number("p(95)"),
            Figure.LATENCY_P99.key to duration.number("p(99)"),
            Figure.LATENCY_P999.key to duration.number("p(99.9)"),
            Figure.LATENCY_MAX.key to duration.number("max"),
            Figure.ERROR_RATE.key to if (passes + fails > 0) fails / (passes + fails) else null,
        )
    }

    /** Fields of the gateway's `/benchmark/end` answer. */
    fun fromGateway(end: JsonNode): Map<String, Double?> {
        val latency = end.path("latency")
        val api = end.path("processes").path("apiServer")
        val data = end.path("processes").path("dataServer")
        return mapOf(
            Figure.HOP_P50.key to latency.number("p50Ms"),
            Figure.HOP_P99.key to latency.number("p99Ms"),
            Figure.HOP_AVG.key to latency.number("avgMs"),
            Figure.API_CPU_US.key to api.number("cpuUsPerRequest"),
            Figure.DATA_CPU_US.key to data.number("cpuUsPerRequest"),
            Figure.API_ALLOC.key to api.number("allocatedBytesPerRequest"),
            Figure.DATA_ALLOC.key to data.number("allocatedBytesPerRequest"),
            Figure.API_GC_COUNT.key to api.number("gcCount"),
            Figure.DATA_GC_COUNT.key to data.number("gcCount"),
            Figure.API_GC_TIME.key to api.number("gcTimeMs"),
            Figure.DATA_GC_TIME.key to data.number("gcTimeMs"),
            Figure.API_PEAK_HEAP.key to api.number("peakHeapMb"),
            Figure.DATA_PEAK_HEAP.key to data.number("peakHeapMb"),
        )
    }

    private fun JsonNode.number(field: String): Double? = get(field)?.takeIf { it.isNumber }?.asDouble()
}
