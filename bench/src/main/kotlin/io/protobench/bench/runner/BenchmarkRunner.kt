package io.protobench.bench.runner

import io.protobench.bench.scenario.Topology
import io.protobench.bench.measure.ConditionRecord
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ResumeRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.network.NetworkProfile
import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.SeedTool
import io.protobench.bench.scenario.Workload
import io.protobench.bench.database.PostgresBinaries
import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.database.ExternalDatabaseRefused
import io.protobench.bench.database.RunDatabases
import io.protobench.bench.measure.ExternalDatabaseFlags
import io.protobench.bench.scenario.toFile
import java.nio.file.Files
import java.nio.file.Path
import java.time.Clock

/** How to run, beyond the scenario itself. */
data class RunOptions(
    val resultsRoot: Path,
    val jvmOptions: List<String>,
    val gatewayArguments: List<String>,
    val dataServerArguments: List<String>,
    val seed: Long,
    /** Pin k6 and the servers to disjoint CPU sets when the machine has enough cores. */
    val pinning: Boolean = true,
    /** The options as the user gave them, recorded in run.json. */
    val given: Map<String, String>,
    /** The java binary for the servers; null = the JVM running the CLI. */
    val serverJava: Path? = null,
    /** The run folder's name under [resultsRoot]; null = `<time>-<scenario>`. */
    val folder: String? = null,
    /** The link between the gateway and the data-server; null = both on loopback. */
    val network: NetworkProfile? = null,
    /** Servers another host runs, measured instead of starting them here; null = both started here. */
    val remote: Remote? = null,
    /** The PostgreSQL database the members are written to instead of H2 or a throw-away cluster (`--db-url`); null = none. */
    val externalDatabase: ExternalDatabase? = null,
)

/**
 * Wires the real lab to the [ForkRunner] for the CLI: the run folder and its run.json,
 * the environment record, k6 and the servers, and the shutdown hook that seals the
 * record and stops every child when the run is interrupted.
 */
