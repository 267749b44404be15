package io.protobench.bench.measure

import io.protobench.contract.metrics.GcUsage
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.WindowReport
import io.protobench.driver.Latency
import io.protobench.driver.Place
import io.protobench.driver.Summary as DriverSummary

/** Turns the load driver's summary, the gateway's window and /proc's readings of one trial into [Figure] values. */
object TrialFigures {

    /** The figures of one trial from the gateway's window alone (a soak window, tests), and the totals derived from them. */
    fun from(gateway: WindowReport): Figures = fromGateway(gateway).let { it + totals(it) }

    /**
     * The figures of a trial through the gateway made by the lab's load driver: the driver's
     * (throughput, latency from each arrival's intended start, errors, dropped arrivals), the
     * gateway window's and /proc's over the same trial; [requests] is every answer the driver
     * counted, for CPU per request.
     */
    fun from(driver: DriverSummary, gateway: WindowReport, cpu: CpuUsage, requests: Double): Figures = (
        fromDriver(driver) +
            fromGateway(gateway) +
            fromCpu(cpu, requests)
        ).let { it + totals(it) }

    /**
     * The driver's own figures of a trial: its timed phase's, errors over both phases. Latency
     * of [latency] (all timed calls through the gateway; a direct run's warm calls only).
     */
    fun fromDriver(summary: DriverSummary, latency: Latency? = summary.latency): Figures {
        val answered = summary.warmUp.answered + summary.timed.answered
        val wrong = summary.warmUp.wrong + summary.timed.wrong
        return Figures.of(
            Figure.THROUGHPUT to summary.throughput,
            Figure.LATENCY_AVG to latency?.mean,
            Figure.LATENCY_P50 to latency?.p50,
            Figure.LATENCY_P90 to latency?.p90,
            Figure.LATENCY_P95 to latency?.p95,
            Figure.LATENCY_P99 to latency?.p99,
            Figure.LATENCY_P999 to latency?.p999,
            Figure.LATENCY_MAX to latency?.max,
            Figure.SEND_DELAY_P99 to summary.sendDelay?.p99,
            Figure.DRIVER_SWITCHES to summary.contextSwitches?.takeIf { summary.timed.answered > 0 }
                ?.let { it.toDouble() / summary.timed.answered },
            Figure.ERROR_RATE to if (answered > 0) wrong.toDouble() / answered else null,
            Figure.DROPPED_ITERATIONS to (summary.warmUp.dropped + summary.timed.dropped).toDouble(),
        )
    }

    /**
     * The figures of a trial without a gateway (`topology: direct`): the driver's, where its
     * latency is the hop's (driver → data-server → driver) on warm connections only (a
     * connection's first [COLD_CALLS] calls are left out: when none was warm the figure is
     * missing, never made of new connections' calls), /proc's, and the data-server's own
     * counters over the trial ([data]). The data-server is the only server, so its CPU per
     * request without its compiler threads is the "both servers" total.
     */
    fun direct(summary: DriverSummary, data: ProcessUsage, cpu: CpuUsage): Figures {
        val driver = fromDriver(summary, summary.byPlace[WARM])
        val measured = driver + Figures.of(
            Figure.FIRST_MESSAGE_P50 to summary.firstMessage?.p50,
            Figure.FIRST_MESSAGE_P99 to summary.firstMessage?.p99,
            Figure.HOP_P50 to driver[Figure.LATENCY_P50],
            Figure.HOP_P99 to driver[Figure.LATENCY_P99],
            Figure.HOP_AVG to driver[Figure.LATENCY_AVG],
            Figure.DATA_CPU_US to data.cpuUsPerRequest,
            Figure.DATA_ALLOC to data.allocatedBytesPerRequest,
            Figure.DATA_GC_COUNT to data.gcCount.toDouble(),
            Figure.DATA_GC_TIME to data.gcTimeMs.toDouble(),
            Figure.DATA_PEAK_HEAP to data.peakHeapMb,
        ) + gcFigures(data.gc, DATA_GC) + fromCpu(cpu, (summary.warmUp.answered + summary.timed.answered).toDouble())
        val total = data.cpuUsPerRequest?.let { it - (measured[Figure.DATA_JIT_CPU_US] ?: 0.0) + (measured[Figure.DB_CPU_US] ?: 0.0) }
        return measured + (Figure.TOTAL_CPU_US to total) + (Figure.REQ_PER_CPU_SECOND to total?.takeIf { it > 0 }?.let { 1e6 / it })
    }

