package io.protobench.bench.lab

import io.protobench.bench.database.ExternalDatabaseRefused
import io.protobench.bench.database.RunDatabases
import io.protobench.bench.design.Lab
import io.protobench.bench.lab.launch.CpuPlacement
import io.protobench.bench.lab.launch.DriverProcess
import io.protobench.bench.lab.launch.Jdk
import io.protobench.bench.lab.launch.Jdks
import io.protobench.bench.lab.launch.NoSuchJdk
import io.protobench.bench.lab.launch.SeedToolRunner
import io.protobench.bench.lab.launch.ServerLauncher
import io.protobench.bench.lab.launch.Toolchain
import io.protobench.bench.lab.remote.RemoteCheck
import io.protobench.bench.lab.remote.RemoteUnreachable
import io.protobench.bench.lab.remote.ServedControl
import io.protobench.bench.lab.remote.remoteRefusal
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.ExternalDatabaseRecord
import io.protobench.bench.measure.RemoteServersRecord
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.message.MessagePreparation
import io.protobench.bench.message.PreparedMessage
import io.protobench.bench.network.HopNetworks
import io.protobench.bench.process.ChildEnvironment
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.run.InvalidRemote
import io.protobench.bench.run.LabSource
import io.protobench.bench.run.OpenLab
import io.protobench.bench.run.PreparedLab
import io.protobench.bench.run.Remote
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.SeedTool
import io.protobench.bench.scenario.Topology
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/**
 * This machine as a lab: the servers' jars and JVMs, the load driver (and seed 003's tools), network links,
 * PostgreSQL clusters or the user's database, remote servers, and the ledger of child processes.
 */
class LocalLabSource(private val projectDir: Path) : LabSource {
    override fun prepare(scenario: Scenario, options: RunOptions, progress: (String) -> Unit): PreparedLab {
        val toolchain = Toolchain(projectDir, options.serverJava)
        ChildProcesses.reapStale(options.resultsRoot).forEach(progress)
        options.externalDatabase?.let { externalRefusal(scenario, options)?.let { throw ExternalDatabaseRefused(it) } }
        // Remote servers first: an unreachable host is told within 10 s, before any tool is installed.
        val served = options.remote?.let { checkRemote(it, scenario, options, progress) }
        // So is a database that refuses the login or whose schema the run may not use.
        val externalVersion = options.externalDatabase?.check()
        // Missing tools are bad input: found out before a results folder exists.
        toolchain.serverJar("data-server")
        toolchain.serverJar("api-server")
        val driverJar = toolchain.serverJar("load-driver")
        val seedTools = SeedTool.entries.filter { scenario.seedTools.isNotEmpty() && it.protocol in scenario.protocols }
            .associateWith { toolchain.goInstalled(it.label, it.goPackage, it.version, progress) }
        val variantJdks = variantJdks(scenario)
        val postgres = RunDatabases.programs(scenario, options.externalDatabase)
        // A profile this machine cannot apply, or a link that measures off, is found out here too;
        // the link lives until the run is over.
        val networks = HopNetworks.open(scenario.variants, options.network, progress)
        return Prepared(toolchain, driverJar, seedTools, variantJdks, networks, served) { store ->
            if (options.externalDatabase != null) {
                RunDatabases.external(options.externalDatabase, externalVersion!!, progress)
            } else {
                RunDatabases.open(postgres, store.dir, progress)
            }
        }
    }

    /**
     * Remote servers that cannot serve this run, or do not answer within 10 s, are bad input.
     * The answer is `serve`'s control when it answers, to restart them before each fork.
     */
    private fun checkRemote(remote: Remote, scenario: Scenario, options: RunOptions, progress: (String) -> Unit): ServedControl? {
        remoteRefusal(remote, scenario, options)?.let { throw InvalidRemote("with remote servers (${remote.text}): $it") }
        RemoteCheck().problem(remote)?.let { throw RemoteUnreachable(it) }
        val control = ServedControl(remote.controlUrl).takeIf { it.available() }
        val restarts = if (control != null) {
            "restarted before every fork by serve's control at ${control.url}"
        } else {
            "not restarted between forks: no control of serve answers at ${remote.controlUrl} " +
                "(serve --no-restarts, or an older protobench)"
        }
        progress("remote ${if (remote is Remote.Gateway) "gateway" else "data-server"} ${remote.text} answers; $restarts")
        return control
    }

