package io.protobench.bench.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.driver.Summary as DriverSummary
import com.fasterxml.jackson.databind.node.MissingNode
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.WindowReport

/** Turns the k6 summary and the gateway's window result of one trial into [Figure] values. */
object TrialFigures {

    /** The figures of one trial: k6's, the gateway's, /proc's, and the totals derived from them. */
    fun from(k6Summary: JsonNode?, gateway: WindowReport?, cpu: CpuUsage? = null, requests: Double? = null): Map<String, Double?> {
        val figures = linkedMapOf<String, Double?>()
        k6Summary?.let { figures.putAll(fromK6(it)) }
        gateway?.let { figures.putAll(fromGateway(it)) }
        cpu?.let { figures.putAll(fromCpu(it, requests)) }
        figures.putAll(totals(figures))
        return figures
    }

    /**
     * The figures of a trial through the gateway made by the lab's load driver: the driver's
     * (throughput, latency from each arrival's intended start, errors, dropped arrivals), the
     * gateway window's and /proc's over the same trial; [requests] is every answer the driver
     * counted, for CPU per request.
     */
    fun from(driver: DriverSummary, gateway: WindowReport, cpu: CpuUsage, requests: Double): Map<String, Double?> {
        val figures = linkedMapOf<String, Double?>()
        figures.putAll(fromDriver(driver))
        figures.putAll(fromGateway(gateway))
        figures.putAll(fromCpu(cpu, requests))
        figures.putAll(totals(figures))
        return figures
    }

    /** The driver's own figures of a trial: its timed phase's, errors over both phases. */
    fun fromDriver(summary: DriverSummary): Map<String, Double?> {
        val latency = summary.latency
        val answered = summary.warmUp.answered + summary.timed.answered
        val wrong = summary.warmUp.wrong + summary.timed.wrong
        return mapOf(
            Figure.THROUGHPUT.key to summary.throughput,
            Figure.LATENCY_AVG.key to latency?.mean,
            Figure.LATENCY_P50.key to latency?.p50,
            Figure.LATENCY_P90.key to latency?.p90,
            Figure.LATENCY_P95.key to latency?.p95,
            Figure.LATENCY_P99.key to latency?.p99,
            Figure.LATENCY_P999.key to latency?.p999,
            Figure.LATENCY_MAX.key to latency?.max,
            Figure.ERROR_RATE.key to if (answered > 0) wrong.toDouble() / answered else null,
            Figure.DROPPED_ITERATIONS.key to (summary.warmUp.dropped + summary.timed.dropped).toDouble(),
        )
    }

    /**
     * The figures of a trial without a gateway (`topology: direct`): k6's, where its
     * latency is the hop's (k6 → data-server → k6), /proc's, and the data-server's own
     * counters over the trial ([data]). The data-server is the only server, so its CPU per
     * request without its compiler threads is the "both servers" total.
     */
    fun direct(k6Summary: JsonNode, data: ProcessUsage, cpu: CpuUsage): Map<String, Double?> {
        val figures = linkedMapOf<String, Double?>()
        figures.putAll(fromK6(k6Summary))
        figures.putAll(mapOf(
            Figure.HOP_P50.key to figures[Figure.LATENCY_P50.key],
            Figure.HOP_P99.key to figures[Figure.LATENCY_P99.key],
            Figure.HOP_AVG.key to figures[Figure.LATENCY_AVG.key],
            Figure.DATA_CPU_US.key to data.cpuUsPerRequest,
            Figure.DATA_ALLOC.key to data.allocatedBytesPerRequest,
            Figure.DATA_GC_COUNT.key to data.gcCount.toDouble(),
            Figure.DATA_GC_TIME.key to data.gcTimeMs.toDouble(),
            Figure.DATA_PEAK_HEAP.key to data.peakHeapMb,
        ))
        val (correct, wrong) = answers(k6Summary)
        figures.putAll(fromCpu(cpu, correct + wrong))
        val total = data.cpuUsPerRequest?.let { it - (figures[Figure.DATA_JIT_CPU_US.key] ?: 0.0) + (figures[Figure.DB_CPU_US.key] ?: 0.0) }
        figures[Figure.TOTAL_CPU_US.key] = total
        figures[Figure.REQ_PER_CPU_SECOND.key] = total?.takeIf { it > 0 }?.let { 1e6 / it }
        return figures
    }

