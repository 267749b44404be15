package io.protobench.bench.export

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator
import com.fasterxml.jackson.module.kotlin.registerKotlinModule
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import java.nio.file.Files
import java.nio.file.Path

/** One file of an export: its path inside the output folder and its text. */
data class ExportFile(val path: String, val text: String)

/** What an export wrote: the folder, its files, the TestRuns in the order to run them, and what the user must know. */
data class ExportResult(val dir: Path, val files: List<ExportFile>, val testRuns: List<PlannedTestRun>, val notes: List<String>)

/**
 * `protobench export k6-operator`: a scenario as Kubernetes manifests for the k6-operator,
 * which splits each k6 run over [ExportSettings.parallelism] runner pods. The project's
 * one script goes unchanged into a ConfigMap; each TestRun gives it the environment
 * `protobench run` gives it locally ([io.protobench.bench.lab.K6Invocation.scriptEnvironment]).
 */
object K6OperatorExport {
    const val CONFIG_MAP_FILE = "k6-script-configmap.yaml"
    const val DATA_SERVER_FILE = "data-server.yaml"
    const val GATEWAY_FILE = "gateway.yaml"
    const val TESTRUNS_DIR = "testruns"
    const val ORDER_FILE = "$TESTRUNS_DIR/order.tsv"

    private val yaml: ObjectMapper = ObjectMapper(
        YAMLFactory.builder()
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            // Kubernetes wants strings where it says string: an env value of 10 must stay "10".
            .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
            .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
            // A long value (TARGETS' JSON) stays on one line, as written.
            .disable(YAMLGenerator.Feature.SPLIT_LINES)
            .build(),
    ).registerKotlinModule()

    fun script(): String = javaClass.getResourceAsStream("/k6/protobench.js")!!.use { String(it.readAllBytes(), Charsets.UTF_8) }

    /** Every file of the export of [settings], in the order README.md names them. */
    fun files(settings: ExportSettings, runs: List<PlannedTestRun> = TestRuns.plan(settings)): List<ExportFile> {
        val script = script()
        val configMap = ConfigMap(
            ObjectMeta(TestRuns.SCRIPT_CONFIG_MAP, settings.namespace, ServerManifests.partOf()),
            mapOf(TestRuns.SCRIPT_KEY to script),
        )
        return listOf(
            ExportFile(TestRuns.SCRIPT_KEY, script),
            ExportFile(CONFIG_MAP_FILE, yaml(listOf(configMap))),
            ExportFile(DATA_SERVER_FILE, yaml(ServerManifests.dataServer(settings))),
            ExportFile(GATEWAY_FILE, yaml(ServerManifests.gateway(settings))),
        ) + runs.map { ExportFile("$TESTRUNS_DIR/${it.file}", yaml(listOf(it.testRun))) } +
            ExportFile(ORDER_FILE, TestRuns.order(runs)) +
            Dockerfiles.both() +
            ExportFile("README.md", ExportReadme.render(settings, runs))
    }

    /** Writes the export of [settings] into its folder; with force, the TestRuns of an earlier export there go first. */
    fun write(settings: ExportSettings): ExportResult {
        val runs = TestRuns.plan(settings)
        val files = files(settings, runs)
        val dir = settings.out
        clearTestRuns(dir)
        files.forEach { file ->
            val target = dir.resolve(file.path)
            Files.createDirectories(target.parent)
            Files.writeString(target, file.text)
        }
        return ExportResult(dir, files, runs, notes(settings))
    }

    /** What the user must know before applying: the images are theirs to build, and what of `protobench run` is not here. */
    fun notes(settings: ExportSettings): List<String> = listOfNotNull(
        "images are not built by this command: build ${settings.images.dataServer} and ${settings.images.gateway} " +
            "from the Dockerfiles here and push them where the cluster pulls from (README.md, steps 1-2)",
        closedInCostMode(settings),
        "one TestRun per condition and arm, applied one after another; the statistics of `protobench run` " +
            "(forks, soak, warm-ups, verdicts) are not part of an export: see docs/distributed.md",
    )

    /** Cost mode's rate comes from capacity probes the export cannot make: without --rate, closed conditions stay closed. */
    private fun closedInCostMode(settings: ExportSettings): String? {
        val closed = settings.scenario.conditions.any { it.load is LoadLevel.Vus }
        if (settings.scenario.mode != Mode.COST || settings.rate != null || !closed) return null
        return "scenario ${settings.scenario.name} is in cost mode, whose fixed rate `protobench run` calibrates from capacity probes; " +
            "an export cannot probe, so its closed-model conditions run closed at their VUs (capacity). Give --rate to run them at a fixed rate"
    }

    /** Kubernetes objects as one YAML stream, each document starting with `---`. */
    private fun yaml(objects: List<KubeObject>): String = objects.joinToString("") { yaml.writeValueAsString(it) }

    /** The TestRun files of an earlier export in [dir]: a TestRun it had and this one has not must not be left to apply. */
    private fun clearTestRuns(dir: Path) {
        val testRuns = dir.resolve(TESTRUNS_DIR)
        if (!Files.isDirectory(testRuns)) return
        Files.list(testRuns).use { files -> files.filter { it.fileName.toString().endsWith(".yaml") }.toList() }.forEach(Files::delete)
    }
}
