package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.export.ExportDefaults
import io.protobench.bench.export.ExportRequest
import io.protobench.bench.export.ExportValidation
import io.protobench.bench.export.InvalidExport
import io.protobench.bench.export.K6OperatorExport
import java.io.IOException

/** `protobench export`: a scenario for a load engine that runs elsewhere. Its subcommands name the engine. */
class ExportCommand : CliktCommand(name = "export") {
    override fun help(context: Context) =
        "Write a scenario as manifests for a distributed load engine (k6-operator) to run on a cluster; nothing is run here."

    override fun run() = Unit
}

/**
 * `protobench export k6-operator`: exit 0 when the folder is written, 2 on bad input or a
 * folder that cannot be written (every problem named; nothing written on bad input).
 */
class K6OperatorExportCommand : CliktCommand(name = "k6-operator") {
    override fun help(context: Context) =
        "Write a scenario as Kubernetes manifests for the k6-operator: the script's ConfigMap, one TestRun per condition " +
            "and arm with parallelism N, Deployments and Services of both servers, their Dockerfiles and a README.md with " +
            "the kubectl commands in order. The images are the user's to build and push. See docs/distributed.md."

    private val scenario by option("--scenario", help = "A built-in scenario (`protobench list`) or a scenario YAML file").required()
    private val parallelism by option("--parallelism", help = "k6 runner pods per TestRun, 1 to ${ExportDefaults.MAX_PARALLELISM}; each gets an equal execution segment of the load").int().required()
    private val out by option("--out", help = "Folder to write (absent or empty)").required()
    private val force by option("--force", help = "Write into a folder that is not empty, replacing an earlier export's files").flag()
    private val namespace by option("--namespace", help = "Namespace of every object (default ${ExportDefaults.NAMESPACE})").default(ExportDefaults.NAMESPACE)
    private val duration by option("--duration", help = "How long each TestRun's k6 runs, 10s to 1h (default ${ExportDefaults.DURATION})").default(ExportDefaults.DURATION)
    private val rate by option("--rate", help = "Run closed-model conditions at this fixed arrival rate, requests/s of all runners together (cost mode; `protobench run` calibrates it, an export cannot)").int()
    private val dataServerImage by option("--data-server-image", help = "Image of the data-server (default ${ExportDefaults.dataServerImage()})").default(ExportDefaults.dataServerImage())
    private val gatewayImage by option("--gateway-image", help = "Image of the gateway, the api-server (default ${ExportDefaults.gatewayImage()})").default(ExportDefaults.gatewayImage())
    private val k6Image by option("--k6-image", help = "Image of the k6 runners (default ${ExportDefaults.K6_IMAGE}, the k6 local runs use)").default(ExportDefaults.K6_IMAGE)
    private val serverCpu by option("--server-cpu", help = "CPU of each server's pod, requests = limits (default ${ExportDefaults.SERVER_CPU})").default(ExportDefaults.SERVER_CPU)
    private val serverMemory by option("--server-memory", help = "Memory of each server's pod; the JVM heap is 1g (default ${ExportDefaults.SERVER_MEMORY})").default(ExportDefaults.SERVER_MEMORY)
    private val runnerCpu by option("--runner-cpu", help = "CPU of each k6 runner's pod (default ${ExportDefaults.RUNNER_CPU})").default(ExportDefaults.RUNNER_CPU)
    private val runnerMemory by option("--runner-memory", help = "Memory of each k6 runner's pod (default ${ExportDefaults.RUNNER_MEMORY})").default(ExportDefaults.RUNNER_MEMORY)

    override fun run() {
        val request = ExportRequest(
            scenario, parallelism, out, force, namespace, duration, rate,
            dataServerImage, gatewayImage, k6Image, serverCpu, serverMemory, runnerCpu, runnerMemory,
        )
        val settings = try {
            ExportValidation.check(request)
        } catch (e: InvalidExport) {
            fail(e.message)
        }
        val result = try {
            K6OperatorExport.write(settings)
        } catch (e: IOException) {
            fail("cannot write the export into ${settings.out}: ${e.javaClass.simpleName}: ${e.message}")
        }
        echo("exported scenario ${settings.scenario.name} to ${result.dir}: ${result.testRuns.size} TestRuns with parallelism ${settings.parallelism}, " +
            "${result.files.size} files; the commands, in order: ${result.dir.resolve("README.md")}")
        result.notes.forEach { echo("note: $it") }
    }

    private fun fail(message: String?): Nothing {
        echo(message, err = true)
        throw ProgramResult(EXIT_BAD_INPUT)
    }

    private companion object {
        // The exit code of bad input in every protobench command (see Main.kt).
        const val EXIT_BAD_INPUT = 2
    }
}
