package io.protobench.bench.crossover

import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.BenchmarkRunner
import io.protobench.bench.run.LabSource
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.text.Texts
import java.nio.file.Path
import java.time.Clock
import java.time.Duration
import java.time.Instant

/** Runs one point's scenario as its own run in [folder] and returns its record, whatever its status. */
fun interface PointRunner {
    fun run(n: Int, scenario: Scenario, folder: String): RunRecord
}

/**
 * A crossover search run for real: each point is a scenario run in its own folder
 * (`point-<n>-<value>/`, with its own run.json and report.md) by [points]; crossover.json
 * and crossover.md are rewritten after every point, so a search cut short keeps every
 * point it measured and says which one it was in.
 */
class CrossoverRun(
    private val plan: CrossoverPlan,
    private val store: CrossoverStore,
    private val points: PointRunner,
    private val seed: Long,
    private val clock: Clock = Clock.systemUTC(),
    private val progress: (String) -> Unit = {},
) {
    @Volatile
    private var record = CrossoverRecord(
        id = store.dir.fileName.toString(),
        pair = listOf(plan.a.label, plan.b.label),
        axis = plan.axis,
        from = plan.from,
        to = plan.to,
        resolution = plan.resolution,
        steps = plan.steps,
        edge = plan.edge,
        mode = plan.mode.id,
        figure = plan.figure.key,
        margin = plan.margin,
        fixed = plan.fixed,
        estimatedPointSeconds = plan.pointSeconds(),
        maxPoints = plan.maxPoints,
        seed = seed,
        startedAt = clock.instant().toString(),
        status = RunStatus.RUNNING,
    )

    /** The point being measured and its folder. */
    @Volatile
    private var current: Pair<Probe, String>? = null

    /** How the last point's run ended: an interrupted point makes an interrupted search. */
    @Volatile
    private var lastStatus: RunStatus? = null

    fun run(): CrossoverRecord {
        store.save(record)
        val hook = Thread { interrupted() }
        Runtime.getRuntime().addShutdownHook(hook)
        try {
            val search = CrossoverSearch(plan.axis, plan.from, plan.to, plan.resolution, plan.steps, plan.edge)
            val result = search.run(::measure) { points -> keep(record.copy(points = points)) }
            val status = when {
                !result.failed -> RunStatus.COMPLETE
                lastStatus == RunStatus.INTERRUPTED -> RunStatus.INTERRUPTED
                else -> RunStatus.FAILED
            }
            keep(
                record.copy(
                    points = result.points,
                    status = status,
                    stoppedBecause = result.stoppedBecause,
                    finishedAt = clock.instant().toString(),
                ),
            )
        } finally {
            runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        }
        return record
    }

    /**
     * The last word of a search stopped by a signal: the point in progress is recorded as
     * interrupted (its run folder keeps what it measured) and nothing saved later replaces it.
     */
    fun interrupted() {
        val r = record
        if (r.status != RunStatus.RUNNING) return
        val (probe, folder) = current ?: (null to null)
        val cut = probe?.takeIf { p -> r.points.none { it.n == p.n } }?.let {
            PointRecord(
                it.n,
                plan.axis.label(it.position),
                it.position,
                PointOutcome.FAILED,
                run = folder,
                failure = Texts.EN("crossover.failure.signal", folder),
            )
        }
        record = r.copy(
            points = r.points + listOfNotNull(cut),
            status = RunStatus.INTERRUPTED,
            finishedAt = clock.instant().toString(),
            stoppedBecause = probe?.let { Texts.EN("crossover.stop.interrupted-at", it.n, plan.axis.display(it.position)) }
                ?: Texts.EN("crossover.stop.interrupted"),
        )
        store.seal(record)
    }

    private fun keep(r: CrossoverRecord) {
        record = r
        store.save(r)
    }

    private fun measure(probe: Probe): PointMeasurement {
        val folder = "point-${probe.n}-${plan.axis.slug(probe.position)}"
        current = probe to folder
        progress(
            "crossover: point ${probe.n} of at most ${plan.maxPoints} at ${plan.axis.display(probe.position)} " +
                "(${store.dir.resolve(folder)})",
        )
        val started = clock.instant()
        fun seconds() = Duration.between(started, clock.instant()).toMillis() / 1000.0
        return try {
            val run = points.run(probe.n, plan.scenario(probe.n, probe.position), folder)
            lastStatus = run.status
            if (record.machine == RunEnvironment.NONE) record = record.copy(machine = run.environment.machine())
            val failure = if (run.status == RunStatus.COMPLETE) {
                null
            } else {
                Texts.EN("crossover.failure.run", run.status.name.lowercase(), run.failure ?: Texts.EN("crossover.failure.see-report"))
            }
            PointMeasurement(plan.verdict.decision(run), folder, seconds(), failure).also { m ->
                if (failure == null) {
                    progress(
                        "crossover: point ${probe.n} at ${plan.axis.display(probe.position)}: " +
                            "${m.decision?.let(io.protobench.bench.report.MarkdownReport::sentence) ?: "no decision"}",
                    )
                }
            }
        } catch (e: Exception) {
            PointMeasurement(null, folder, seconds(), "${e.javaClass.simpleName}: ${e.message}")
        } finally {
            current = null
        }
    }
}

/**
 * Points run by [BenchmarkRunner] on the lab [labs] opens (this machine's: real server JVMs and
 * the load driver), each point a run folder under [root] with its run.json and report.md (in
 * [texts]' language), judged by [verdict] (extra forks only while the pair is undecided
 * on the compared figure).
 */
class BenchmarkPoints(
    private val labs: LabSource,
    private val root: Path,
    private val verdict: PointVerdict,
    private val seed: Long,
    private val given: Map<String, String>,
    private val progress: (String) -> Unit,
    private val clock: Clock = Clock.systemUTC(),
    private val texts: Texts = Texts.EN,
) : PointRunner {
    override fun run(n: Int, scenario: Scenario, folder: String): RunRecord {
        val options = RunOptions(
            resultsRoot = root,
            // Both servers stop at once on OutOfMemoryError instead of answering with errors half-dead.
            jvmOptions = ServerHeap.DEFAULT_JVM_OPTIONS + "-XX:+ExitOnOutOfMemoryError",
            gatewayArguments = emptyList(),
            dataServerArguments = emptyList(),
            seed = seed + n,
            given = given + ("point" to n.toString()),
            folder = folder,
        )
        val store = BenchmarkRunner(labs, verdict.judge, clock, progress = progress, onFinished = ::writeReport).run(scenario, options)
        return RunStore.load(store.dir)
    }

    private fun writeReport(store: RunStore, record: RunRecord) {
        try {
            ReportWriter.write(store.dir, record, texts)
        } catch (e: Exception) {
            progress(
                "cannot write the report of ${store.dir} (${e.javaClass.simpleName}: ${e.message}); run.json is kept: " +
                    "rebuild it with `protobench report ${store.dir}`",
            )
        }
    }

    companion object {
        /** The search folder's name: `<time>-crossover`, as run folders are named. */
        fun folderName(at: Instant) = "${RunStore.stamp(at)}-crossover"
    }
}
