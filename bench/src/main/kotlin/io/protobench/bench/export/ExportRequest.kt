package io.protobench.bench.export

import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Violation
import io.protobench.driver.Part
import java.nio.file.Files
import java.nio.file.InvalidPathException
import java.nio.file.Path
import java.time.Duration

/** What `protobench export kubernetes` was asked for, as given on the command line. */
data class ExportRequest(
    val scenario: String,
    val pods: Int,
    val out: String,
    val force: Boolean = false,
    val namespace: String = ExportDefaults.NAMESPACE,
    val duration: String = ExportDefaults.DURATION,
    val warmUp: String = ExportDefaults.WARM_UP,
    /** The fixed arrival rate (requests/s, all pods together) for closed-model conditions; null keeps them closed. */
    val rate: Int? = null,
    val dataServerImage: String = ExportDefaults.dataServerImage(),
    val gatewayImage: String = ExportDefaults.gatewayImage(),
    val driverImage: String = ExportDefaults.driverImage(),
    val serverCpu: String = ExportDefaults.SERVER_CPU,
    val serverMemory: String = ExportDefaults.SERVER_MEMORY,
    val driverCpu: String = ExportDefaults.DRIVER_CPU,
    val driverMemory: String = ExportDefaults.DRIVER_MEMORY,
)

/** The images of the two servers and of the load driver. */
data class Images(val dataServer: String, val gateway: String, val driver: String)

/** A checked [ExportRequest]: every value usable, the scenario loaded and validated. */
data class ExportSettings(
    val scenario: Scenario,
    /** Driver pods per Job: each runs part i of the trial's plan. */
    val pods: Int,
    val out: Path,
    val namespace: String,
    /** Each pod's timed phase. */
    val duration: Duration,
    /** Each pod's warm-up before it, at the same load. */
    val warmUp: Duration,
    val rate: Int?,
    val images: Images,
    /** Each server's pod; both servers get the same. */
    val server: Resources,
    /** Each driver pod. */
    val driver: Resources,
)

/** Every reason an export request cannot be carried out; nothing was written. */
class InvalidExport(val violations: List<Violation>) :
    RuntimeException(violations.joinToString("\n", prefix = "cannot export:\n") { "  - $it" })

/** Checks an [ExportRequest], reporting every problem at once, as scenario files are checked. */
object ExportValidation {
    private const val SOURCE = "command line"
    private val DNS_LABEL = Regex("^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")

    /** A registry host with an optional port, path components, an optional tag and digest. */
    private val IMAGE = Regex(
        "^[a-zA-Z0-9.-]+(:[0-9]+)?(/[a-z0-9]+([._-]+[a-z0-9]+)*)*" +
            "(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[0-9a-f]{64})?$",
    )

    fun check(request: ExportRequest): ExportSettings {
        val violations = mutableListOf<Violation>()
        val scenario = loadScenario(request.scenario, violations)
        val duration = duration("--duration", request.duration, ExportDefaults.DURATION_RANGE, "from 10s to 1h", violations)
        val warmUp = duration("--warm-up", request.warmUp, ExportDefaults.WARM_UP_RANGE, "from 0s to 10m", violations)
        checkCounts(request, violations)
        checkNames(request, violations)
        checkCpu("--server-cpu", request.serverCpu, violations)
        checkCpu("--driver-cpu", request.driverCpu, violations)
        checkMemory("--server-memory", request.serverMemory, ServerHeap.DEFAULT_BYTES + ExportDefaults.NON_HEAP_BYTES, violations)
        checkMemory("--driver-memory", request.driverMemory, ExportDefaults.DRIVER_MEMORY_FLOOR, violations)
        scenario?.let { checkScenario(it, request, violations) }
        val out = outFolder(request.out, request.force, violations)
        if (violations.isNotEmpty()) throw InvalidExport(violations)
        val settings = ExportSettings(
            scenario!!, request.pods, out!!, request.namespace, duration!!, warmUp!!, request.rate,
            Images(request.dataServerImage, request.gatewayImage, request.driverImage),
            server = Resources.guaranteed(request.serverCpu, request.serverMemory),
            driver = Resources.guaranteed(request.driverCpu, request.driverMemory),
        )
        val parts = partViolations(settings)
        if (parts.isNotEmpty()) throw InvalidExport(parts)
        return settings
    }

    private fun duration(
        flag: String,
        text: String,
        range: ClosedRange<Duration>,
        words: String,
        violations: MutableList<Violation>,
    ): Duration? {
        val duration = DurationText.parseOrNull(text)?.takeIf { it in range }
        if (duration == null) violations += Violation(SOURCE, flag, text, "${DurationText.ACCEPTED} $words")
        return duration
    }

    private fun checkCounts(request: ExportRequest, violations: MutableList<Violation>) {
        if (request.pods !in 1..ExportDefaults.MAX_PODS) {
            violations += Violation(
                SOURCE,
                "--pods",
                request.pods.toString(),
                "a whole number of driver pods from 1 to ${ExportDefaults.MAX_PODS}",
            )
        }
        request.rate?.takeIf { it !in 1..ScenarioParser.MAX_RATE }?.let {
            violations += Violation(SOURCE, "--rate", it.toString(), "requests per second from 1 to ${ScenarioParser.MAX_RATE}")
        }
    }

    private fun checkNames(request: ExportRequest, violations: MutableList<Violation>) {
        if (!DNS_LABEL.matches(request.namespace)) {
            violations += Violation(
                SOURCE,
                "--namespace",
                request.namespace,
                "a Kubernetes namespace name: lowercase letters, digits and '-', at most 63, starting and ending with a letter or digit",
            )
        }
        listOf(
            "--data-server-image" to request.dataServerImage,
            "--gateway-image" to request.gatewayImage,
            "--driver-image" to request.driverImage,
        ).filterNot { (_, image) -> IMAGE.matches(image) }
            .forEach { (flag, image) ->
                violations += Violation(SOURCE, flag, image, "an image reference such as registry.example:5000/team/data-server:0.1.0")
            }
    }

