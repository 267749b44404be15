package io.protobench.bench.runner

import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.measure.WarmupRecord
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Load
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
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
) {
    private val toolchain = Toolchain(projectDir)

    fun run(scenario: Scenario, options: RunOptions): RunStore {
        val started = clock.instant()
        val store = RunStore(options.resultsRoot.resolve("${stamp(started)}-${scenario.name}"))
        Files.createDirectories(store.dir)
        val k6 = toolchain.k6(progress)
        val script = extractScript(store.dir)
        var record = RunRecord(
            runId = store.dir.fileName.toString(),
            scenario = scenario.toRecord(),
            options = options.given,
            environment = Environment.capture(projectDir, toolchain.k6Version(k6), options.jvmOptions),
            startedAt = started.toString(),
            status = "running",
            shuffleSeed = options.shuffleSeed,
        )
        store.save(record)
        progress("results: ${store.dir}")

        val launcher = ServerLauncher(toolchain, store.dir.resolve("logs"), options.jvmOptions,
            options.gatewayArguments, options.dataServerArguments)
        val k6Runner = K6Runner(k6, store.dir.resolve("logs/k6.log"))
        var servers: ServerSet? = null
        val interrupted = Thread {
            servers?.close()
            store.save(record.copy(status = "interrupted", finishedAt = clock.instant().toString()))
        }
        Runtime.getRuntime().addShutdownHook(interrupted)
        try {
            val first = launcher.start()
            servers = first
            val session = Session(first, k6Runner, script, store.dir)
            record = record.copy(warmups = session.warmUp(scenario))
            store.save(record)
            val plan = TrialPlan.of(scenario.cells, scenario.repetitions, options.shuffleSeed)
            for (planned in plan) {
                if (options.restartServersEachRound && planned.round > 1 && isFirstOfRound(planned, plan)) {
                    progress("round ${planned.round}: restarting servers")
                    servers?.close()
                    val fresh = launcher.start()
                    servers = fresh
                    session.servers = fresh
                    record = record.copy(warmups = record.warmups + session.warmUp(scenario))
                }
                progress(progressLine(planned, plan.size, scenario, started))
                record = record.copy(trials = record.trials + session.trial(planned, scenario))
                store.save(record)
            }
            record = record.copy(status = "complete")
        } catch (e: RuntimeException) {
            record = record.copy(status = "failed", failure = e.message)
            progress("run failed: ${e.message}")
        } finally {
            servers?.close()
            record = record.copy(finishedAt = clock.instant().toString())
            store.save(record)
            runCatching { Runtime.getRuntime().removeShutdownHook(interrupted) }
        }
        return store
    }

    /** Runs cells against one set of servers. */
    private inner class Session(var servers: ServerSet, val k6: K6Runner, val script: Path, val dir: Path) {
        private val expectedSizes = mutableMapOf<Pair<Target, Protocol>, Long?>()

        fun warmUp(scenario: Scenario): List<WarmupRecord> {
            if (scenario.warmup.isZero) return emptyList()
            return scenario.cells.map { cell ->
                progress("warm-up ${cell.label} (${scenario.warmup.seconds} s, not counted)")
                try {
                    val summary = k6.run(invocation(cell, scenario.warmup))
                    WarmupRecord(cell.condition.label, cell.protocol.label,
                        summary.path("metrics").path("http_reqs").path("values").path("count").asLong(), null)
                } catch (e: RuntimeException) {
                    WarmupRecord(cell.condition.label, cell.protocol.label, null, e.message)
                }
            }
        }

        fun trial(planned: PlannedTrial, scenario: Scenario): TrialRecord {
            val cell = planned.cell
            val startedAt = clock.instant().toString()
            val gateway = GatewayClient(servers.gatewayUrl)
            return try {
                gateway.startWindow(cell.protocol.label, "${scenario.name} ${cell.condition.label} round ${planned.round}")
                val summary = k6.run(invocation(cell, scenario.duration))
                val end = gateway.endWindow()
                TrialRecord(cell.condition.label, cell.protocol.label, planned.round, planned.sequence, startedAt,
                    TrialFigures.from(summary, end), summary.path("metrics"), end)
            } catch (e: RuntimeException) {
                runCatching { gateway.endWindow() }
                TrialRecord(cell.condition.label, cell.protocol.label, planned.round, planned.sequence, startedAt,
                    emptyMap(), null, null, error = e.message)
            }
        }

        private fun invocation(cell: Cell, duration: Duration) = K6Invocation.of(
            script, servers.gatewayUrl, cell, duration, expectedValue(cell),
            dir.resolve("logs/k6-summary.json"),
        )

        /** The exact payloadSize / serializedSize every answer of this cell must report. */
        private fun expectedValue(cell: Cell): Long? = expectedSizes.getOrPut(cell.condition.target to cell.protocol) {
            when (val target = cell.condition.target) {
                is Target.Size -> PayloadSize.parse(target.size).bytes.toLong()
                is Target.Level -> levelBytes(target.complexity, cell.protocol)
            }
        }

        private fun levelBytes(level: String, protocol: Protocol): Long? {
            val field = if (protocol == Protocol.HTTP_JSON) "jsonBytes" else "protobufBytes"
            val shapes = GatewayClient(servers.gatewayUrl).complexities()
            return shapes.findParents("level").firstOrNull { it.path("level").asText() == level }
                ?.path(field)?.takeIf { it.isNumber }?.asLong()
        }
    }

    private fun isFirstOfRound(planned: PlannedTrial, plan: List<PlannedTrial>) =
        plan.first { it.round == planned.round } == planned

    private fun progressLine(planned: PlannedTrial, total: Int, scenario: Scenario, started: Instant): String {
        val elapsed = Duration.between(started, clock.instant())
        val perTrial = scenario.duration.seconds + Scenario.K6_START_SECONDS
        val remaining = Duration.ofSeconds((total - planned.sequence + 1) * perTrial)
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
    loadModel = when (load) {
        is Load.Closed -> "closed"
        is Load.Open -> "open"
    },
    durationMs = duration.toMillis(),
    warmupMs = warmup.toMillis(),
    repetitions = repetitions,
)