    /**
     * Both servers' CPU per request without their JIT compiler threads (when /proc showed
     * them): the work of serving, GC included, not the JVM still warming up. A PostgreSQL
     * server's processes are added: its work is the data-server's, done outside its JVM
     * (H2's is inside it), so that a variant on either database counts the same work.
     */
    fun totals(figures: Map<String, Double?>): Map<String, Double?> {
        val api = figures[Figure.API_CPU_US.key] ?: return emptyMap()
        val data = figures[Figure.DATA_CPU_US.key] ?: return emptyMap()
        val total = api + data - (figures[Figure.API_JIT_CPU_US.key] ?: 0.0) - (figures[Figure.DATA_JIT_CPU_US.key] ?: 0.0) +
            (figures[Figure.DB_CPU_US.key] ?: 0.0)
        return mapOf(Figure.TOTAL_CPU_US.key to total, Figure.REQ_PER_CPU_SECOND.key to if (total > 0) 1e6 / total else null)
    }

    /** CPU shares from /proc over the trial; the driver's CPU per request needs the trial's request count. */
    fun fromCpu(usage: CpuUsage, requests: Double?): Map<String, Double?> = mapOf(
        Figure.DRIVER_CPU_US.key to perRequest(usage.loadGeneratorCores, usage, requests),
        Figure.DB_CPU_US.key to perRequest(usage.coresUsed[CpuAccounting.DATABASE], usage, requests),
        Figure.API_JIT_CPU_US.key to perRequest(usage.compilerCoresUsed["api-server"], usage, requests),
        Figure.DATA_JIT_CPU_US.key to perRequest(usage.compilerCoresUsed["data-server"], usage, requests),
        Figure.API_GC_CPU_US.key to perRequest(usage.collectorCoresUsed["api-server"], usage, requests),
        Figure.DATA_GC_CPU_US.key to perRequest(usage.collectorCoresUsed["data-server"], usage, requests),
        Figure.DRIVER_CORES.key to usage.loadGeneratorCores,
        Figure.API_CORES.key to usage.coresUsed["api-server"],
        Figure.DATA_CORES.key to usage.coresUsed["data-server"],
        Figure.MACHINE_BUSY.key to usage.machineBusyShare,
    )

    /** Cores used over the trial as CPU µs per request. */
    private fun perRequest(cores: Double?, usage: CpuUsage, requests: Double?): Double? =
        cores?.let { c -> requests?.takeIf { it > 0 }?.let { c * usage.wallSeconds * 1e6 / it } }

    /** Metrics of k6's end-of-test summary (handleSummary data). */
    fun fromK6(summary: JsonNode): Map<String, Double?> {
        val metrics = summary.path("metrics")
        // HTTP through the gateway or direct; gRPC when k6 calls the data-server's gRPC side itself.
        // Direct calls on warm connections only, where k6 tagged them (see protobench.js).
        val duration = timed(metrics, *CALL_TRENDS.toTypedArray())
        // Only direct server streams have it; a trend with no sample has none.
        val firstMessage = timed(metrics, "stream_first_message")
        val (passes, fails) = answers(summary)
        val (timedPasses, seconds) = timedAnswers(summary)
        return mapOf(
            Figure.THROUGHPUT.key to if (seconds > 0) timedPasses / seconds else null,
            Figure.LATENCY_AVG.key to duration.number("avg"),
            Figure.LATENCY_P50.key to duration.number("med"),
            Figure.LATENCY_P90.key to duration.number("p(90)"),
            Figure.LATENCY_P95.key to duration.number("p(95)"),
            Figure.LATENCY_P99.key to duration.number("p(99)"),
            Figure.LATENCY_P999.key to duration.number("p(99.9)"),
            Figure.LATENCY_MAX.key to duration.number("max"),
            Figure.FIRST_MESSAGE_P50.key to firstMessage.number("med"),
            Figure.FIRST_MESSAGE_P99.key to firstMessage.number("p(99)"),
            Figure.ERROR_RATE.key to if (passes + fails > 0) fails / (passes + fails) else null,
            Figure.DROPPED_ITERATIONS.key to (metrics.path("dropped_iterations").path("values").number("count") ?: 0.0),
        )
    }

    /**
     * The values of the first of [names] with samples. Where protobench.js tagged calls by
     * connection (topology direct), only the warm connection's (`{connection:warm}`): when
     * no call was warm the figure is missing, never made of new connections' calls. A
     * summary without counts is taken at its word.
     */
    private fun timed(metrics: JsonNode, vararg names: String): JsonNode {
        val name = names.firstOrNull { hasSamples(metrics.path(it).path("values")) } ?: return MissingNode.getInstance()
        val warm = metrics.path("$name{$WARM_CONNECTION}").path("values")
        return when {
            warm.isMissingNode -> metrics.path(name).path("values")
            hasSamples(warm) -> warm
            else -> MissingNode.getInstance()
        }
    }

