package io.protobench.bench.crossover

import io.protobench.bench.design.Judge
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.Numbers
import io.protobench.bench.scenario.Axis
import io.protobench.bench.scenario.CrossoverDefaults
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.MessageFile
import io.protobench.bench.scenario.MessageSpec
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Probes
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioFile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Violation
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize

/** The flags of `protobench crossover` as given; [CrossoverPlan.of] checks them. */
data class CrossoverRequest(
    val pair: String,
    val axis: String,
    val from: String,
    val to: String,
    val resolution: Double = CrossoverPlan.DEFAULT_RESOLUTION,
    val steps: Int = CrossoverPlan.DEFAULT_STEPS,
    val size: String? = null,
    val vus: Int? = null,
    val mode: String? = null,
    /** The figure compared at every point ([PointVerdict.FIGURES]); null for the mode's primary one. */
    val figure: String? = null,
    val forks: Int = CrossoverPlan.DEFAULT_FORKS,
    val maxForks: Int? = null,
    val duration: String = CrossoverPlan.DEFAULT_DURATION,
    val margin: String? = null,
    /** The user's own message (`--message`, `--proto`, `--sample`, `-I`): what the count axis batches. */
    val message: MessageFile? = null,
    /** Cost mode: each point's rate as a share of the slowest protocol's capacity there ("30%"); null for the scenario default. */
    val utilisation: String? = null,
    /** `--edge`: also search where one end's lead stops being shown when the other end has no winner. */
    val edge: Boolean = false,
)

/** Bad crossover flags, every one with what is accepted. */
class InvalidCrossover(val violations: List<Violation>) :
    RuntimeException(violations.joinToString("\n", prefix = "invalid crossover search:\n") { "  - $it" })

/**
 * A checked crossover search: the pair, the axis and its range, how finely to search,
 * and the scenario every point runs — one condition with the pair's two protocols and
 * the null hop (which hop CPU needs), the other axes fixed. Every point's scenario goes
 * through [ScenarioParser.validate]; both ends are validated up front, and whatever holds
 * at both ends (payload sizes the servers serve, the heap the payloads need in flight)
 * holds between them.
 */
