package io.protobench.bench.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.driver.Summary as DriverSummary

/**
 * How a direct trial's calls went by their place on their connection ([TrialFigures.USER_CALL_PLACES]),
 * whichever load generator drove the trial: [steps] holds each place's p50 (ms) and call count,
 * [tagged] whether calls were told apart by place at all, [warmedUpFirst] whether the connections
 * made their first calls in a warm-up before the trial was timed.
 */
data class CallPlaces(val steps: Map<String, Pair<Double, Long>>, val tagged: Boolean, val warmedUpFirst: Boolean) {
    companion object {
        val NONE = CallPlaces(emptyMap(), tagged = false, warmedUpFirst = false)

        /** From the lab's own driver's summary. */
        fun of(summary: DriverSummary) = CallPlaces(
            summary.bySteps.mapValues { (_, latency) -> latency.p50 to latency.count },
            tagged = summary.bySteps.isNotEmpty(),
            warmedUpFirst = summary.warmUp.answered > 0,
        )

        /** From k6's end-of-test summary, which records of schema 2 keep ([K6Summary]). */
        fun of(k6: JsonNode) = CallPlaces(K6Summary.callSteps(k6), K6Summary.tagsConnections(k6), K6Summary.warmsUpFirst(k6))
    }
}

/**
 * The one place that reads k6's end-of-test summary, as records of schema 2 keep it beside each
 * trial (k6 drove the lab's trials before its own driver). Only [CallPlaces] asks it anything.
 */
internal object K6Summary {

    /** p50 (ms) and count of a direct trial's calls by their place among their virtual user's calls; empty for other trials. */
    fun callSteps(metrics: JsonNode): Map<String, Pair<Double, Long>> {
        val trend = CALL_TRENDS.firstOrNull { name ->
            TrialFigures.USER_CALL_PLACES.any { hasSamples(metrics.path("$name{$USER_CALL:$it}").path("values")) }
        } ?: return emptyMap()
        return TrialFigures.USER_CALL_PLACES.mapNotNull { place ->
            val values = metrics.path("$trend{$USER_CALL:$place}").path("values")
            val count = values.number("count")?.toLong() ?: 0
            values.number("med")?.takeIf { count > 0 }?.let { place to (it to count) }
        }.toMap()
    }

    /** Whether k6's script tagged calls by connection (warm or not). */
    fun tagsConnections(metrics: JsonNode): Boolean = metrics.fieldNames().asSequence().any { it.endsWith("{connection:warm}") }

    /** Whether k6 ran a warm-up scenario before the timed one. */
    fun warmsUpFirst(metrics: JsonNode): Boolean = metrics.has("iterations{scenario:warmup}")

    private fun hasSamples(values: JsonNode) = !values.isMissingNode && (values.number("count") ?: 1.0) > 0

    private fun JsonNode.number(field: String): Double? = get(field)?.takeIf { it.isNumber }?.asDouble()

    /** k6's tag for a direct call's place among its virtual user's calls. */
    private const val USER_CALL = "user_call"

    /** k6's trends that timed a call. */
    private val CALL_TRENDS = listOf("http_req_duration", "grpc_req_duration")
}
