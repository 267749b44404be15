package io.protobench.bench.runner

import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.scenario.Load
import io.protobench.bench.scenario.Scenario
import java.nio.file.Files
import java.nio.file.Path
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

/** How to run, beyond the scenario itself. */
data class RunOptions(
    val resultsRoot: Path,
    val restartServersEachRound: Boolean,
    val jvmOptions: List<String>,
    val gatewayArguments: List<String>,
    val dataServerArguments: List<String>,
    val shuffleSeed: Long,
    /** Pin k6 and the servers to disjoint CPU sets when the machine has enough cores. */
    val pinning: Boolean = true,
    /** The options as the user gave them, recorded in run.json. */
    val given: Map<String, String>,
)

/**
 * Runs a scenario: starts the servers, warms every cell up, then measures the
 * trials in shuffled rounds, saving run.json after each one. An interrupted run
 * (Ctrl-C) is saved as "interrupted" with every trial measured so far.
 */
class BenchmarkRunner(
    private val projectDir: Path,
    private val clock: Clock = Clock.systemUTC(),
    private val progress: (String) -> Unit = { System.err.println(it) },
    /** Called with the final record when the run ends, also when it is interrupted (e.g. to write the report). */
    private val onFinished: (RunStore, RunRecord) -> Unit = { _, _ -> },
) {
    private val toolchain = Toolchain(projectDir)
    private val cpu = CpuAccounting(ticksPerSecond = CpuAccounting.detectTicksPerSecond())

    fun run(scenario: Scenario, options: RunOptions): RunStore {
        val started = clock.instant()
        val store = RunStore(options.resultsRoot.resolve("${stamp(started)}-${scenario.name}"))
        Files.createDirectories(store.dir)
        val k6 = toolchain.k6(progress)
        val cores = Runtime.getRuntime().availableProcessors()
        val placement = CpuPlacement.plan(cores, options.pinning)
        val script = extractScript(store.dir)
        var record = RunRecord(
            runId = store.dir.fileName.toString(),
            scenario = scenario.toRecord(),
            options = options.given,
            environment = Environment.capture(projectDir, toolchain.k6Version(k6), options.jvmOptions) +
                ("placement" to placement.note),
            startedAt = started.toString(),
            status = "running",
            shuffleSeed = options.shuffleSeed,
        )
        store.save(record)
        progress("results: ${store.dir}")

        val launcher = ServerLauncher(toolchain, store.dir.resolve("logs"), options.jvmOptions,
            options.gatewayArguments, options.dataServerArguments, placement)
        val k6Runner = K6Runner(k6, store.dir.resolve("logs/k6.log"), placement)
        var servers: ServerSet? = null
        val stopping = java.util.concurrent.atomic.AtomicBoolean(false)
        val interrupted = Thread {
            stopping.set(true)
            servers?.close()
            val last = record.copy(status = "interrupted", failure = "stopped by a signal (Ctrl-C or SIGTERM)",
                finishedAt = clock.instant().toString())
            store.seal(last)
            runCatching { onFinished(store, last) }
            System.err.println("interrupted: ${last.trials.size} trials kept in ${store.runJson}")
        }
        Runtime.getRuntime().addShutdownHook(interrupted)
        try {
            val first = launcher.start()
            servers = first
            record = record.copy(environment = record.environment + ("serverCommands" to first.commands))
            val cells = CellRunner(first, k6Runner, cpu, script, store.dir, clock)
            val warmUp = WarmUp(cells, progress)
            record = record.copy(warmups = warmUp.run(scenario))
            store.save(record)
            val plan = TrialPlan.of(scenario.cells, scenario.repetitions, options.shuffleSeed)
            for (planned in plan) {
                if (options.restartServersEachRound && planned.round > 1 && isFirstOfRound(planned, plan)) {
                    progress("round ${planned.round}: restarting servers")
                    servers?.close()
                    val fresh = launcher.start()
                    servers = fresh
                    cells.servers = fresh
                    record = record.copy(warmups = record.warmups + warmUp.run(scenario))
                }
                progress(progressLine(planned, plan.size, scenario, started))
                record = record.copy(trials = record.trials + cells.trial(planned, scenario))
                store.save(record)
            }
            record = record.copy(status = "complete")
        } catch (e: Exception) {
            record = record.copy(status = "failed", failure = e.message ?: e.javaClass.simpleName)
            if (!stopping.get()) progress("run failed: ${record.failure}")
        } finally {
            servers?.close()
            record = record.copy(finishedAt = clock.instant().toString())
            store.save(record)
            runCatching { Runtime.getRuntime().removeShutdownHook(interrupted) }
        }
        // An interrupted run was finished by the shutdown hook; this thread is only unwinding.
        if (!store.sealed) onFinished(store, record)
        return store
    }

    private fun isFirstOfRound(planned: PlannedTrial, plan: List<PlannedTrial>) =
        plan.first { it.round == planned.round } == planned

    private fun progressLine(planned: PlannedTrial, total: Int, scenario: Scenario, started: Instant): String {
        val elapsed = Duration.between(started, clock.instant())
        val perTrialMs = scenario.duration.toMillis() + (Scenario.K6_OVERHEAD_SECONDS * 1000).toLong()
        val remaining = Duration.ofMillis((total - planned.sequence + 1) * perTrialMs)
        return "[${planned.sequence}/$total] ${planned.cell.label} round ${planned.round}/${scenario.repetitions}" +
            "  elapsed ${minutes(elapsed)}  ETA ${minutes(remaining)}"
    }

    private fun minutes(d: Duration) = "%dm%02ds".format(d.toMinutes(), d.toSecondsPart())

    private fun extractScript(dir: Path): Path {
        val script = dir.resolve("protobench.js")
        javaClass.getResourceAsStream("/k6/protobench.js")!!.use { Files.copy(it, script) }
        return script
    }

    private fun stamp(instant: Instant) =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(instant)
}

fun Scenario.toRecord() = ScenarioRecord(
    name = name,
    description = description,
    seedPhase = seedPhase,
    conditions = conditions.map { it.label },
    protocols = protocols.map { it.label },
    controls = if (noiseControl) listOf(io.protobench.bench.scenario.Cell.controlLabel(protocols.first().label)) else emptyList(),
    loadModel = when (load) {
        is Load.Closed -> "closed"
        is Load.Open -> "open"
    },
    durationMs = duration.toMillis(),
    warmupMs = warmup.toMillis(),
    repetitions = repetitions,
    warmupRounds = warmupRounds,
)