    /**
     * Both servers' CPU per request without their JIT compiler threads (when /proc showed
     * them): the work of serving, GC included, not the JVM still warming up. A PostgreSQL
     * server's processes are added: its work is the data-server's, done outside its JVM
     * (H2's is inside it), so that a variant on either database counts the same work.
     */
    fun totals(figures: Figures): Figures {
        val api = figures[Figure.API_CPU_US] ?: return Figures.NONE
        val data = figures[Figure.DATA_CPU_US] ?: return Figures.NONE
        val total = api + data - (figures[Figure.API_JIT_CPU_US] ?: 0.0) - (figures[Figure.DATA_JIT_CPU_US] ?: 0.0) +
            (figures[Figure.DB_CPU_US] ?: 0.0)
        return Figures.of(Figure.TOTAL_CPU_US to total, Figure.REQ_PER_CPU_SECOND to if (total > 0) 1e6 / total else null)
    }

    /** CPU shares from /proc over the trial; the driver's CPU per request needs the trial's request count. */
    fun fromCpu(usage: CpuUsage, requests: Double?): Figures = Figures.of(
        Figure.DRIVER_CPU_US to perRequest(usage.loadGeneratorCores, usage, requests),
        Figure.DRIVER_KERNEL_CPU_US to perRequest(usage.kernelCoresUsed[CpuAccounting.DRIVER], usage, requests),
        Figure.DB_CPU_US to perRequest(usage.coresUsed[CpuAccounting.DATABASE], usage, requests),
        Figure.API_JIT_CPU_US to perRequest(usage.compilerCoresUsed["api-server"], usage, requests),
        Figure.DATA_JIT_CPU_US to perRequest(usage.compilerCoresUsed["data-server"], usage, requests),
        Figure.API_GC_CPU_US to perRequest(usage.collectorCoresUsed["api-server"], usage, requests),
        Figure.DATA_GC_CPU_US to perRequest(usage.collectorCoresUsed["data-server"], usage, requests),
        Figure.DRIVER_CORES to usage.loadGeneratorCores,
        Figure.API_CORES to usage.coresUsed["api-server"],
        Figure.DATA_CORES to usage.coresUsed["data-server"],
        Figure.MACHINE_BUSY to usage.machineBusyShare,
    )

    /** Cores used over the trial as CPU µs per request. */
    private fun perRequest(cores: Double?, usage: CpuUsage, requests: Double?): Double? = cores?.let { c ->
        requests?.takeIf { it > 0 }?.let {
            c *
                usage.wallSeconds *
                1e6 /
                it
        }
    }

    /**
     * A direct trial's [Flag.ColdConnections] when fewer than [MIN_TIMED_CALLS] of its timed
     * calls came on warm connections (after their connection's first [COLD_CALLS]), so that
     * the latency rests on few calls (or none).
     */
    fun connectionFlags(summary: DriverSummary): List<Flag> {
        val calls = summary.byPlace.values.sumOf { it.count }
        val warm = summary.byPlace[WARM]?.count ?: 0
        return if (calls > 0 && warm < MIN_TIMED_CALLS) {
            listOf(Flag.ColdConnections(warm, calls, COLD_CALLS, MIN_TIMED_CALLS))
        } else {
            emptyList()
        }
    }

