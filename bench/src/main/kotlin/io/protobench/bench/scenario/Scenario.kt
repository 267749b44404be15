package io.protobench.bench.scenario

import io.protobench.contract.Protocol
import java.time.Duration

/**
 * A validated benchmark scenario: which protocols to compare under which
 * conditions, for how long, how many times. Built only by [ScenarioParser], which
 * refuses invalid input, so every instance is runnable.
 */
data class Scenario(
    val name: String,
    val description: String,
    /** The seed phase this scenario reproduces ("phase4"), for the comparison with the seeds' figures. */
    val seedPhase: String?,
    val workload: Workload,
    val protocols: List<Protocol>,
    val load: Load,
    /** Measured time of one trial. */
    val duration: Duration,
    /** Uncounted load applied to every cell once before the first trial. */
    val warmup: Duration,
    /** Trials per cell. */
    val repetitions: Int,
    /** Most warm-up rounds over all cells before trials start, stopping early once every cell has settled. */
    val warmupRounds: Int = 3,
    /**
     * Adds an A/A control cell per condition: the first protocol measured again as if it
     * were another. The spread between the two is the noise floor of that condition.
     */
    val noiseControl: Boolean = false,
) {
    /** Every condition the protocols are compared under, in scenario order. */
    val conditions: List<Condition>
        get() = workload.targets.flatMap { target -> load.levels.map { level -> Condition(target, level) } }

    val cells: List<Cell>
        get() = conditions.flatMap { c ->
            protocols.map { Cell(c, it) } + listOfNotNull(if (noiseControl) Cell(c, protocols.first(), control = true) else null)
        }

    /**
     * Rough wall time in seconds, warm-up counted at its most rounds: server start-up, then
     * for every cell its warm-up rounds and trials, each k6 run with its fixed overhead.
     */
    fun estimatedSeconds(): Long {
        val perCell = warmupRounds * (warmup.toMillis() / 1000.0 + K6_OVERHEAD_SECONDS) +
            repetitions * (duration.toMillis() / 1000.0 + K6_OVERHEAD_SECONDS)
        return (SERVER_START_SECONDS + cells.size * perCell).toLong()
    }

    companion object {
        /** Measured on the reference machine: k6 start and exit plus opening and closing the gateway window. */
        const val K6_OVERHEAD_SECONDS = 0.6
        const val SERVER_START_SECONDS = 15.0
    }
}

/** What each request asks for: a payload of a size, or an object of a complexity level. */
sealed interface Workload {
    val targets: List<Target>

    data class Payload(val sizes: List<String>) : Workload {
        override val targets get() = sizes.map { Target.Size(it) }
    }

    data class Complexity(val levels: List<String>) : Workload {
        override val targets get() = levels.map { Target.Level(it) }
    }
}

sealed interface Target {
    /** Gateway path for a protocol, e.g. `/api/data/grpc?size=1kb`. */
    fun gatewayPath(protocol: Protocol): String
    val label: String

    data class Size(val size: String) : Target {
        override fun gatewayPath(protocol: Protocol) = "/api/data/${protocol.pathSegment}?size=$size"
        override val label get() = "size=$size"
    }

    data class Level(val complexity: String) : Target {
        override fun gatewayPath(protocol: Protocol) = "/api/complex/${protocol.pathSegment}?complexity=$complexity"
        override val label get() = "complexity=$complexity"
    }
}

/**
 * How load is offered. Closed: a fixed number of virtual users, each sending its
 * next request when the previous one returns (the seeds' model). Open: requests
 * arrive at a fixed rate whatever the response time (k6 constant-arrival-rate).
 */
sealed interface Load {
    val levels: List<LoadLevel>

    data class Closed(val vus: List<Int>) : Load {
        override val levels get() = vus.map { LoadLevel.Vus(it) }
    }

    data class Open(val ratesPerSecond: List<Int>, val maxVus: Int) : Load {
        override val levels get() = ratesPerSecond.map { LoadLevel.Rate(it, maxVus) }
    }
}

sealed interface LoadLevel {
    val label: String

    data class Vus(val vus: Int) : LoadLevel {
        override val label get() = "vus=$vus"
    }

    data class Rate(val perSecond: Int, val maxVus: Int) : LoadLevel {
        override val label get() = "rate=$perSecond/s"
    }
}

/** One point of the comparison: a workload target under one load level. */
data class Condition(val target: Target, val load: LoadLevel) {
    val label: String get() = "${target.label} ${load.label}"
}

/**
 * One protocol under one condition: the unit that trials measure. A [control] cell is
 * an A/A copy of a protocol, measured to learn how far two identical cells disagree.
 */
data class Cell(val condition: Condition, val protocol: Protocol, val control: Boolean = false) {
    /** The name of this cell's column in records and reports: "gRPC/Unary" or "gRPC/Unary (A/A)". */
    val protocolLabel: String get() = if (control) controlLabel(protocol.label) else protocol.label
    val label: String get() = "$protocolLabel ${condition.label}"

    companion object {
        private const val CONTROL_SUFFIX = " (A/A)"

        fun controlLabel(protocolLabel: String) = protocolLabel + CONTROL_SUFFIX

        /** The protocol label an A/A control label copies. */
        fun controlledLabel(controlLabel: String) = controlLabel.removeSuffix(CONTROL_SUFFIX)
    }
}
