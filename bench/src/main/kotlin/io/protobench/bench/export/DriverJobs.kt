package io.protobench.bench.export

import io.protobench.bench.lab.launch.DriverProcess
import io.protobench.bench.lab.plans.DriverPlans
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import io.protobench.driver.Part
import io.protobench.driver.Plan
import java.net.URLEncoder

/**
 * One Indexed Job per condition and arm, in scenario order: each is one trial of one cell,
 * its plan built as `protobench run` builds a trial's ([DriverPlans]), run by N driver pods
 * that each send their share ([Part]), so its gateway window and its drivers' outputs belong
 * to one cell alone. The Jobs run one after another (README.md), never together: they share
 * the one server pair.
 */
data class PlannedJob(val name: String, val cell: Cell, val load: LoadLevel, val plan: Plan) {
    /** The Job's file under jobs/ and the plan's key in the plans' ConfigMap. */
    val file: String get() = "$name.yaml"
    val planKey: String get() = "$name.json"

    /** The label the gateway window gets: the Job and its condition. */
    val windowName: String get() = "$name ${cell.condition.label}"
}

object DriverJobs {
    const val PLANS_CONFIG_MAP = "protobench-driver-plans"

    /** Where a driver pod finds the plans: the ConfigMap's keys as files. */
    const val PLANS_DIR = "/plans"
    private const val PLANS_VOLUME = "plans"
    const val CONTAINER = "load-driver"

    /** Job names are DNS labels, and an Indexed Job's pods are named `<job>-<index>-<5 characters>`. */
    private const val MAX_NAME = 50

    fun plan(settings: ExportSettings): List<PlannedJob> {
        val scenario = settings.scenario
        val cells = scenario.conditions.flatMap { condition -> scenario.arms.map { Cell(condition, it) } }
        val width = maxOf(2, cells.size.toString().length)
        return cells.mapIndexed { i, cell ->
            // The running index first, so that a listing of jobs/ shows the order.
            val own = "${(i + 1).toString().padStart(width, '0')}-${slug(cell.arm.label)}"
            val name = scenarioSlug(scenario.name).take(MAX_NAME - own.length - 1).trimEnd('-') + "-" + own
            val load = offered(cell.condition.load, settings.rate)
            PlannedJob(name, cell, load, driverPlan(settings, cell, load))
        }
    }

    /**
     * The load of a condition: as written, or with `--rate` the fixed arrival rate that cost
     * mode would have calibrated, with the connection pool `protobench run` gives such a rate.
     * An open-model condition keeps its own rate, as in a run.
     */
    fun offered(load: LoadLevel, rate: Int?): LoadLevel = when {
        rate != null && load is LoadLevel.Vus -> LoadLevel.Rate(rate, LoadLevel.rateVus(load.vus))
        else -> load
    }

    /** The trial's plan as the local runner builds it, against the gateway's Service, with a warm-up before the timed phase. */
    private fun driverPlan(settings: ExportSettings, cell: Cell, load: LoadLevel): Plan = DriverPlans.plan(
        ServerManifests.gatewayUrl(settings.namespace),
        listOf(DriverPlans.target(cell, ::levelBytes)),
        load,
        settings.duration,
    ).copy(warmUpMs = settings.warmUp.toMillis())

    /**
     * The `serializedSize` the gateway reports for a level: the same [RecordShape] the
     * gateway measures at start-up and serves at `/api/complexities`, computed here since
     * no gateway is running.
     */
    private fun levelBytes(level: String, arm: Arm): Long {
        val shape = RecordShape.of(ComplexityLevel.parse(level))
        return (if (arm.reportsJsonBytes) shape.jsonBytes else shape.protobufBytes).toLong()
    }

    /** The ConfigMap of every Job's plan, one JSON file each. */
    fun plansConfigMap(settings: ExportSettings, jobs: List<PlannedJob>, toJson: (Plan) -> String): ConfigMap = ConfigMap(
        ObjectMeta(PLANS_CONFIG_MAP, settings.namespace, ServerManifests.partOf()),
        jobs.associate { it.planKey to toJson(it.plan) },
    )

    /**
     * The Job of [planned]: N pods, pod i running part i of N of the plan (`--job-part N`
     * reads i from `JOB_COMPLETION_INDEX`) and printing its output to its log.
     */
    fun job(settings: ExportSettings, planned: PlannedJob): Job {
        val labels = ServerManifests.partOf() + mapOf(
            "app.kubernetes.io/name" to "protobench-$CONTAINER",
            "protobench.io/scenario" to scenarioSlug(settings.scenario.name).take(63).trimEnd('-'),
        )
        val container = Container(
            name = CONTAINER,
            image = settings.images.driver,
            imagePullPolicy = "IfNotPresent",
            args = listOf("run", "$PLANS_DIR/${planned.planKey}", Part.JOB_PART_FLAG, settings.pods.toString()),
            // The driver's JVM as `protobench run` starts it: a small heap, the serial collector.
            env = listOf(EnvVar("JAVA_TOOL_OPTIONS", DriverProcess.JVM_OPTIONS.joinToString(" "))),
            resources = settings.driver,
            volumeMounts = listOf(VolumeMount(PLANS_VOLUME, PLANS_DIR)),
        )
        val pod = PodSpec(
            listOf(container),
            restartPolicy = "Never",
            volumes = listOf(Volume(PLANS_VOLUME, ConfigMapVolume(PLANS_CONFIG_MAP))),
        )
        return Job(
            ObjectMeta(planned.name, settings.namespace, labels, annotations(planned)),
            JobSpec(
                "Indexed",
                completions = settings.pods,
                parallelism = settings.pods,
                backoffLimit = 0,
                template = PodTemplate(PodLabels(labels), pod),
            ),
        )
    }

    private fun annotations(planned: PlannedJob) = mapOf(
        "protobench.io/condition" to planned.cell.condition.label,
        "protobench.io/arm" to planned.cell.arm.label,
        "protobench.io/load" to describe(planned.load),
    )

    /** The load all pods offer together, in words. */
    fun describe(load: LoadLevel): String = when (load) {
        is LoadLevel.Vus -> "closed model, ${load.vus} users"
        is LoadLevel.Rate -> "open model, ${load.perSecond}/s on up to ${load.maxVus} connections"
    }

    /**
     * jobs/order.tsv: the file, the Job's name and the gateway window's protocol and test
     * name (URL-encoded for the query), one Job a line, in the order to run.
     */
    fun order(jobs: List<PlannedJob>): String = jobs.joinToString("") { job ->
        listOf(job.file, job.name, encode(job.cell.arm.label), encode(job.windowName)).joinToString("\t") + "\n"
    }

    private fun encode(text: String) = URLEncoder.encode(text, Charsets.UTF_8).replace("+", "%20")

    private fun slug(text: String) = text.lowercase().replace(Regex("[^a-z0-9]+"), "-").trim('-')

    /** A DNS label must start with a letter or digit: a scenario named without any gets a neutral one. */
    private fun scenarioSlug(name: String) = slug(name).ifEmpty { "protobench" }
}