class CrossoverPlan private constructor(
    val a: Protocol,
    val b: Protocol,
    val axis: Axis,
    val from: Long,
    val to: Long,
    val resolution: Double,
    val steps: Int,
    /** Also search one end's lead when the other end has no winner ([CrossoverSearch]). */
    val edge: Boolean,
    val mode: Mode,
    /** Compared at every point: hop CPU per request or hop p50 in cost mode, throughput in capacity mode. */
    val figure: Figure,
    /** The payload size when the axis is vus or rate. */
    val size: String,
    /** Virtual users when the axis is not vus (with the rate axis: the open model gets max(2 × vus, 50)). */
    val vus: Int,
    private val base: ScenarioFile,
    private val heapBytes: Long,
) {
    /** Decides each point on [figure], and whether it needs more forks. */
    val verdict = PointVerdict(figure)

    /** The scenario of point [n] at [position]; throws [InvalidScenario] (not expected between two valid ends). */
    fun scenario(n: Int, position: Long): Scenario = ScenarioParser.validate(
        axis.scenarioAt(base, position, size, vus).copy(
            name = "crossover-$n-${axis.slug(position)}",
            description = Texts.EN("crossover.point-description", a.label, b.label, axis.id, n, axis.display(position)),
        ),
        SOURCE,
        serverHeapBytes = heapBytes,
    )

    /**
     * Most points the search measures: both ends and the midpoints it may take within
     * [steps]. The search only splits a bracket between two neighbouring points until it is
     * narrower than [resolution] (adjacent levels for complexity), so its points are a subset
     * of one full bisection of the range: at worst every midpoint undecided, a bracket left
     * on each side of it.
     */
    val maxPoints: Int get() = 2 + splits(from, to, steps)

    /** Midpoints a full bisection of [low]..[high] down to [resolution] takes, counted up to [budget]. */
    private fun splits(low: Long, high: Long, budget: Int): Int {
        if (budget <= 0 || axis.narrow(low, high, resolution)) return 0
        val middle = axis.midpoint(low, high) ?: return 0
        val below = splits(low, middle, budget - 1)
        return 1 + below + splits(middle, high, budget - 1 - below)
    }

    /** Rough seconds of one point at its minimum forks, from [Scenario.estimatedSeconds]. */
    fun pointSeconds(): Long = scenario(0, to).estimatedSeconds()

    /** The estimate to show before starting: the most points, each at its minimum forks and at its most. */
    fun estimate(): String {
        val point = pointSeconds()
        val least = maxPoints * point
        val most = least * base.maxForks!! / base.forks!!
        val upTo = if (most > least) ", up to ${minutes(most)} if points stay undecided and get up to ${base.maxForks} forks" else ""
        return "at most $maxPoints points (both ends and up to ${maxPoints - 2} midpoints), " +
            "about ${minutes(point)} each at ${base.forks} forks: about ${minutes(least)} in all$upTo"
    }

    /** The settings every point shares, for reports: in English as crossover.json keeps it (the report reads it back in its language). */
    val fixed: String get() {
        val load = when (axis) {
            Axis.VUS -> Texts.EN("crossover.load.vus")
            Axis.RATE -> Texts.EN("crossover.load.rate", Axis.rateVus(vus))
            else -> Texts.EN("crossover.load.closed", vus)
        }
        val trials = if (mode == Mode.COST && axis != Axis.RATE) {
            Texts.EN("crossover.trials.cost", Numbers.percentText(scenario(0, from).utilisation))
        } else {
            Texts.EN(if (mode == Mode.COST) "crossover.trials.rate" else "crossover.trials.capacity")
        }
        val payloadAndLoad = if (axis == Axis.VUS || axis == Axis.RATE) Texts.EN("crossover.payload", size, load) else load
        return if (base.maxForks == base.forks) {
            Texts.EN("crossover.fixed.forks", payloadAndLoad, trials, base.duration, base.forks)
        } else {
            Texts.EN("crossover.fixed", payloadAndLoad, trials, base.duration, base.forks, base.maxForks)
        }
    }

    val margin: Double get() = scenario(0, from).margin

    /** The user's message every point batches (the count axis), as the first point's scenario resolved it. */
    val message: MessageSpec? get() = if (axis == Axis.COUNT) scenario(0, from).message else null

    companion object {
        const val DEFAULT_RESOLUTION = 1.25
        const val DEFAULT_STEPS = 6
        const val MAX_STEPS = 30
        const val DEFAULT_FORKS = CrossoverDefaults.FORKS
        const val DEFAULT_DURATION = "5s"
        const val DEFAULT_SIZE = "1kb"
        const val DEFAULT_VUS = 10
        private const val SOURCE = "command line (crossover)"
        private const val MAX_RESOLUTION = 100.0

        /** Seconds as whole minutes, rounded up: "6 min". */
        fun minutes(seconds: Long) = "${wholeMinutes(seconds)} min"

        /** Seconds as whole minutes, rounded up. */
        fun wholeMinutes(seconds: Long) = (seconds + 59) / 60

        /** [request] checked, for servers with [heapBytes] of heap; [InvalidCrossover] lists every problem. */
        fun of(request: CrossoverRequest, heapBytes: Long = ServerHeap.DEFAULT_BYTES): CrossoverPlan {
            val violations = mutableListOf<Violation>()
            fun violation(flag: String, value: Any?, accepted: String) {
                violations += Violation("command line", flag, value?.toString(), accepted)
            }

            val pair = pair(request.pair, ::violation)
            val axis = Axis.parse(request.axis)
            if (axis == null) violation("--axis", request.axis, "one of ${Axis.acceptedIds}")
            fun point(flag: String, text: String): Long? = axis?.parse(text).also {
                if (axis != null &&
                    it == null
                ) {
                    violation(flag, text, axis.accepted)
                }
            }
            val from = point("--from", request.from)
            val to = point("--to", request.to)
            if (axis != null && from != null && to != null && from >= to) {
                violation(
                    "--to",
                    request.to,
                    "a point above --from (${axis.display(from)}) on the ${axis.id} axis: the search runs from --from up to --to",
                )
            }
            if (!request.resolution.isFinite() || request.resolution <= 1.0 || request.resolution > MAX_RESOLUTION) {
                violation(
                    "--resolution",
                    request.resolution,
                    "a ratio above 1 and at most ${MAX_RESOLUTION.toInt()}, e.g. 1.25: " +
                        "the search stops when a bracket's ends are within it",
                )
            }
            if (request.steps !in 0..MAX_STEPS) violation("--steps", request.steps, "a whole number of midpoints from 0 to $MAX_STEPS")
            val mode = Mode.parse(request.mode ?: Mode.COST.id)
            if (mode == null) violation("--mode", request.mode, Mode.accepted)
            if (axis == Axis.RATE && mode == Mode.CAPACITY) {
                violation(
                    "--mode",
                    request.mode,
                    "cost with --axis rate: capacity mode saturates the servers with virtual users, a fixed rate is a cost-mode load",
                )
            }
            val figure = mode?.let { PointVerdict.figure(it, request.figure) }
            if (mode != null && figure == null) violation("--figure", request.figure, PointVerdict.accepted(mode))
            if ((axis == Axis.COUNT) != (request.message != null) && axis != null) {
                violation(
                    if (axis == Axis.COUNT) "--message" else "--axis",
                    if (axis == Axis.COUNT) null else request.axis,
                    "--axis count with --message, --proto and --sample (a batch of your own message), and neither without the other",
                )
            }
            if (request.size != null) {
                if (axis == Axis.SIZE || axis == Axis.COMPLEXITY || axis == Axis.COUNT) {
                    violation("--size", request.size, "--size only with --axis vus or rate (the size is the axis, or objects have no size)")
                } else if (runCatching { PayloadSize.parse(request.size) }.isFailure) {
                    violation(
                        "--size",
                        request.size,
                        PayloadSize.ACCEPTED,
                    )
                }
            }
            if (request.vus != null) {
                if (axis == Axis.VUS) {
                    violation("--vus", request.vus, "--vus only when the axis is not vus (it is the axis)")
                } else if (request.vus !in 1..ScenarioParser.MAX_VUS) {
                    violation(
                        "--vus",
                        request.vus,
                        "a whole number of virtual users from 1 to ${ScenarioParser.MAX_VUS}",
                    )
                }
            }
            if (violations.isNotEmpty()) throw InvalidCrossover(violations)

            val base = ScenarioFile(
                name = "crossover",
                protocols = listOf(pair!!.first.label, pair.second.label),
                mode = mode!!.id,
                duration = request.duration,
                forks = request.forks,
                // A fixed design at the forks asked for, unless --max-forks asks for more looks.
                maxForks = request.maxForks ?: request.forks,
                margin = request.margin,
                utilisation = request.utilisation,
                nullHop = true,
                noiseControl = false,
                // Cost mode compares hop cost; the probes only calibrate the rate.
                probes = Probes.FIRST_FORK.id,
                message = request.message,
            )
            val plan = CrossoverPlan(
                pair.first, pair.second, axis!!, from!!, to!!, request.resolution, request.steps, request.edge, mode, figure!!,
                request.size?.let { PayloadSize.parse(it).toString() } ?: DEFAULT_SIZE, request.vus ?: DEFAULT_VUS, base, heapBytes,
            )
            val ends = listOf(from, to).flatMap { end ->
                try {
                    plan.scenario(0, end)
                    emptyList()
                } catch (e: InvalidScenario) {
                    e.violations
                }
            }
            // A field the command line gave is named by its flag: the user typed --forks, not a scenario's forks.
            val flags = mapOf(
                "forks" to "--forks",
                "maxForks" to if (request.maxForks != null) "--max-forks" else "--forks",
                "duration" to "--duration",
                "margin" to "--margin",
                "utilisation" to "--utilisation",
                "message.proto" to "--proto",
                "message.type" to "--message",
                "message.sample" to "--sample",
                "message.protoPath" to "-I/--proto-path",
            )
            if (ends.isNotEmpty()) {
                throw InvalidCrossover(
                    ends.distinctBy { it.field to it.value }.map { v -> flags[v.field]?.let { v.copy(field = it) } ?: v },
                )
            }
            return plan
        }

        private fun pair(text: String, violation: (String, Any?, String) -> Unit): Pair<Protocol, Protocol>? {
            val names = text.split(",").map { it.trim() }
            val accepted = "two different protocols separated by a comma, e.g. gRPC/Unary,HTTP/Binary; " +
                "protocols: ${Protocol.acceptedLabels}"
            if (names.size != 2) {
                violation("--pair", text, accepted)
                return null
            }
            val protocols = names.map { name ->
                try {
                    Protocol.parse(name)
                } catch (e: InvalidParameter) {
                    violation("--pair", name, "a protocol: ${e.accepted}")
                    null
                }
            }
            val (first, second) = protocols
            if (first == null || second == null) return null
            if (first == second) {
                violation("--pair", text, accepted)
                return null
            }
            return first to second
        }
    }
}