    /**
     * Why this run cannot take an external database, or null: it needs a scenario that writes
     * and a data-server started here (a served one writes to the database its host gives it).
     */
    private fun externalRefusal(scenario: Scenario, options: RunOptions): String? = when {
        !scenario.writes ->
            "--db-url: scenario ${scenario.name} creates no members, so it uses no database " +
                "(scenarios with members: do, e.g. writes or projectD)"

        options.remote != null ->
            "--db-url with remote servers (${options.remote.text}): " +
                "the served data-server writes to the database its own host gives it"

        else -> null
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

    /** What a run uses besides its scenario and options, all found or started before the first fork. */
    private inner class Prepared(
        val toolchain: Toolchain,
        val driverJar: Path,
        val seedTools: Map<SeedTool, Path>,
        val variantJdks: Map<String, Jdk>,
        val networks: HopNetworks,
        val served: ServedControl?,
        val openDatabases: (RunStore) -> RunDatabases,
    ) : PreparedLab {
        override fun open(store: RunStore, scenario: Scenario, options: RunOptions, progress: (String) -> Unit): OpenLab {
            val databases = openDatabases(store)
            try {
                return Opened(this, databases, store, scenario, options, progress)
            } catch (e: Exception) {
                databases.close()
                throw e
            }
        }

        override fun close() = networks.close()
    }

    private inner class Opened(
        prepared: Prepared,
        private val databases: RunDatabases,
        store: RunStore,
        scenario: Scenario,
        options: RunOptions,
        progress: (String) -> Unit,
    ) : OpenLab {
        private val children = ChildProcesses(store.dir.resolve(ChildProcesses.FILE_NAME))
        private val processes = processesHere(scenario.topology, options.remote)
        private val placement = CpuPlacement.plan(Runtime.getRuntime().availableProcessors(), options.pinning, processes = processes)
        private val local: LocalLab

        /** The user's message, checked and built into the run's folder before any server starts (null: the lab's own payloads). */
        private val message: PreparedMessage? = scenario.message?.let { m ->
            progress("message: building ${m.type} from ${m.proto} (protoc's classes and the plain model)")
            MessagePreparation.prepare(Path.of(m.proto), m.type, Path.of(m.sample), m.includes.map(Path::of), store.dir.resolve("message"))
        }

        override val environment: RunEnvironment = with(prepared) {
            Environment.capture(projectDir, loadGenerator(prepared, scenario.topology), options.jvmOptions, processes).copy(
                placement = placement.note, childEnvironment = ChildEnvironment.inherited().keys.toList(),
                serverJava = toolchain.java.toString(), serverJdk = toolchain.javaVersion(),
                serverJdkByVariant = variantJdks.mapValues { (_, jdk) -> jdk.toString() },
                network = networks.runRecord(), networkByVariant = networks.variantRecords(scenario.variants),
                postgresql = databases.clusterRecord(), remote = remoteRecord(options.remote, served != null),
                message = message?.record,
            )
        }

        override val externalDatabase: ExternalDatabaseRecord? = databases.externalRecord(scenario)

        init {
            val logs = Files.createDirectories(store.dir.resolve("logs")) // the driver's log lives here even when no server is started here
            val launcher = ServerLauncher(
                prepared.toolchain, logs, options.jvmOptions,
                options.gatewayArguments + message?.gatewayArguments().orEmpty() + hopClientArguments(scenario),
                options.dataServerArguments + seedSchema(scenario) + message?.dataServerArguments().orEmpty(),
                placement,
                children,
                variantJava = prepared.variantJdks.mapValues { (_, jdk) -> jdk.java }, networks = prepared.networks,
                writes = scenario.writes,
                databases = databases, remote = options.remote, servedControl = prepared.served, progress = progress,
            )
            val driverLog = logs.resolve("driver.log")
            local = LocalLab(
                launcher,
                { DriverProcess.start(prepared.toolchain.java, prepared.driverJar, driverLog, placement, children) },
                CpuAccounting(ticksPerSecond = CpuAccounting.detectTicksPerSecond()),
                store.dir,
                scenario.mode,
                scenario.topology,
                prepared.seedTools.takeIf { it.isNotEmpty() }?.let { SeedToolRunner(it, logs, children) },
            )
        }

        override val lab: Lab get() = local

        /** What makes the load, for run.json: the driver, its clients and how its JVM runs. */
        private fun loadGenerator(prepared: Prepared, topology: Topology): String {
            val clients = if (topology == Topology.DIRECT) "Reactor Netty HTTP/1.1 and grpc-java" else "Netty HTTP/1.1"
            return "Proto-Bench load driver ${prepared.driverJar.fileName} ($clients; ${DriverProcess.JVM_OPTIONS.joinToString(" ")})"
        }

        override fun serverCommands(): Map<String, List<String>> = local.lastCommands

        override fun stopChildren() = children.killAll()

        override fun close() = databases.close()
    }

    /**
     * Seed 003's schema for a run of its tools: no unique index on email, because hey and
     * ghz post one body over and over (the seed's server took every copy as a new member).
     */
    private fun seedSchema(scenario: Scenario): List<String> =
        if (scenario.seedTools.isEmpty()) emptyList() else listOf("--protobench.data.members.unique-emails=false")

    /** The processes this machine runs, which share its cores: no server another host runs. */
    private fun processesHere(topology: Topology, remote: Remote?): List<String> {
        val started = if (topology == Topology.DIRECT) CpuPlacement.DIRECT_PROCESSES else CpuPlacement.PROCESSES
        return when (remote) {
            null -> started
            is Remote.DataServer -> started - "data-server"
            is Remote.Gateway -> listOf(CpuPlacement.LOAD)
        }
    }

    /** run.json's environment: which server runs elsewhere, at what address, and whether each fork restarts it. */
    private fun remoteRecord(remote: Remote?, restarted: Boolean): RemoteServersRecord? = when (remote) {
        null -> null
        is Remote.DataServer -> RemoteServersRecord(dataServer = remote.text, restartedPerFork = restarted)
        is Remote.Gateway -> RemoteServersRecord(gateway = remote.text, restartedPerFork = restarted)
    }
}

/** The gateway's properties that create the scenario's further sets of hop clients, given to every gateway of the run. */
private fun hopClientArguments(scenario: Scenario): List<String> =
    scenario.hopClients.flatMap { client -> client.properties().map { (name, value) -> "--$name=$value" } }
