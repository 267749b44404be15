package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.core.main
import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.parameters.groups.provideDelegate
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.default
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.types.int
import com.github.ajalt.clikt.parameters.types.long
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.report.SelectionGuide
import io.protobench.bench.runner.BenchmarkRunner
import io.protobench.bench.runner.RunOptions
import io.protobench.bench.runner.RunStore
import io.protobench.bench.runner.ToolchainProblem
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.ScenarioCatalog
import java.nio.file.Path
import kotlin.random.Random

/** Exit codes: 0 done; 1 bad command line (Clikt); 2 bad scenario or input file; 3 a run that failed or was cut short. */
private const val EXIT_INVALID_INPUT = 2
private const val EXIT_RUN_FAILED = 3

/** The project checkout: where the server jars, tools/ and results/ live. The wrapper sets PROTOBENCH_HOME. */
internal fun projectDir(): Path = Path.of(System.getenv("PROTOBENCH_HOME") ?: ".").toAbsolutePath().normalize()

class Protobench : CliktCommand(name = "protobench") {
    override fun help(context: Context) =
        "Compares HTTP/JSON, HTTP/Binary, gRPC/Unary and gRPC/Stream between two JVM services, with statistics."
    override fun run() = Unit
}

class RunCommand : CliktCommand(name = "run") {
    override fun help(context: Context) =
        "Run a scenario (a built-in name from `protobench list`, or a YAML file) and write results/<time>-<name>/."

    private val scenarioName by argument("SCENARIO").default("quick")
    private val overrides by ScenarioOverrides()
    private val restartServers by option("--restart-servers", help = "Restart both servers before every round (cold JIT each round, warm-up repeated)").flag()
    private val jvmOptions by option("--jvm-opt", help = "JVM option for both servers (repeatable; default -Xms1g -Xmx1g)").multiple()
    private val gatewayProperties by option("--gateway", help = "Spring property for the gateway, e.g. protobench.gateway.http.version=H2C (repeatable)").multiple()
    private val dataProperties by option("--data-server", help = "Spring property for the data-server, e.g. protobench.data.grpc-payload-mode=copy (repeatable)").multiple()
    private val noPinning by option("--no-pinning", help = "Do not pin k6 and the servers to disjoint CPU sets even when there are enough cores").flag()
    private val seed by option("--seed", help = "Seed of the trial shuffle (default: random, recorded in run.json)").long()
    private val resultsDir by option("--results", help = "Folder for run folders (default: results/)").default("results")

    override fun run() {
        val scenario = try {
            overrides.applyTo(ScenarioCatalog.load(scenarioName))
        } catch (e: InvalidScenario) {
            echo(e.message, err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val jvm = jvmOptions.ifEmpty { listOf("-Xms1g", "-Xmx1g") }
        val options = RunOptions(
            resultsRoot = projectDir().resolve(resultsDir),
            restartServersEachRound = restartServers,
            jvmOptions = jvm,
            gatewayArguments = gatewayProperties.map { "--$it" },
            dataServerArguments = dataProperties.map { "--$it" },
            shuffleSeed = seed ?: Random.nextLong(),
            pinning = !noPinning,
            given = overrides.given() + mapOf(
                "scenario" to scenarioName, "restartServers" to restartServers.toString(), "pinning" to (!noPinning).toString(), "jvmOptions" to jvm.joinToString(" "),
                "gateway" to gatewayProperties.joinToString(" "), "dataServer" to dataProperties.joinToString(" "),
            ),
        )
        echo("scenario ${scenario.name}: ${scenario.cells.size} cells x ${scenario.repetitions} trials, about ${scenario.estimatedSeconds() / 60 + 1} min")
        val writeReport = { store: RunStore, record: io.protobench.bench.measure.RunRecord ->
            echo("report: ${ReportWriter.write(store.dir, record)}", err = true)
        }
        val store = try {
            BenchmarkRunner(projectDir(), onFinished = writeReport).run(scenario, options)
        } catch (e: ToolchainProblem) {
            echo("cannot run: ${e.message}", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        } catch (e: java.io.IOException) {
            echo("cannot write results: ${e.message}", err = true)
            throw ProgramResult(EXIT_RUN_FAILED)
        }
        val record = RunStore.load(store.dir)
        echo("\nProtocol selection guide (${record.status} run; details and flags in report.md):")
        SelectionGuide.lines(Analysis.of(record)).forEach { echo(it.removePrefix("- ").replace("**", "")) }
        if (record.status != "complete") throw ProgramResult(EXIT_RUN_FAILED)
    }
}

class ListCommand : CliktCommand(name = "list") {
    override fun help(context: Context) = "Show the built-in scenarios with their cell count and estimated time."
    override fun run() {
        echo(String.format("%-9s %6s %7s %9s  %s", "name", "cells", "trials", "est. time", "description"))
        for (s in ScenarioCatalog.all()) {
            val minutes = s.estimatedSeconds() / 60.0
            echo(String.format(java.util.Locale.ROOT, "%-9s %6d %7d %7.0f m  %s", s.name, s.cells.size, s.cells.size * s.repetitions, minutes, s.description))
        }
    }
}

class ReportCommand : CliktCommand(name = "report") {
    override fun help(context: Context) = "Rebuild report.md and cells.csv of a run from its run.json."
    private val dir by argument("RUN_DIR")
    override fun run() {
        val path = Path.of(dir)
        val record = try {
            RunStore.load(path)
        } catch (e: IllegalArgumentException) {
            echo(e.message, err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val target = if (java.nio.file.Files.isDirectory(path)) path else path.parent
        echo("report: ${ReportWriter.write(target, record)}")
    }
}

fun main(args: Array<String>) = Protobench().subcommands(RunCommand(), ListCommand(), ReportCommand()).main(args)
