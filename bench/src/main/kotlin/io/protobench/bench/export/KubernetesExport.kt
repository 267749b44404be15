package io.protobench.bench.export

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import com.fasterxml.jackson.module.kotlin.registerKotlinModule
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.driver.Plan
import java.nio.file.Files
import java.nio.file.Path

/** One file of an export: its path inside the output folder and its text. */
data class ExportFile(val path: String, val text: String)

/** What an export wrote: the folder, its files, the Jobs in the order to run them, and what the user must know. */
data class ExportResult(val dir: Path, val files: List<ExportFile>, val jobs: List<PlannedJob>, val notes: List<String>)

/**
 * `protobench export kubernetes`: a scenario as Kubernetes manifests that run the lab's own
 * load driver on a cluster: both servers as Deployments and Services, and per condition and
 * arm an Indexed Job of [ExportSettings.pods] driver pods, each sending its share of the
 * trial's plan and printing what it measured to its log, for `protobench merge`.
 */
object KubernetesExport {
    const val PLANS_FILE = "plans-configmap.yaml"
    const val DATA_SERVER_FILE = "data-server.yaml"
    const val GATEWAY_FILE = "gateway.yaml"
    const val JOBS_DIR = "jobs"
    const val ORDER_FILE = "$JOBS_DIR/order.tsv"

    private val yaml: ObjectMapper = ObjectMapper(
        YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // Kubernetes wants strings where it says string: an argument or env value of 4 must stay "4".
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build(),
    ).registerKotlinModule()

    /** A plan as the driver reads it, indented for a reader of the ConfigMap. */
    private val planJson = jacksonObjectMapper().writerWithDefaultPrettyPrinter()

    fun planJson(plan: Plan): String = planJson.writeValueAsString(plan)

    /** Every file of the export of [settings], in the order README.md names them. */
    fun files(settings: ExportSettings, jobs: List<PlannedJob> = DriverJobs.plan(settings)): List<ExportFile> = listOf(
        ExportFile(PLANS_FILE, yaml(listOf(DriverJobs.plansConfigMap(settings, jobs, ::planJson)))),
        ExportFile(DATA_SERVER_FILE, yaml(ServerManifests.dataServer(settings))),
        ExportFile(GATEWAY_FILE, yaml(ServerManifests.gateway(settings))),
    ) + jobs.map { ExportFile("$JOBS_DIR/${it.file}", yaml(listOf(DriverJobs.job(settings, it)))) } +
        ExportFile(ORDER_FILE, DriverJobs.order(jobs)) +
        Dockerfiles.all() +
        ExportFile("README.md", ExportReadme.render(settings, jobs))

    /** Writes the export of [settings] into its folder; with force, the Jobs of an earlier export there go first. */
    fun write(settings: ExportSettings): ExportResult {
        val jobs = DriverJobs.plan(settings)
        val files = files(settings, jobs)
        val dir = settings.out
        clearJobs(dir)
        files.forEach { file ->
            val target = dir.resolve(file.path)
            Files.createDirectories(target.parent)
            Files.writeString(target, file.text)
        }
        return ExportResult(dir, files, jobs, notes(settings))
    }

    /** What the user must know before applying: the images are theirs to build, and what of `protobench run` is not here. */
    fun notes(settings: ExportSettings): List<String> = listOfNotNull(
        "images are not built by this command: build ${settings.images.dataServer}, ${settings.images.gateway} " +
            "and ${settings.images.driver} " +
            "from the Dockerfiles here and push them where the cluster pulls from (README.md, steps 1-2)",
        closedInCostMode(settings),
        "one Job per condition and arm, run one after another; the statistics of `protobench run` " +
            "(forks, soak, verdicts) are not part of an export: see docs/distributed.md",
    )

    /** Cost mode's rate comes from capacity probes the export cannot make: without --rate, closed conditions stay closed. */
    private fun closedInCostMode(settings: ExportSettings): String? {
        val closed = settings.scenario.conditions.any { it.load is LoadLevel.Vus }
        if (settings.scenario.mode != Mode.COST || settings.rate != null || !closed) return null
        return "scenario ${settings.scenario.name} is in cost mode, whose fixed rate `protobench run` calibrates from capacity probes; " +
            "an export cannot probe, so its closed-model conditions run closed at their users (capacity). " +
            "Give --rate to run them at a fixed rate"
    }

    /** Kubernetes objects as one YAML stream, each document starting with `---`. */
    private fun yaml(objects: List<KubeObject>): String = objects.joinToString("") { yaml.writeValueAsString(it) }

    /** The Job files of an earlier export in [dir]: a Job it had and this one has not must not be left to apply. */
    private fun clearJobs(dir: Path) {
        val jobs = dir.resolve(JOBS_DIR)
        if (!Files.isDirectory(jobs)) return
        Files.list(jobs).use { files -> files.filter { it.fileName.toString().endsWith(".yaml") }.toList() }.forEach(Files::delete)
    }
}