class BenchmarkRunner(
    private val projectDir: Path,
    private val judge: Judge,
    private val clock: Clock = Clock.systemUTC(),
    private val progress: (String) -> Unit = { System.err.println(it) },
    /** Called with the final record when the run ends, also when it is interrupted (e.g. to write the report). */
    private val onFinished: (RunStore, RunRecord) -> Unit = { _, _ -> },
) {
    /**
     * Runs [scenario]; with [resumed], continues that interrupted or abandoned run in its own
     * folder: every completed trial is kept, the fork that was cut short stays as it was
     * (its trials still pair), and the planner goes on from the forks already done.
     */
    fun run(scenario: Scenario, options: RunOptions, resumed: RunStore? = null): RunStore {
        val toolchain = Toolchain(projectDir, options.serverJava)
        ChildProcesses.reapStale(options.resultsRoot).forEach(progress)
        options.externalDatabase?.let { externalRefusal(scenario, options)?.let { throw ExternalDatabaseRefused(it) } }
        // Remote servers first: an unreachable host is told within 10 s, before any tool is installed.
        val served = options.remote?.let { checkRemote(it, scenario, options) }
        // So is a database that refuses the login or whose schema the run may not use.
        val externalVersion = options.externalDatabase?.check()
        // Missing tools are bad input: found out before a results folder exists.
        toolchain.serverJar("data-server")
        toolchain.serverJar("api-server")
        val k6 = toolchain.k6(progress)
        val seedTools = SeedTool.entries.filter { scenario.seedTools.isNotEmpty() && it.protocol in scenario.protocols }
            .associateWith { toolchain.goInstalled(it.label, it.goPackage, it.version, progress) }
        val variantJdks = variantJdks(scenario)
        // A profile this machine cannot apply, or a link that measures off, is found out
        // before a results folder exists; the link lives until the run is over.
        val postgres = RunDatabases.programs(scenario, options.externalDatabase)
        val networks = HopNetworks.open(scenario.variants, options.network, progress)
        try {
            val started = clock.instant()
            val store = resumed ?: RunStore.create(options.resultsRoot, options.folder ?: "${RunStore.stamp(started)}-${scenario.name}")
            val opened = if (options.externalDatabase != null) RunDatabases.external(options.externalDatabase, externalVersion!!, progress)
                else RunDatabases.open(postgres, store.dir, progress)
            return opened.use { databases ->
                runOn(scenario, options, resumed, store, started, Outside(toolchain, k6, seedTools, variantJdks, networks, databases, served))
            }
        } finally {
            networks.close()
        }
    }

    /**
     * Remote servers that cannot serve this run, or do not answer within 10 s, are bad input.
     * The answer is `serve`'s control when it answers, to restart them before each fork.
     */
    private fun checkRemote(remote: Remote, scenario: Scenario, options: RunOptions): ServedControl? {
        remoteRefusal(remote, scenario, options)?.let { throw InvalidRemote("with remote servers (${remote.text}): $it") }
        RemoteCheck().problem(remote)?.let { throw RemoteUnreachable(it) }
        val control = ServedControl(remote.controlUrl).takeIf { it.available() }
        val restarts = if (control != null) "restarted before every fork by serve's control at ${control.url}"
            else "not restarted between forks: no control of serve answers at ${remote.controlUrl} (serve --no-restarts, or an older protobench)"
        progress("remote ${if (remote is Remote.Gateway) "gateway" else "data-server"} ${remote.text} answers; $restarts")
        return control
    }

    /**
     * Why this run cannot take an external database, or null: it needs a scenario that writes
     * and a data-server started here (a served one writes to the database its host gives it).
     */
    private fun externalRefusal(scenario: Scenario, options: RunOptions): String? = when {
        !scenario.writes -> "--db-url: scenario ${scenario.name} creates no members, so it uses no database (scenarios with members: do, e.g. writes or projectD)"
        options.remote != null -> "--db-url with remote servers (${options.remote.text}): the served data-server writes to the database its own host gives it"
        else -> null
    }

    /** What a run uses besides its scenario and options, all found or started before the first fork. */
    private class Outside(
        val toolchain: Toolchain, val k6: Path, val seedTools: Map<SeedTool, Path>,
        val variantJdks: Map<String, Jdk>, val networks: HopNetworks, val databases: RunDatabases, val served: ServedControl?,
    )

    private fun runOn(scenario: Scenario, options: RunOptions, resumed: RunStore?, store: RunStore, started: java.time.Instant, outside: Outside): RunStore {
        val toolchain = outside.toolchain
        val k6 = outside.k6
        val variantJdks = outside.variantJdks
        val networks = outside.networks
        val databases = outside.databases
        val children = ChildProcesses(store.dir.resolve(ChildProcesses.FILE_NAME))
        val processes = processesHere(scenario.topology, options.remote)
        val placement = CpuPlacement.plan(Runtime.getRuntime().availableProcessors(), options.pinning, processes = processes)
        val script = extractScript(store.dir)
        val initial = resumed?.let { resumedRecord(RunStore.load(it.dir), started) } ?: RunRecord(
            runId = store.dir.fileName.toString(),
            scenario = scenario.toRecord(),
            options = options.given,
            environment = Environment.capture(projectDir, toolchain.k6Version(k6), options.jvmOptions, processes) +
                mapOf("placement" to placement.note, "childEnvironment" to ChildEnvironment.inherited().keys.toList(),
                    "serverJava" to toolchain.java.toString(), "serverJdk" to toolchain.javaVersion()) +
                variantJdks.mapKeys { (name, _) -> "serverJdk · $name" }.mapValues { (_, jdk) -> jdk.toString() } +
                networks.records(scenario.variants) + databases.records() + remoteRecord(options.remote, outside.served != null),
            startedAt = started.toString(),
            status = RunStatus.RUNNING,
            seed = options.seed,
            resume = ResumeRecord(scenario.toFile(), options.jvmOptions, options.gatewayArguments, options.dataServerArguments,
                options.pinning, options.serverJava?.toString(), options.network?.name, options.remote?.let(::remoteFlag),
                options.externalDatabase?.let { ExternalDatabaseFlags(it.jdbcUrl, it.user, it.schema) }),
            externalDatabase = databases.externalRecord(scenario),
        )
        store.save(initial)
        progress("results: ${store.dir}")

        // k6's log lives here even when no server is started on this machine (a remote gateway).
        Files.createDirectories(store.dir.resolve("logs"))
        val launcher = ServerLauncher(toolchain, store.dir.resolve("logs"), options.jvmOptions,
            options.gatewayArguments, options.dataServerArguments + seedSchema(scenario), placement, children,
            variantJava = variantJdks.mapValues { (_, jdk) -> jdk.java }, networks = networks, writes = scenario.writes, databases = databases,
            remote = options.remote, servedControl = outside.served, progress = progress)
        val lab = LocalLab(launcher, K6Runner(k6, store.dir.resolve("logs/k6.log"), placement, children),
            CpuAccounting(ticksPerSecond = CpuAccounting.detectTicksPerSecond()), script, store.dir, scenario.mode, scenario.topology,
            outside.seedTools.takeIf { it.isNotEmpty() }?.let { SeedToolRunner(it, store.dir.resolve("logs"), children) })
        val runner = ForkRunner(scenario, lab, judge, clock, store::save, progress)
        val ending = RunEnding(store, onFinished)
        fun withCommands(record: RunRecord) = record.copy(environment = record.environment + ("serverCommands" to lab.lastCommands))
        val hook = Thread {
            ending.signal()
            runner.stop()
            children.killAll()
            val last = withCommands(runner.record ?: initial).sealed(RunStatus.INTERRUPTED, "stopped by a signal (Ctrl-C or SIGTERM)")
            if (ending.endedBySignal(last)) System.err.println("interrupted: ${last.trials.size} trials kept in ${store.runJson}")
        }
        Runtime.getRuntime().addShutdownHook(hook)
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
            children.killAll()
        }
        val endedHere = ending.endedByRun(withCommands(record))
        // Refused while the JVM shuts down; harmless then: the hook finds the run ended, or ends it itself.
        runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
        // A signal ends this run: wait for the hook's record, so the caller reads the interrupted run.
        if (!endedHere) hook.join() else rejected?.let { throw it }
        return store
    }

    /**
     * Seed 003's schema for a run of its tools: no unique index on email, because hey and
     * ghz post one body over and over (the seed's server took every copy as a new member).
     */
    private fun seedSchema(scenario: Scenario): List<String> =
        if (scenario.seedTools.isEmpty()) emptyList() else listOf("--protobench.data.members.unique-emails=false")

    /** Why a run that ended on its own measured nothing, or null: forks that all failed, or trials that all did. */
    private fun outcomeFailure(record: RunRecord): String? = when {
        record.forks.none { it.status == ForkStatus.COMPLETE } -> "no fork completed; see the fork failures"
        record.trials.none { it.error == null } ->
            "every trial failed, the first with: ${record.trials.firstNotNullOfOrNull { it.error } ?: "no trial ran"}"
        else -> null
    }

    /** The processes this machine runs, which share its cores: no server another host runs. */
    private fun processesHere(topology: Topology, remote: Remote?): List<String> {
        val started = if (topology == Topology.DIRECT) CpuPlacement.DIRECT_PROCESSES else CpuPlacement.PROCESSES
        return when (remote) {
            null -> started
            is Remote.DataServer -> started - "data-server"
            is Remote.Gateway -> listOf("k6")
        }
    }

    /** run.json's environment: which server runs elsewhere, at what address, and whether each fork restarts it. */
    private fun remoteRecord(remote: Remote?, restarted: Boolean): Map<String, Any?> = when (remote) {
        null -> emptyMap()
        is Remote.DataServer -> mapOf(REMOTE_KEY to mapOf("dataServer" to remote.text, RESTARTED_KEY to restarted))
        is Remote.Gateway -> mapOf(REMOTE_KEY to mapOf("gateway" to remote.text, RESTARTED_KEY to restarted))
    }

    /** The JDK of each variant that names one; [NoSuchJdk] naming the variant and the JDKs installed when one is missing. */
    private fun variantJdks(scenario: Scenario): Map<String, Jdk> = scenario.variants.mapNotNull { variant ->
        variant.jdk?.let { choice ->
            try {
                variant.name to Jdks().resolve(choice)
            } catch (e: NoSuchJdk) {
                throw NoSuchJdk("variant ${variant.name}, jdk $choice: ${e.message}")
            }
        }
    }.toMap()

    /** A record taken up again: running, its cut-short fork marked interrupted, the resumption noted. */
    private fun resumedRecord(record: RunRecord, at: java.time.Instant): RunRecord = record.copy(
        status = RunStatus.RUNNING, failure = null, finishedAt = null, planning = null,
        forks = record.forks.map { if (it.status == ForkStatus.RUNNING) it.copy(status = ForkStatus.INTERRUPTED, failure = "the run was cut short") else it },
        environment = record.environment + ("resumedAt" to ((record.environment["resumedAt"] as? List<*>).orEmpty() + at.toString())),
    )

    private fun RunRecord.sealed(status: RunStatus, failure: String?) =
        copy(status = status, failure = failure, finishedAt = clock.instant().toString())

    private fun extractScript(dir: Path): Path {
        val script = dir.resolve("protobench.js")
        javaClass.getResourceAsStream("/k6/protobench.js")!!.use { Files.copy(it, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING) }
        return script
    }
}