    /** The scenario as `protobench run` loads it, or null with its violations (an unknown name lists the built-in ones). */
    private fun loadScenario(name: String, violations: MutableList<Violation>): Scenario? = try {
        ScenarioCatalog.load(name)
    } catch (e: InvalidScenario) {
        violations += e.violations
        null
    }

    private fun checkScenario(scenario: Scenario, request: ExportRequest, violations: MutableList<Violation>) {
        if (scenario.variants.isNotEmpty()) {
            violations += Violation(
                SOURCE,
                "--scenario",
                request.scenario,
                "a scenario without variants",
                "--scenario ${request.scenario}: scenario ${scenario.name} compares server settings as variants " +
                    "(${scenario.variants.joinToString { it.name }}); " +
                    "the export deploys one server pair with the default settings",
            )
        }
        if (scenario.topology != Topology.GATEWAY) {
            violations += Violation(
                SOURCE,
                "--scenario",
                request.scenario,
                "a scenario with topology gateway",
                "--scenario ${request.scenario}: scenario ${scenario.name} has topology ${scenario.topology.id} " +
                    "(the load generator calls the data-server over each protocol itself); " +
                    "the export's driver calls the gateway only",
            )
        }
        if (scenario.writes) {
            violations += Violation(
                SOURCE,
                "--scenario",
                request.scenario,
                "a scenario that reads (sizes or complexities)",
                "--scenario ${request.scenario}: scenario ${scenario.name} creates members, whose bodies and row checks the local runner " +
                    "prepares; the export covers reads only",
            )
        }
    }

    /**
     * Every job's plan checked as its last part will run it (the part with the smallest share
     * of users or connections), by the driver's own rules: a part that would get no user, or
     * a rate per pod above what one driver sends, is refused here rather than in a pod.
     */
    private fun partViolations(settings: ExportSettings): List<Violation> {
        val last = Part(settings.pods - 1, settings.pods)
        return DriverJobs.plan(settings).flatMap { last.problems(it.plan) }.distinct().map { problem ->
            Violation(
                SOURCE,
                "--pods",
                settings.pods.toString(),
                "a number of pods every part of every job can run",
                "--pods ${settings.pods}${settings.rate?.let { " --rate $it" } ?: ""}: scenario ${settings.scenario.name}: $problem",
            )
        }
    }

    /** The output folder: absent, empty, or (with --force) one whose files the export may replace. */
    private fun outFolder(text: String, force: Boolean, violations: MutableList<Violation>): Path? {
        val path = try {
            Path.of(text).toAbsolutePath().normalize()
        } catch (e: InvalidPathException) {
            violations += Violation(SOURCE, "--out", text, "a folder path", "--out $text is not a path: ${e.message}")
            return null
        }
        when {
            !Files.exists(path) -> Unit

            !Files.isDirectory(path) ->
                violations += Violation(SOURCE, "--out", text, "a folder (absent or empty)", "--out $path is a file")

            !force && Files.list(path).use { it.findAny().isPresent } ->
                violations += Violation(
                    SOURCE,
                    "--out",
                    text,
                    "an absent or empty folder, or --force to replace the export in it",
                    "--out $path is not empty",
                )
        }
        return path
    }

    /** Kubernetes CPU: whole or decimal cores (up to 3 decimals) or millicores, above zero. */
    private fun checkCpu(flag: String, text: String, violations: MutableList<Violation>) {
        val millis = Regex("^(\\d{1,6})m$").matchEntire(text)?.groupValues?.get(1)?.toLong()
            ?: Regex("^\\d{1,4}(\\.\\d{1,3})?$").matchEntire(text)?.let { (text.toDouble() * 1000).toLong() }
        if (millis == null || millis <= 0) {
            violations += Violation(
                SOURCE,
                flag,
                text,
                "a CPU amount above zero: cores (2, 0.5) or millicores (500m)",
            )
        }
    }

    /** Kubernetes memory with a binary (Ki, Mi, Gi, Ti) or decimal (k, M, G, T) suffix or plain bytes, at least [least] bytes. */
    private fun checkMemory(flag: String, text: String, least: Long, violations: MutableList<Violation>) {
        val bytes = memoryBytes(text)
        val floor = "${least shr 20}Mi"
        when {
            bytes == null -> violations += Violation(SOURCE, flag, text, "memory such as 1536Mi, 2Gi or 2G")

            bytes < least -> violations += Violation(
                SOURCE,
                flag,
                text,
                if (flag == "--server-memory") {
                    "at least $floor: the servers run with a 1g heap (as in protobench run) " +
                        "and need room beside it"
                } else {
                    "at least $floor"
                },
            )
        }
    }

    private fun memoryBytes(text: String): Long? {
        val (number, unit) = Regex("^(\\d{1,13})(Ki|Mi|Gi|Ti|k|M|G|T)?$").matchEntire(text)?.destructured ?: return null
        val factor = when (unit) {
            "Ki" -> 1L shl 10
            "Mi" -> 1L shl 20
            "Gi" -> 1L shl 30
            "Ti" -> 1L shl 40
            "k" -> 1_000L
            "M" -> 1_000_000L
            "G" -> 1_000_000_000L
            "T" -> 1_000_000_000_000L
            else -> 1L
        }
        return number.toLong().takeIf { it <= Long.MAX_VALUE / factor }?.times(factor)
    }
}