    /**
     * A direct trial's [Flag.ConnectionsWarming] when the calls right after a connection's
     * first [COLD_CALLS] (`next`) had a p50 above the later ones' (`later`) by more than
     * [WARMING_MARGIN] and [WARMING_FLOOR_MS], each over at least [MIN_COMPARED_CALLS] calls:
     * [COLD_CALLS] were too few to warm a connection on this link, and the latency timed
     * includes warming calls.
     */
    fun warmingFlags(summary: DriverSummary): List<Flag> {
        val steps = callSteps(summary)
        val (nextP50, nextCalls) = steps[NEXT] ?: return emptyList()
        val (laterP50, laterCalls) = steps[LATER] ?: return emptyList()
        if (nextCalls < MIN_COMPARED_CALLS || laterCalls < MIN_COMPARED_CALLS) return emptyList()
        val warming = nextP50 > laterP50 * (1 + WARMING_MARGIN) && nextP50 - laterP50 > WARMING_FLOOR_MS
        return if (warming) listOf(Flag.ConnectionsWarming(nextP50, nextCalls, laterP50, laterCalls, COLD_CALLS)) else emptyList()
    }

    /**
     * p50 (ms) and count of a trial's calls by their place on their connection ([USER_CALL_PLACES]): the driver's, or k6's in older
     * records.
     */
    fun callSteps(trial: TrialRecord): Map<String, Pair<Double, Long>> = trial.callPlaces.steps

    private fun callSteps(summary: DriverSummary): Map<String, Pair<Double, Long>> = CallPlaces.of(summary).steps

    /** The driver's own name for calls on a connection past its first few ([Place.WARM]). */
    private val WARM = Place.WARM.label
    private const val NEXT = "next"
    private const val LATER = "later"

    /** A connection's cold calls by number, then the [COLD_CALLS] after them, then the rest. */
    val USER_CALL_PLACES: List<String> = io.protobench.driver.Outcome.STEPS

    /** How much slower than the later calls the next ones may be at p50 before the trial is flagged. */
    const val WARMING_MARGIN = 0.10

    /**
     * Nor is a difference under this (ms) taken for warming: it is below the shortest round trip of
     * the network profiles (dc, 0.5 ms), and a connection's window grows a round trip at a time.
     */
    const val WARMING_FLOOR_MS = 0.5

    /** Fewest next and later calls each for comparing their p50s. */
    const val MIN_COMPARED_CALLS = 10

    /** Whether a direct trial's calls were told apart by their place on their connection (its report shows "New connections"). */
    fun tagsConnections(trial: TrialRecord): Boolean = trial.callPlaces.tagged

    /** Whether a direct trial's connections made their first calls in a warm-up before it was timed. */
    fun warmsUpFirst(trial: TrialRecord): Boolean = trial.callPlaces.warmedUpFirst

    /** Calls of each connection counted new: they open and warm it ([io.protobench.driver.Connections.COLD_CALLS]). */
    const val COLD_CALLS = io.protobench.driver.Connections.COLD_CALLS

    /** Fewest warm calls a direct trial's latency may rest on without a flag: under 30 its p99 is close to its maximum. */
    const val MIN_TIMED_CALLS = 30

    /**
     * [Flag.DriverLate] when more than [LATE_SHARE] of the driver's arrivals (both phases) left
     * over [io.protobench.driver.Summary.LATE_MS] after they were due: the driver, not the
     * servers, delayed that many calls.
     */
    fun driverFlags(summary: DriverSummary): List<Flag> {
        val arrivals = summary.warmUp.answered + summary.warmUp.dropped + summary.timed.answered + summary.timed.dropped
        if (arrivals == 0L || summary.lateArrivals <= LATE_SHARE * arrivals) return emptyList()
        return listOf(Flag.DriverLate(summary.lateArrivals, arrivals, DriverSummary.LATE_MS, summary.maxLateMs))
    }