    private fun hasSamples(values: JsonNode) = !values.isMissingNode && (values.number("count") ?: 1.0) > 0

    /**
     * Where k6 tagged calls by connection (topology direct): a [Flag.ColdConnections] when
     * fewer than [MIN_TIMED_CALLS] calls came after their virtual user's first [COLD_CALLS],
     * so that the latency rests on few calls (or none). Counts come from the latency trends:
     * every call is in one.
     */
    fun connectionFlags(summary: JsonNode): List<Flag> {
        val metrics = summary.path("metrics")
        if (!tagsConnections(metrics)) return emptyList()
        fun count(name: String) = metrics.path(name).path("values").number("count") ?: 0.0
        val calls = CALL_TRENDS.sumOf { count(it) }
        val warm = CALL_TRENDS.sumOf { count("$it{$WARM_CONNECTION}") }
        return if (calls > 0 && warm < MIN_TIMED_CALLS) listOf(Flag.ColdConnections(warm.toLong(), calls.toLong(), COLD_CALLS, MIN_TIMED_CALLS)) else emptyList()
    }

    /**
     * Where k6 tagged each call's place among its virtual user's calls (topology direct): a
     * [Flag.ConnectionsWarming] when the calls right after the first [COLD_CALLS] (`user_call:next`)
     * had a p50 above the later ones' (`user_call:later`) by more than [WARMING_MARGIN] and
     * [WARMING_FLOOR_MS], each over at least [MIN_COMPARED_CALLS] calls: [COLD_CALLS] were too
     * few to warm a connection on this link, and the latency timed includes warming calls.
     */
    fun warmingFlags(summary: JsonNode): List<Flag> {
        val places = userCallLatencies(summary.path("metrics"))
        val (nextP50, nextCalls) = places["next"] ?: return emptyList()
        val (laterP50, laterCalls) = places["later"] ?: return emptyList()
        if (nextCalls < MIN_COMPARED_CALLS || laterCalls < MIN_COMPARED_CALLS) return emptyList()
        val warming = nextP50 > laterP50 * (1 + WARMING_MARGIN) && nextP50 - laterP50 > WARMING_FLOOR_MS
        return if (warming) listOf(Flag.ConnectionsWarming(nextP50, nextCalls, laterP50, laterCalls, COLD_CALLS)) else emptyList()
    }

    /**
     * A direct trial's p50 (ms) and count of calls by their place among their virtual user's
     * calls ([USER_CALL_PLACES]), from the first call trend that has them; empty for other trials.
     */
    fun userCallLatencies(metrics: JsonNode?): Map<String, Pair<Double, Long>> {
        if (metrics == null) return emptyMap()
        val trend = CALL_TRENDS.firstOrNull { name -> USER_CALL_PLACES.any { hasSamples(metrics.path("$name{$USER_CALL:$it}").path("values")) } }
            ?: return emptyMap()
        return USER_CALL_PLACES.mapNotNull { place ->
            val values = metrics.path("$trend{$USER_CALL:$place}").path("values")
            val count = values.number("count")?.toLong() ?: 0
            values.number("med")?.takeIf { count > 0 }?.let { place to (it to count) }
        }.toMap()
    }

    /** The tag protobench.js gives a direct call for its place among its virtual user's calls: one of [USER_CALL_PLACES]. */
    const val USER_CALL = "user_call"

    /** A user's cold calls by number, then the [COLD_CALLS] after them, then the rest (protobench.js `userCallPlaces`). */
    val USER_CALL_PLACES: List<String> = (1..COLD_CALLS).map { it.toString() } + listOf("next", "later")

    /** How much slower than the later calls the next ones may be at p50 before the trial is flagged. */
    const val WARMING_MARGIN = 0.10

    /**
     * Nor is a difference under this (ms) taken for warming: it is below the shortest round trip of
     * the network profiles (dc, 0.5 ms), and a connection's window grows a round trip at a time.
     */
    const val WARMING_FLOOR_MS = 0.5

    /** Fewest next and later calls each for comparing their p50s. */
    const val MIN_COMPARED_CALLS = 10

    /** Whether k6's summary [metrics] tag calls by connection (direct trials since protobench.js does). */
    fun tagsConnections(metrics: JsonNode?): Boolean =
        metrics?.fieldNames()?.asSequence()?.any { it.endsWith("{$WARM_CONNECTION}") } == true

    /** Whether k6's summary [metrics] come from a trial whose users warmed their connections before it was timed. */
    fun warmsUpFirst(metrics: JsonNode?): Boolean = metrics?.has("iterations{$WARM_UP_SCENARIO}") == true

