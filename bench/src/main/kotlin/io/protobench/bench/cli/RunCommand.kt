package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.default
import com.github.ajalt.clikt.parameters.groups.provideDelegate
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.long
import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.database.ExternalDatabaseRefused
import io.protobench.bench.design.Planner
import io.protobench.bench.lab.LocalLabSource
import io.protobench.bench.lab.launch.Jdks
import io.protobench.bench.lab.launch.NoSuchJdk
import io.protobench.bench.measure.PinnedRates
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.message.MessagePreparation
import io.protobench.bench.message.MessageProblem
import io.protobench.bench.report.AaCalibration
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.SelectionGuide
import io.protobench.bench.run.BenchmarkRunner
import io.protobench.bench.run.InvalidRemote
import io.protobench.bench.run.Remote
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.run.remoteFlag
import io.protobench.bench.scenario.Database
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Violation
import java.nio.file.Path
import kotlin.random.Random

class RunCommand : CliktCommand(name = "run") {
    override fun help(context: Context) =
        "Run a scenario (a built-in name from `protobench list`, or a YAML file) and write results/<time>-<name>/."

    private val scenarioName by argument("SCENARIO").default("quick")
    private val overrides by ScenarioOverrides()
    private val jvmOptions by option("--jvm-opt", help = "JVM option for both servers (repeatable; default -Xms1g -Xmx1g)").multiple()
    private val gatewayValues by option(
        "--gateway",
        help = "Spring property for the gateway, e.g. protobench.gateway.http.version=H2C (repeatable); " +
            "or the address of a gateway another host runs (`protobench serve api-server`), e.g. http://10.0.0.3:8080: " +
            "nothing is started here but the load driver",
    ).multiple()
    private val dataValues by option(
        "--data-server",
        help = "Spring property for the data-server, e.g. protobench.data.grpc-payload-mode=copy (repeatable); " +
            "or HOST:HTTP:GRPC of a data-server another host runs (`protobench serve data-server`): " +
            "each fork starts only a gateway here",
    ).multiple()
    private val gatewayProperties get() = gatewayValues.filterNot(Remote::isGatewayAddress)
    private val dataProperties get() = dataValues.filterNot(Remote::isDataServerAddress)
    private val noPinning by option(
        "--no-pinning",
        help = "Do not pin the load driver and the servers to disjoint CPU sets even when there are enough cores",
    ).flag()
    private val ratesOf by option(
        "--rates-of",
        help = "Measure the cost trials at the rates an earlier run chose (its results/<run> folder), " +
            "so that two runs compared on one machine share one operating point; conditions it did not measure are calibrated",
    )
    private val seed by option("--seed", help = "Seed of every shuffle (default: random, recorded in run.json)").long()
    private val resultsDir by option("--results", help = "Folder for run folders (default: results/)").default("results")
    private val lang by langOption()
    private val network by option(
        "--network",
        help = "Put the data-server behind a shaped link: " +
            "${io.protobench.bench.scenario.NetworkProfile.BUILT_IN.joinToString(", ") { it.name }}, " +
            "or rtt=40ms,bandwidth=100mbit (needs CAP_NET_ADMIN; see `protobench network`)",
    )
    private val serverJava by option(
        "--server-java",
        help = "JDK for both servers: an installed feature release (17, 25) or a path to a JDK or its bin/java " +
            "(default: the JDK running protobench)",
    )
    private val dbUrl by option(
        "--db-url",
        help = "Write members to this PostgreSQL database instead of H2 or a throw-away cluster: " +
            "jdbc:postgresql://HOST[:PORT]/DATABASE, the password in the environment variable ${ExternalDatabase.PASSWORD_VARIABLE}; " +
            "every data-server pair but a variant with database: h2 writes there",
    )
    private val dbUser by option("--db-user", help = "The user of --db-url (default: the URL's user=)")
    private val dbSchema by option(
        "--db-schema",
        help = "The schema of --db-url the run keeps to, created when missing " +
            "(default ${ExternalDatabase.DEFAULT_SCHEMA}); one holding tables the lab did not make is refused",
    )
        .default(ExternalDatabase.DEFAULT_SCHEMA)