    /** More late arrivals than this share flags a trial: a percentile at p99 or beyond may be the driver's. */
    const val LATE_SHARE = 0.01

    /** For an open-model trial: how much of the target rate was achieved; null for closed load. */
    fun rateShare(figures: Figures, targetPerSecond: Int?): Figures {
        val throughput = figures[Figure.THROUGHPUT]
        if (targetPerSecond == null || throughput == null) return Figures.NONE
        return Figures.of(Figure.TARGET_RATE_SHARE to throughput / targetPerSecond)
    }

    /** Open model: a trial that fell short of its target rate is flagged, not silently averaged. */
    fun rateFlags(figures: Figures, targetPerSecond: Int?): List<Flag> {
        val share = figures[Figure.TARGET_RATE_SHARE] ?: return emptyList()
        val dropped = figures[Figure.DROPPED_ITERATIONS] ?: 0.0
        if (share >= RATE_HELD && dropped == 0.0) return emptyList()
        return listOf(Flag.RateNotHeld(figures[Figure.THROUGHPUT] ?: 0.0, targetPerSecond!!, dropped))
    }

    /** An open-model trial holds its rate when it achieves at least this share of it (and drops nothing). */
    const val RATE_HELD = 0.97

    /** Figures of the gateway's `/benchmark/end` answer; the data-server's are null when the gateway could not read them. */
    fun fromGateway(end: WindowReport): Figures {
        val api = end.processes.apiServer
        val data = end.processes.dataServer
        return gcFigures(api.gc, API_GC) + gcFigures(data?.gc, DATA_GC) + Figures.of(
            Figure.HOP_P50 to end.latency.p50Ms,
            Figure.HOP_P99 to end.latency.p99Ms,
            Figure.HOP_AVG to end.latency.avgMs,
            Figure.API_CPU_US to api.cpuUsPerRequest,
            Figure.DATA_CPU_US to data?.cpuUsPerRequest,
            Figure.API_ALLOC to api.allocatedBytesPerRequest,
            Figure.DATA_ALLOC to data?.allocatedBytesPerRequest,
            Figure.API_GC_COUNT to api.gcCount.toDouble(),
            Figure.DATA_GC_COUNT to data?.gcCount?.toDouble(),
            Figure.API_GC_TIME to api.gcTimeMs.toDouble(),
            Figure.DATA_GC_TIME to data?.gcTimeMs?.toDouble(),
            Figure.API_PEAK_HEAP to api.peakHeapMb,
            Figure.DATA_PEAK_HEAP to data?.peakHeapMb,
        )
    }

    /** A server's figures of its collector's notifications: pauses, pause time, concurrent CPU, heap after GC. */
    private class GcFigures(val pauses: Figure, val pauseTime: Figure, val concurrentCpu: Figure, val heapAfter: Figure)

    private val API_GC = GcFigures(Figure.API_GC_PAUSES, Figure.API_GC_PAUSE_TIME, Figure.API_GC_CONCURRENT_CPU, Figure.API_HEAP_AFTER_GC)
    private val DATA_GC = GcFigures(
        Figure.DATA_GC_PAUSES,
        Figure.DATA_GC_PAUSE_TIME,
        Figure.DATA_GC_CONCURRENT_CPU,
        Figure.DATA_HEAP_AFTER_GC,
    )

    /** [gc]'s figures under [keys]; none when a server (or its snapshots) predates them, so they are missing rather than 0. */
    private fun gcFigures(gc: GcUsage?, keys: GcFigures): Figures = if (gc == null) {
        Figures.NONE
    } else {
        Figures.of(
            keys.pauses to gc.pauses.toDouble(),
            keys.pauseTime to gc.pauseTimeMs.toDouble(),
            keys.concurrentCpu to gc.concurrentCpuMs,
            keys.heapAfter to gc.heapAfterGcMb,
        )
    }
}