    /** The tag of protobench.js's warm-up scenario. */
    const val WARM_UP_SCENARIO = "scenario:warmup"

    /** k6's trends that time a call: HTTP's, and gRPC's (a unary call, or a whole stream). */
    private val CALL_TRENDS = listOf("http_req_duration", "grpc_req_duration")

    /** Calls of each virtual user protobench.js tags `connection:new` (its COLD_CALLS): they open and warm its connections. */
    const val COLD_CALLS = 3

    /** Fewest warm calls a direct trial's latency may rest on without a flag: under 30 its p99 is close to its maximum. */
    const val MIN_TIMED_CALLS = 30

    /** The tag protobench.js gives a direct call once its virtual user's connection is warm. */
    const val WARM_CONNECTION = "connection:warm"

    /**
     * (correct, wrong) answers: the script's one check passes only for status 200 with the
     * exact expected size, so k6's check passes are the correct answers.
     */
    fun answers(summary: JsonNode): Pair<Double, Double> {
        val checks = summary.path("metrics").path("checks").path("values")
        return checks.path("passes").asDouble(0.0) to checks.path("fails").asDouble(0.0)
    }

    /**
     * The correct answers of the timed scenario and its seconds. A direct cost trial's
     * users first warm their connections (protobench.js `warmup`, `warmUpMs` long): its
     * answers count for CPU per request and errors, not for the rate the cell held.
     */
    private fun timedAnswers(summary: JsonNode): Pair<Double, Double> {
        val seconds = summary.path("state").path("testRunDurationMs").asDouble(0.0) / 1000
        val warmUpMs = summary.path("warmUpMs").asDouble(0.0)
        if (warmUpMs <= 0) return answers(summary).first to seconds
        val cell = summary.path("metrics").path("checks{$TIMED_SCENARIO}").path("values").path("passes").asDouble(0.0)
        return cell to seconds - warmUpMs / 1000
    }

    /** The tag of the scenario protobench.js times, after any warm-up. */
    const val TIMED_SCENARIO = "scenario:cell"

    /** For an open-model trial: how much of the target rate was achieved; null for closed load. */
    fun rateShare(figures: Map<String, Double?>, targetPerSecond: Int?): Map<String, Double?> {
        val throughput = figures[Figure.THROUGHPUT.key]
        if (targetPerSecond == null || throughput == null) return emptyMap()
        return mapOf(Figure.TARGET_RATE_SHARE.key to throughput / targetPerSecond)
    }

    /** Open model: a trial that fell short of its target rate is flagged, not silently averaged. */
    fun rateFlags(figures: Map<String, Double?>, targetPerSecond: Int?): List<Flag> {
        val share = figures[Figure.TARGET_RATE_SHARE.key] ?: return emptyList()
        val dropped = figures[Figure.DROPPED_ITERATIONS.key] ?: 0.0
        if (share >= RATE_HELD && dropped == 0.0) return emptyList()
        return listOf(Flag.RateNotHeld(figures[Figure.THROUGHPUT.key] ?: 0.0, targetPerSecond!!, dropped))
    }

    /** An open-model trial holds its rate when it achieves at least this share of it (and drops nothing). */
    const val RATE_HELD = 0.97

    /** Figures of the gateway's `/benchmark/end` answer; the data-server's are null when the gateway could not read them. */
    fun fromGateway(end: WindowReport): Map<String, Double?> {
        val api = end.processes.apiServer
        val data = end.processes.dataServer
        return mapOf(
            Figure.HOP_P50.key to end.latency.p50Ms,
            Figure.HOP_P99.key to end.latency.p99Ms,
            Figure.HOP_AVG.key to end.latency.avgMs,
            Figure.API_CPU_US.key to api.cpuUsPerRequest,
            Figure.DATA_CPU_US.key to data?.cpuUsPerRequest,
            Figure.API_ALLOC.key to api.allocatedBytesPerRequest,
            Figure.DATA_ALLOC.key to data?.allocatedBytesPerRequest,
            Figure.API_GC_COUNT.key to api.gcCount.toDouble(),
            Figure.DATA_GC_COUNT.key to data?.gcCount?.toDouble(),
            Figure.API_GC_TIME.key to api.gcTimeMs.toDouble(),
            Figure.DATA_GC_TIME.key to data?.gcTimeMs?.toDouble(),
            Figure.API_PEAK_HEAP.key to api.peakHeapMb,
            Figure.DATA_PEAK_HEAP.key to data?.peakHeapMb,
        )
    }

    private fun JsonNode.number(field: String): Double? = get(field)?.takeIf { it.isNumber }?.asDouble()
}