/** run.json's environment key of the remote servers (see [Remote]). */
const val REMOTE_KEY = "remote"

/** Under [REMOTE_KEY]: whether `serve` restarted the remote servers before every fork. */
const val RESTARTED_KEY = "restartedPerFork"

/** The command-line form of [remote], as `resume` gives it back: `--data-server HOST:HTTP:GRPC` or `--gateway URL`. */
fun remoteFlag(remote: Remote): String = when (remote) {
    is Remote.DataServer -> "--data-server ${remote.text}"
    is Remote.Gateway -> "--gateway ${remote.text}"
}

/** [remoteFlag] read back. */
fun remoteOfFlag(flag: String): Remote {
    val (name, value) = flag.split(' ', limit = 2)
    return if (name == "--gateway") Remote.gateway(value) else Remote.dataServer(value)
}

fun Scenario.toRecord() = ScenarioRecord(
    name = name,
    description = description,
    mode = mode.id,
    conditions = conditions.map { ConditionRecord(it.label, it.phases) },
    protocols = protocols.map { it.label },
    arms = armLabels,
    durationMs = duration.toMillis(),
    forks = forks,
    maxForks = maxForks,
    margin = margin,
    utilisation = utilisation,
    budgetMs = budget?.toMillis(),
    probes = probes.id,
    minRequests = minRequests,
    variants = variants,
    topology = topology.id,
    membersPerRequest = parts.map { it.workload }.filterIsInstance<Workload.Members>().firstOrNull()?.batch,
    soak = mapOf("window" to DurationText.k6(soak.window), "min" to DurationText.k6(soak.min),
        "max" to DurationText.k6(soak.max), "tolerance" to soak.tolerance, "vus" to soak.vus),
    rounds = rounds,
    costRates = costRates,
    seedTools = seedTools,
)
