package io.protobench.bench.export

import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import java.net.URLEncoder
import io.protobench.bench.design.ForkRunner
import io.protobench.bench.lab.K6Invocation
import io.protobench.bench.lab.K6Target

/**
 * One TestRun per condition and arm, in scenario order: each is one k6 run of one cell,
 * split over the runners, so its gateway window and its k6 output belong to one cell
 * alone, exactly as one trial of `protobench run` does. They are applied one after
 * another (README.md), never together: they share the one server pair.
 */
data class PlannedTestRun(val name: String, val file: String, val cell: Cell, val load: LoadLevel, val testRun: TestRun) {
    /** The label the gateway window gets: the TestRun and its condition. */
    val windowName: String get() = "$name ${cell.condition.label}"
}

object TestRuns {
    const val SCRIPT_CONFIG_MAP = "protobench-k6-script"
    const val SCRIPT_KEY = "protobench.js"

    /** Kubernetes names are DNS labels; the operator adds `-initializer` (12 characters) to Job names of at most 63. */
    private const val MAX_NAME = 50

    /** k6 writes the end-of-test summary (protobench.js's handleSummary) to its standard output: the runner's log. */
    private const val SUMMARY_TO_LOG = "stdout"

    fun plan(settings: ExportSettings): List<PlannedTestRun> {
        val scenario = settings.scenario
        val cells = scenario.conditions.flatMap { condition -> scenario.arms.map { Cell(condition, it) } }
        val width = maxOf(2, cells.size.toString().length)
        return cells.mapIndexed { i, cell ->
            // The running index first, so that a listing of testruns/ shows the order.
            val own = "${(i + 1).toString().padStart(width, '0')}-${slug(cell.arm.label)}"
            val name = scenarioSlug(scenario.name).take(MAX_NAME - own.length - 1).trimEnd('-') + "-" + own
            val load = offered(cell.condition.load, settings.rate)
            PlannedTestRun(name, "$own.yaml", cell, load, testRun(settings, name, cell, load))
        }
    }

    /**
     * The load of a condition: as written, or with `--rate` the fixed arrival rate that cost
     * mode would have calibrated, with the VU pool `protobench run` gives such a rate. An
     * open-model condition keeps its own rate, as in a run.
     */
    fun offered(load: LoadLevel, rate: Int?): LoadLevel = when {
        rate != null && load is LoadLevel.Vus -> LoadLevel.Rate(rate, ForkRunner.rateVus(load.vus))
        else -> load
    }

    private fun slug(text: String) = text.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-')

    /** A DNS label must start with a letter or digit: a scenario named without any gets a neutral one. */
    private fun scenarioSlug(name: String) = slug(name).ifEmpty { "protobench" }

    private fun testRun(settings: ExportSettings, name: String, cell: Cell, load: LoadLevel): TestRun {
        val labels = ServerManifests.partOf() + ("protobench.io/scenario" to scenarioSlug(settings.scenario.name).take(63).trimEnd('-'))
        val environment = K6Invocation.scriptEnvironment(
            ServerManifests.gatewayUrl(settings.namespace), listOf(K6Target.of(cell, ::levelBytes)), load, settings.duration,
        ) + ("SUMMARY_PATH" to SUMMARY_TO_LOG)
        return TestRun(
            ObjectMeta(name, settings.namespace, labels, annotations(cell, load)),
            TestRunSpec(
                parallelism = settings.parallelism,
                script = TestRunScript(ScriptConfigMap(SCRIPT_CONFIG_MAP, SCRIPT_KEY)),
                arguments = "--no-usage-report",
                runner = RunnerPod(settings.images.k6, environment.map { (k, v) -> EnvVar(k, v) }, settings.runner, PodLabels(labels)),
            ),
        )
    }

    private fun annotations(cell: Cell, load: LoadLevel) = mapOf(
        "protobench.io/condition" to cell.condition.label,
        "protobench.io/arm" to cell.arm.label,
        "protobench.io/load" to describe(load),
    )

    /** The load all runners offer together, in words. */
    fun describe(load: LoadLevel): String = when (load) {
        is LoadLevel.Vus -> "closed model, ${load.vus} VUs"
        is LoadLevel.Rate -> "open model, ${load.perSecond}/s with up to ${load.maxVus} VUs"
    }

    /**
     * The `serializedSize` the gateway reports for a level: the same [RecordShape] the
     * gateway measures at start-up and serves at `/api/complexities`, computed here since
     * no gateway is running.
     */
    private fun levelBytes(level: String, arm: Arm): Long {
        val shape = RecordShape.of(ComplexityLevel.parse(level))
        return (if (arm.reportsJsonBytes) shape.jsonBytes else shape.protobufBytes).toLong()
    }

    /**
     * testruns/order.tsv: the file, the TestRun's name and the gateway window's protocol
     * and test name (URL-encoded for the query), one TestRun a line, in the order to run.
     */
    fun order(runs: List<PlannedTestRun>): String = runs.joinToString("") { run ->
        listOf(run.file, run.name, encode(run.cell.arm.label), encode(run.windowName)).joinToString("\t") + "\n"
    }

    private fun encode(text: String) = URLEncoder.encode(text, Charsets.UTF_8).replace("+", "%20")
}
