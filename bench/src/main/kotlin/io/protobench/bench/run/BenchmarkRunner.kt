package io.protobench.bench.run

import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.design.ForkRunner
import io.protobench.bench.design.Judge
import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.measure.ConditionRecord
import io.protobench.bench.measure.ExternalDatabaseFlags
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.ResumeRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.SoakSettings
import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.VariantPairs
import io.protobench.bench.scenario.Workload
import io.protobench.bench.scenario.toFile
import io.protobench.bench.text.Texts
import java.nio.file.Path
import java.time.Clock

/**
 * The run shell: the run folder and its run.json, the record of where it ran, the [ForkRunner]
 * on a lab from [labs], and the shutdown hook that seals the record and stops every child when
 * the run is interrupted. Everything that needs the machine is behind [LabSource].
 */
class BenchmarkRunner(
    private val labs: LabSource,
    private val judge: Judge,
    private val clock: Clock = Clock.systemUTC(),
    private val progress: (String) -> Unit = { System.err.println(it) },
    /** Called with the final record when the run ends, also when it is interrupted (e.g. to write the report). */
    private val onFinished: (RunStore, RunRecord) -> Unit = { _, _ -> },
    private val hooks: ShutdownHooks = ShutdownHooks.JVM,
) {
    /**
     * Runs [scenario]; with [resumed], continues that interrupted or abandoned run in its own
     * folder: every completed trial is kept, the fork that was cut short stays as it was
     * (its trials pair while their condition is below the minimum forks, [io.protobench.bench.design.Looks]),
     * and the planner goes on from the forks already done.
     * Bad input (a tool, jar, JDK, link, database or remote server the run cannot use) is
     * thrown before a results folder exists.
     */
    fun run(scenario: Scenario, options: RunOptions, resumed: RunStore? = null): RunStore =
        labs.prepare(scenario, options, progress).use { prepared ->
            val started = clock.instant()
            val store = resumed ?: RunStore.create(options.resultsRoot, options.folder ?: "${RunStore.stamp(started)}-${scenario.name}")
            prepared.open(store, scenario, options, progress).use { opened -> runOn(scenario, options, resumed, store, started, opened) }
        }

    private fun runOn(
        scenario: Scenario,
        options: RunOptions,
        resumed: RunStore?,
        store: RunStore,
        started: java.time.Instant,
        opened: OpenLab,
    ): RunStore {
        val initial = resumed?.let { resumedRecord(RunStore.load(it.dir), started) } ?: RunRecord(
            runId = store.dir.fileName.toString(),
            scenario = scenario.toRecord(),
            options = options.given,
            environment = opened.environment,
            startedAt = started.toString(),
            status = RunStatus.RUNNING,
            seed = options.seed,
            resume = ResumeRecord(
                scenario.toFile(), options.jvmOptions, options.gatewayArguments, options.dataServerArguments,
                options.pinning, options.serverJava?.toString(), options.network?.name, options.remote?.let(::remoteFlag),
                options.externalDatabase?.let { ExternalDatabaseFlags(it.jdbcUrl, it.user, it.schema) },
            ),
            externalDatabase = opened.externalDatabase,
            pinnedRates = options.pinnedRates,
        )
        store.save(initial)
        progress("results: ${store.dir}")

        val runner = ForkRunner(scenario, opened.lab, judge, clock, store::save, progress)
        val ending = RunEnding(store, onFinished)
        fun withStarted(record: RunRecord) = record.copy(environment = record.environment.copy(serverCommands = opened.serverCommands()))
        val hook = Thread {
            ending.signal()
            runner.stop()
            opened.stopChildren()
            val last = withStarted(runner.record ?: initial).sealed(RunStatus.INTERRUPTED, Texts.EN("failure.signal"))
            if (ending.endedBySignal(last)) System.err.println("interrupted: ${last.trials.size} trials kept in ${store.runJson}")
        }
        hooks.add(hook)
        var record = initial
        var rejected: ServerSettingRejected? = null
        try {
            record = runner.run(initial)
            val failure = outcomeFailure(record)
            record = record.sealed(if (failure == null) RunStatus.COMPLETE else RunStatus.FAILED, failure)
        } catch (e: Exception) {
            record = (runner.record ?: record).sealed(RunStatus.FAILED, e.message ?: e.javaClass.simpleName)
            if (!ending.signalled) progress("run failed: ${record.failure}")
            if (e is ServerSettingRejected) rejected = e
        } finally {
            opened.stopChildren()
        }
        val endedHere = ending.endedByRun(withStarted(record))
        hooks.remove(hook)
        // A signal ends this run: wait for the hook's record, so the caller reads the interrupted run.
        if (!endedHere) hook.join() else rejected?.let { throw it }
        return store
    }

    /** Why a run that ended on its own measured nothing, or null: forks that all failed, or trials that all did. */
    private fun outcomeFailure(record: RunRecord): String? = when {
        record.forks.none { it.status == ForkStatus.COMPLETE } -> Texts.EN("failure.no-fork")

        record.trials.none { it.error == null } ->
            Texts.EN("failure.every-trial", record.trials.firstNotNullOfOrNull { it.error } ?: Texts.EN("failure.no-trial"))

        else -> null
    }

    /** A record taken up again: running, its cut-short fork marked interrupted, the resumption noted. */
    private fun resumedRecord(record: RunRecord, at: java.time.Instant): RunRecord = record.copy(
        status = RunStatus.RUNNING,
        failure = null,
        finishedAt = null,
        planning = null,
        forks = record.forks.map {
            if (it.status == ForkStatus.RUNNING) it.copy(status = ForkStatus.INTERRUPTED, failure = Texts.EN("failure.cut-short")) else it
        },
        environment = record.environment.copy(resumedAt = record.environment.resumedAt.orEmpty() + at.toString()),
    )

    private fun RunRecord.sealed(status: RunStatus, failure: String?) =
        copy(status = status, failure = failure, finishedAt = clock.instant().toString())
}

fun Scenario.toRecord() = ScenarioRecord(
    name = name,
    description = description,
    mode = mode,
    conditions = conditions.map { c ->
        ConditionRecord(c.label, c.phases, forks = forksOf(c).takeIf { it != forks }, rounds = roundsOf(c).takeIf { it != rounds })
    },
    protocols = protocols.map { it.label },
    arms = armLabels,
    durationMs = duration.toMillis(),
    forks = forks,
    maxForks = maxForks,
    margin = margin,
    utilisation = utilisation,
    budgetMs = budget?.toMillis(),
    probes = probes,
    minRequests = minRequests,
    variants = variants,
    compareVariants = compareVariants.takeIf { it != VariantPairs.EVERY_PAIR },
    topology = topology,
    membersPerRequest = parts.map { it.workload }.filterIsInstance<Workload.Members>().firstOrNull()?.batch,
    soak = SoakSettings(
        DurationText.millis(soak.window),
        DurationText.millis(soak.min),
        DurationText.millis(soak.max),
        soak.tolerance,
        soak.vus,
    ),
    rounds = rounds,
    costRates = costRates,
    seedTools = seedTools,
)
