package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.export.ExportDefaults
import io.protobench.bench.export.ExportRequest
import io.protobench.bench.export.ExportValidation
import io.protobench.bench.export.InvalidExport
import io.protobench.bench.export.KubernetesExport
import java.io.IOException

/** `protobench export`: a scenario for a cluster that runs it elsewhere. Its subcommands name the platform. */
class ExportCommand : CliktCommand(name = "export") {
    override fun help(context: Context) =
        "Write a scenario as manifests that run the lab's load driver on a cluster (kubernetes); nothing is run here."

    override fun run() = Unit
}

/**
 * `protobench export kubernetes`: exit 0 when the folder is written, 2 on bad input or a
 * folder that cannot be written (every problem named; nothing written on bad input).
 */
class KubernetesExportCommand : CliktCommand(name = "kubernetes") {
    override fun help(context: Context) =
        "Write a scenario as Kubernetes manifests: Deployments and Services of both servers, a ConfigMap of the trials' driver plans, " +
            "one Indexed Job per condition and arm whose N pods each run their share of the trial's plan and print what they measured " +
            "to their logs, the three images' Dockerfiles and a README.md with the kubectl commands in order; `protobench merge` turns " +
            "a Job's pod logs into one trial. The images are the user's to build and push. See docs/distributed.md."

    private val scenario by option("--scenario", help = "A built-in scenario (`protobench list`) or a scenario YAML file").required()
    private val pods by option(
        "--pods",
        help = "Driver pods per Job, 1 to ${ExportDefaults.MAX_PODS}; each sends 1/N of the rate (open model) or of the users (closed)",
    ).int().required()
    private val out by option("--out", help = "Folder to write (absent or empty)").required()
    private val force by option("--force", help = "Write into a folder that is not empty, replacing an earlier export's files").flag()
    private val namespace by option(
        "--namespace",
        help = "Namespace of every object (default ${ExportDefaults.NAMESPACE})",
    ).default(ExportDefaults.NAMESPACE)
    private val duration by option(
        "--duration",
        help = "Each pod's timed phase, 10s to 1h (default ${ExportDefaults.DURATION})",
    ).default(ExportDefaults.DURATION)
    private val warmUp by option(
        "--warm-up",
        help = "Each pod's warm-up before it, at the same load, 0s to 10m (default ${ExportDefaults.WARM_UP})",
    ).default(ExportDefaults.WARM_UP)
    private val rate by option(
        "--rate",
        help = "Run closed-model conditions at this fixed arrival rate, requests/s of all pods together " +
            "(cost mode; `protobench run` calibrates it, an export cannot)",
    ).int()
    private val dataServerImage by option(
        "--data-server-image",
        help = "Image of the data-server (default ${ExportDefaults.dataServerImage()})",
    ).default(ExportDefaults.dataServerImage())
    private val gatewayImage by option(
        "--gateway-image",
        help = "Image of the gateway, the api-server (default ${ExportDefaults.gatewayImage()})",
    ).default(ExportDefaults.gatewayImage())
    private val driverImage by option(
        "--driver-image",
        help = "Image of the load driver (default ${ExportDefaults.driverImage()})",
    ).default(ExportDefaults.driverImage())
    private val serverCpu by option(
        "--server-cpu",
        help = "CPU of each server's pod, requests = limits (default ${ExportDefaults.SERVER_CPU})",
    ).default(ExportDefaults.SERVER_CPU)
    private val serverMemory by option(
        "--server-memory",
        help = "Memory of each server's pod; the JVM heap is 1g (default ${ExportDefaults.SERVER_MEMORY})",
    ).default(ExportDefaults.SERVER_MEMORY)
    private val driverCpu by option(
        "--driver-cpu",
        help = "CPU of each driver pod (default ${ExportDefaults.DRIVER_CPU})",
    ).default(ExportDefaults.DRIVER_CPU)
    private val driverMemory by option(
        "--driver-memory",
        help = "Memory of each driver pod; the JVM heap is 256m (default ${ExportDefaults.DRIVER_MEMORY})",
    ).default(ExportDefaults.DRIVER_MEMORY)

    override fun run() {
        val request = ExportRequest(
            scenario, pods, out, force, namespace, duration, warmUp, rate,
            dataServerImage, gatewayImage, driverImage, serverCpu, serverMemory, driverCpu, driverMemory,
        )
        val settings = try {
            ExportValidation.check(request)
        } catch (e: InvalidExport) {
            invalid(e.message ?: e.javaClass.simpleName)
        }
        val result = try {
            KubernetesExport.write(settings)
        } catch (e: IOException) {
            invalid("cannot write the export into ${settings.out}: ${e.javaClass.simpleName}: ${e.message}")
        }
        echo(
            "exported scenario ${settings.scenario.name} to ${result.dir}: ${result.jobs.size} Jobs of ${settings.pods} driver pods, " +
                "${result.files.size} files; the commands, in order: ${result.dir.resolve("README.md")}",
        )
        result.notes.forEach { echo("note: $it") }
    }
}