/**
 * The one comparison a crossover point is run for: the pair on [figure] (hop CPU per request
 * or hop p50 of the cost trials in cost mode, throughput of the capacity trials in capacity
 * mode), decided as every report decides it.
 */
class PointVerdict(val figure: Figure) {

    /** The decision of a point's run between its two protocols on [figure]; null before any valid pair of trials. */
    fun decision(record: RunRecord): Decision? {
        val kind = if (record.scenario.mode == Mode.CAPACITY) TrialKind.CAPACITY else TrialKind.COST
        return Analysis.of(record).singleOrNull()?.family(kind)?.protocolDecisions?.firstOrNull { it.figure == figure.key }
    }

    /**
     * The planner's view of a point: more forks only while the compared figure is undecided
     * (the other figures the run also decides do not hold the point open).
     */
    val judge = Judge { record ->
        val decision = decision(record)
        record.scenario.conditions.associate { c ->
            c.label to listOfNotNull(decision?.let { OpenComparison.of(c.label, it, Figure.byKey(it.figure)?.title ?: it.figure) })
        }
    }

    companion object {
        /** The figures a search may compare in each mode, by the name `--figure` takes; the first is the mode's default. */
        val FIGURES: Map<Mode, Map<String, Figure>> = mapOf(
            Mode.COST to linkedMapOf("hop-cpu" to Figure.HOP_CPU_US, "hop-p50" to Figure.HOP_P50),
            Mode.CAPACITY to linkedMapOf("throughput" to Figure.THROUGHPUT),
        )

        /** The figure [name] names in [mode] (its default when null), or null when the mode does not compare it. */
        fun figure(mode: Mode, name: String? = null): Figure? {
            val figures = FIGURES.getValue(mode)
            return if (name == null) figures.values.first() else figures[name.trim().lowercase()]
        }

        fun accepted(mode: Mode): String =
            "in ${mode.id} mode: ${FIGURES.getValue(mode).keys.joinToString(" or ")} (default ${FIGURES.getValue(mode).keys.first()})"
    }
}