    override fun run() {
        // Both servers stop at once on OutOfMemoryError instead of answering with errors half-dead.
        val jvm = jvmOptions.ifEmpty { ServerHeap.DEFAULT_JVM_OPTIONS } + "-XX:+ExitOnOutOfMemoryError"
        val texts = texts(lang)
        val scenario = validScenario(jvm)
        if (scenario.topology == Topology.DIRECT && gatewayProperties.isNotEmpty()) {
            echo(
                "cannot run: scenario ${scenario.name} has topology direct (the driver calls the data-server itself): " +
                    "--gateway needs topology gateway",
                err = true,
            )
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val remote = validRemote()
        checkMessage(scenario, remote)
        val database = validDatabase()
        postgresBehindLink(scenario, database)?.let {
            echo("cannot run: $it", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val serverJavaBinary = serverJava?.let(::checkedJava)
        val pinnedRates = ratesOf?.let { keptRates(it, scenario) }
        val resultsRoot = projectDir().resolve(resultsDir)
        checkWritable(resultsRoot)
        val options = RunOptions(
            resultsRoot = resultsRoot,
            jvmOptions = jvm,
            gatewayArguments = gatewayProperties.map { "--$it" },
            dataServerArguments = dataProperties.map { "--$it" },
            seed = seed ?: Random.nextLong(),
            pinning = !noPinning,
            serverJava = serverJavaBinary,
            network = network?.let(::validProfile),
            remote = remote,
            externalDatabase = database,
            pinnedRates = pinnedRates,
            given = overrides.given() + mapOf(
                "ratesOf" to (ratesOf ?: "none"),
                "network" to (network ?: "loopback"), "remote" to (remote?.let(::remoteFlag) ?: "none"),
                "database" to (database?.let { "${it.jdbcUrl} (user ${it.user}, schema ${it.schema})" } ?: "the scenario's"),
                "scenario" to scenarioName, "pinning" to (!noPinning).toString(), "jvmOptions" to jvm.joinToString(" "),
                "gateway" to gatewayProperties.joinToString(" "), "dataServer" to dataProperties.joinToString(" "),
                "serverJava" to (serverJava ?: "default"),
            ),
        )
        echo(
            "scenario ${scenario.name}: ${scenario.conditions.size} conditions x ${scenario.armLabels.size} arms" +
                (if (scenario.variants.isEmpty()) "" else " (${scenario.arms.size} under each of ${scenario.variants.size} variants)") +
                ", " +
                "${scenario.forksRange()} forks each, about ${scenario.estimatedSeconds() / 60 + 1} min for the minimum forks" +
                (
                    scenario.budget?.let { ", budget ${it.toMinutes()} min" }
                        ?: if (scenario.maxForks > scenario.forks) {
                            ", ${scenario.estimatedSeconds(atMost = true) / 60 + 1} min " +
                                "if every condition takes its most"
                        } else {
                            ""
                        }
                    ),
        )
        budgetShortfall(scenario)?.let { echo(it) }
        unreachedLooks(scenario)?.let { echo(it) }
        val store = try {
            BenchmarkRunner(
                LocalLabSource(projectDir()),
                Analysis.judge,
                onFinished = { store, record -> writeReport(store, record, texts) },
            ).run(scenario, options)
        } catch (e: Exception) {
            val (what, exit) = runFailure(e) ?: throw e
            echo("$what: ${e.message}", err = true)
            throw ProgramResult(exit)
        }
        val record = RunStore.load(store.dir)
        try {
            val analyses = Analysis.of(record)
            val guide = SelectionGuide.lines(analyses, texts)
            echo("\n" + texts("guide.title").removePrefix("## ") + " — ${texts("status.${record.status.name.lowercase()}")}:")
            guide.forEach { echo(it.removePrefix("- ").replace("**", "")) }
            AaCalibration.sentence(analyses, texts)?.let { echo(it) }
            AaCalibration.tallySentence(record, texts)?.let { echo(it) }
        } catch (e: RuntimeException) {
            echo("cannot derive the guide (${e.javaClass.simpleName}: ${e.message}); run.json in ${store.dir} is kept", err = true)
            throw ProgramResult(EXIT_RUN_FAILED)
        }
        if (record.status != RunStatus.COMPLETE) throw ProgramResult(EXIT_RUN_FAILED)
    }

    /**
     * The rates of the run in [folder] that this run keeps (`--rates-of`), said before it starts;
     * exit 2 when that is no run record, this run has no rates to keep (capacity mode), or the
     * earlier run chose none for any condition of this one.
     */
    private fun keptRates(folder: String, scenario: Scenario): PinnedRates {
        fun refuse(why: String): Nothing {
            echo("cannot run: --rates-of $folder: $why", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        if (scenario.mode != Mode.COST) {
            refuse("scenario ${scenario.name} runs in capacity mode, which has no rates to keep; it needs cost mode")
        }
        val earlier = try {
            RunStore.load(Path.of(folder))
        } catch (e: IllegalArgumentException) {
            refuse(e.message ?: "not a run record")
        } catch (e: java.io.IOException) {
            refuse("cannot read it (${e.message})")
        }
        val labels = scenario.conditions.map { it.label }.toSet()
        val rates = earlier.calibrations.filter { it.condition in labels }
        if (rates.isEmpty()) {
            val chosen = earlier.calibrations.map { it.condition }.distinct()
            refuse(
                "run ${earlier.runId} chose no rate for a condition of this run (it chose rates for: " +
                    "${chosen.ifEmpty { listOf("none") }.joinToString(", ")}; this run measures: ${labels.joinToString(", ")})",
            )
        }
        val own = labels - rates.map { it.condition }.toSet()
        echo(
            "cost trials at the rates of run ${earlier.runId}: " + rates.joinToString(", ") { "${it.condition} ${it.ratePerSecond}/s" } +
                if (own.isEmpty()) "" else "; calibrated here: ${own.joinToString(", ")}",
        )
        return PinnedRates(earlier.runId, rates)
    }

    /**
     * An adaptive design whose budget is not expected to reach its most forks, said before the run
     * starts: α is split over every look the design allows, so the ones past the budget narrow
     * nothing and widen every interval (docs/journal/2026-12-04-decision-map-design.md).
     */
    private fun unreachedLooks(scenario: Scenario): String? {
        val extra = scenario.extraForksWithinBudget() ?: return null
        val looks = scenario.maxForks - scenario.forks + 1
        val reached = scenario.forks + extra
        val instead = if (extra == 0) {
            "--max-forks $reached would test at the full α"
        } else {
            "--max-forks $reached would test at α/${extra + 1}, and --forks $reached --max-forks $reached at the full α"
        }
        return "the budget of ${scenario.budget?.toMinutes()} min is expected to reach about $reached forks of every condition, " +
            "not the ${scenario.maxForks} the design allows: each of its $looks looks tests at α/$looks, so ${looks - extra - 1} " +
            "are paid for and not taken; $instead (docs/statistics.md, \"Looking more than once\")"
    }

    /** What a budget too small for every condition's minimum forks will leave out, said before the run starts. */
    private fun budgetShortfall(scenario: Scenario): String? {
        val budget = scenario.budget ?: return null
        val first = Planner(scenario).firstFork()
        if (first.size == scenario.conditions.size) return null
        return "the budget of ${budget.toMinutes()} min is expected to bring ${first.size} of ${scenario.conditions.size} conditions " +
            "to the minimum ${scenario.forksText()} forks, in the scenario's order; the report will name the others " +
            "(--budget ${scenario.estimatedSeconds() / 60 + 1}m would cover all)"
    }

    /**
     * A scenario's own message checked before anything starts (the .proto compiles, the type exists and
     * is one the lab carries, the sample reads strictly): exit 2 with what was wrong. Remote servers
     * cannot load it: they run another host's jars.
     */
    private fun checkMessage(scenario: Scenario, remote: Remote?) {
        val message = scenario.message ?: return
        if (remote != null) {
            echo("cannot run: scenario ${scenario.name} carries your own message, which remote servers cannot load", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        try {
            MessagePreparation.check(Path.of(message.proto), message.type, Path.of(message.sample), message.includes.map(Path::of))
        } catch (e: MessageProblem) {
            echo("cannot run: scenario ${scenario.name}'s message: ${e.message}", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
    }

    /** The one remote server named by --data-server HOST:HTTP:GRPC or --gateway URL, if any; exit 2 when malformed or more than one. */
    private fun validRemote(): Remote? = try {
        val named = dataValues.filter(Remote::isDataServerAddress).map(Remote::dataServer) +
            gatewayValues.filter(Remote::isGatewayAddress).map(Remote::gateway)
        if (named.size > 1) {
            throw InvalidRemote(
                "${named.joinToString { it.text }}: give one remote server, " +
                    "--data-server ${Remote.DATA_SERVER_FORM} or --gateway ${Remote.GATEWAY_FORM}",
            )
        }
        named.singleOrNull()
    } catch (e: InvalidRemote) {
        echo("protobench: ${e.message}", err = true)
        throw ProgramResult(EXIT_INVALID_INPUT)
    }

    /** The --db-url database (not yet reached: the runner logs in before anything runs), or exit 2 naming what is wrong. */
    private fun validDatabase(): ExternalDatabase? {
        if (dbUrl == null) {
            if (dbUser != null || dbSchema != ExternalDatabase.DEFAULT_SCHEMA) {
                echo("protobench: --db-user and --db-schema go with --db-url", err = true)
                throw ProgramResult(EXIT_INVALID_INPUT)
            }
            return null
        }
        return try {
            ExternalDatabase.of(dbUrl!!, dbUser, dbSchema)
        } catch (e: ExternalDatabaseRefused) {
            echo("protobench: ${e.message}", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
    }

    /**
     * Why no pair may write to PostgreSQL from behind a link, when one would: the run's
     * --network puts every pair without a network of its own behind one, and --db-url sends
     * every pair but an H2 variant's to that database. Variants naming both are the parser's.
     */
    private fun postgresBehindLink(scenario: Scenario, external: ExternalDatabase?): String? {
        if (!scenario.writes) return null
        // Without variants the run's one pair is null here: found by index, since firstOrNull could not tell it from none.
        val pairs = scenario.variants.ifEmpty { listOf(null) }
        val found = pairs.indexOfFirst { variant ->
            val behindLink = (variant?.network ?: network) != null
            val postgres = variant?.store == Database.POSTGRESQL || (external != null && variant?.store != Database.H2)
            behindLink && postgres
        }
        if (found < 0) return null
        val pair = pairs[found]
        val link = pair?.network?.let { "its network $it" } ?: "--network $network"
        val database = if (pair?.store == Database.POSTGRESQL) "database: postgresql" else "--db-url"
        return (pair?.let { "variant ${it.name}: " } ?: "") + "$link with $database: " + ScenarioParser.POSTGRESQL_BEHIND_LINK
    }

    /** The --network profile, or exit 2 with the profiles and fields accepted. */
    private fun validProfile(text: String): io.protobench.bench.scenario.NetworkProfile = try {
        io.protobench.bench.scenario.NetworkProfile.parse(text)
    } catch (e: io.protobench.bench.scenario.InvalidProfile) {
        echo("protobench: --network: ${e.message}", err = true)
        throw ProgramResult(EXIT_INVALID_INPUT)
    }

    /** The java binary of the --server-java JDK, or exit 2 naming the JDKs installed. */
    private fun checkedJava(text: String): Path = try {
        Jdks().resolve(text).java
    } catch (e: NoSuchJdk) {
        echo("--server-java $text: ${e.message}", err = true)
        throw ProgramResult(EXIT_INVALID_INPUT)
    }

    /**
     * The scenario with its overrides, checked against the heap [jvm] gives the servers.
     * Every bad input ends here with exit 2, before anything is created.
     */
    private fun validScenario(jvm: List<String>) = try {
        checkProperties("--gateway", gatewayProperties, "protobench.gateway.http.version=H2C", Remote.GATEWAY_FORM)
        checkProperties("--data-server", dataProperties, "protobench.data.grpc-payload-mode=copy", Remote.DATA_SERVER_FORM)
        val heapBytes = ServerHeap.maxHeapBytes(jvm)
        overrides.applyTo(ScenarioCatalog.load(scenarioName, heapBytes), heapBytes)
    } catch (e: InvalidScenario) {
        echo(e.message, err = true)
        throw ProgramResult(EXIT_INVALID_INPUT)
    }

    /** A server property is passed on as --name=value; without the '=' Spring would read it as an empty value. */
    private fun checkProperties(flag: String, properties: List<String>, example: String, address: String) {
        val bad = properties.filterNot { it.matches(SPRING_PROPERTY) }
        if (bad.isNotEmpty()) {
            throw InvalidScenario(
                bad.map {
                    Violation(
                        "command line",
                        flag,
                        it,
                        "a Spring property as name=value, e.g. $example; or a remote server's address, $address",
                    )
                },
            )
        }
    }

    /** Bad input, not a failed run: nothing is created when results cannot be written. */
    private fun checkWritable(root: Path) {
        val existing = generateSequence(root.toAbsolutePath()) { it.parent }.firstOrNull { java.nio.file.Files.exists(it) }
        if (existing == null || !java.nio.file.Files.isDirectory(existing) || !java.nio.file.Files.isWritable(existing)) {
            echo(
                "cannot write results under $root: ${existing ?: root} is not a writable folder; give --results a writable folder",
                err = true,
            )
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
    }
}
