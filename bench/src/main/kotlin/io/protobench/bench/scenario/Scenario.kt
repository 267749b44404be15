package io.protobench.bench.scenario

import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
import java.time.Duration

/**
 * A validated benchmark scenario: which protocols to compare under which conditions,
 * how, and with how many forks. Built only by [ScenarioParser], which refuses invalid
 * input, so every instance is runnable.
 *
 * A *fork* is a fresh pair of server JVMs, soaked until steady; inside a fork every arm
 * (protocol or control) of a condition is measured once, in shuffled order. Forks are
 * the independent unit every interval is computed over.
 */
data class Scenario(
    val name: String,
    val description: String,
    /** What is measured: one part for a single phase, several for `seeds` (each with its seed phase). */
    val parts: List<Part>,
    val protocols: List<Protocol>,
    val mode: Mode,
    /** Measured time of one arm in one fork (at least; see [trialDuration]). */
    val duration: Duration,
    val soak: Soak,
    /** Forks every condition gets before the adaptive planner may stop it. */
    val forks: Int,
    /** Most forks a condition may get while its comparisons are undecided. */
    val maxForks: Int,
    /** Practical margin: differences within ±margin are "equivalent" (0.05 = ±5%). */
    val margin: Double,
    /** Cost mode: the fixed arrival rate as a share of the condition's calibrated capacity. */
    val utilisation: Double,
    /** A null-hop control (the gateway answers without calling the data-server) in every condition. */
    val nullHop: Boolean,
    /** An A/A control (the first protocol measured again as if it were another) in every condition. */
    val aaControl: Boolean,
    /** Wall-time budget for the adaptive planner; null = no limit but [maxForks]. */
    val budget: Duration?,
    /** Cost mode: probe every protocol's capacity in every fork, or only in the first (for the calibration). */
    val probes: Probes = Probes.EVERY_FORK,
    /**
     * Named configurations of the server pair, compared like protocols: every fork starts
     * one fresh pair per variant. Empty: one pair with the run's own settings.
     */
    val variants: List<Variant> = emptyList(),
    /** Which variants are compared on each protocol: every pair, or each against the first (the baseline). */
    val compareVariants: VariantPairs = VariantPairs.EVERY_PAIR,
    /** Fewest requests a trial at a fixed rate holds: a slow link's trials run longer instead of counting a handful. */
    val minRequests: Int = DEFAULT_MIN_REQUESTS,
    /** Who calls the data-server: the gateway (the seeds' path) or the load driver itself. */
    val topology: Topology = Topology.GATEWAY,
    /**
     * Cost mode: fixed arrival rates by target name ("1kb", "simple", an image size) that
     * replace the calibrated rate, so that two runs, or two machines, measure the same
     * operating point. The capacity probe still runs and the report gives the share.
     */
    val costRates: Map<String, Int> = emptyMap(),
    /**
     * Trials of every arm per fork, each round in a fresh shuffled order: the fork's value
     * of an arm is the median of its rounds, so one disturbed trial does not move it.
     */
    val rounds: Int = 1,
    /**
     * Fewer forks than [forks] for the conditions of these targets (by target name, as
     * [costRates]): where the published runs show every comparison decided with fewer, the
     * forks they would take are spent elsewhere. A condition's maximum keeps the scenario's
     * distance from its minimum, so every condition has the same number of looks.
     */
    val forksByTarget: Map<String, Int> = emptyMap(),
    /** Rounds for the conditions of these targets instead of [rounds] (by target name). */
    val roundsByTarget: Map<String, Int> = emptyMap(),
    /**
     * Seed 003's own tools beside the load driver (hey for HTTP/JSON, ghz for gRPC/Unary): requests per
     * run by virtual users (the run's `-c`), e.g. {10: 100, 100: 10000}; empty = none.
     */
    val seedTools: Map<Int, Int> = emptyMap(),
    /** The built-in scenarios its `include` names (`decision-map`: map-size and map-complexity); empty for a scenario of its own. */
    val included: List<String> = emptyList(),
    /** The user's own message its [Workload.Items] carry; null for the lab's own payloads. */
    val message: MessageSpec? = null,
    /** Further sets of the gateway's hop clients, each measured as arms of its own on its protocols in the same server pair. */
    val hopClients: List<HopClient> = emptyList(),
) {
    /**
     * How long one trial runs: [duration], or longer at a fixed rate too low to fit
     * [minRequests] into it (wan at 1mb: 4/s for 5 s is 20 requests, whose CPU is a few
     * clock ticks). Never beyond [MAX_TRIAL]. A closed-model trial runs [duration].
     */
    fun trialDuration(offered: LoadLevel): Duration {
        val rate = (offered as? LoadLevel.Rate)?.perSecond ?: return duration
        val needed = Duration.ofMillis((minRequests * 1000L + rate - 1) / rate)
        return maxOf(duration, minOf(needed, MAX_TRIAL))
    }

    /** Every condition in scenario order; a condition shared by several parts is measured once, tagged with each phase. */
    val conditions: List<Condition>
        get() = parts.flatMap { part -> part.conditions() }
            .groupBy { it.label }
            .map { (_, same) -> same.first().copy(phases = same.flatMap { it.phases }.distinct()) }

    /** The condition labelled [label]. */
    fun condition(label: String): Condition = conditions.first { it.label == label }

    /** Forks [condition] gets before the planner may stop it: its target's own number, else [forks]. */
    fun forksOf(condition: Condition): Int = forksByTarget[condition.target.name] ?: forks

    /** Most forks [condition] may get: as many beyond its own minimum as [maxForks] is beyond [forks]. */
    fun maxForksOf(condition: Condition): Int = forksOf(condition) + (maxForks - forks)

    /** The conditions' minimum forks ([atMost]: maximum) as a sentence gives them: "5", or "4–5" when they differ. */
    fun forksText(atMost: Boolean = false): String {
        val counts = conditions.map { if (atMost) maxForksOf(it) else forksOf(it) }.ifEmpty { listOf(if (atMost) maxForks else forks) }
        return if (counts.min() == counts.max()) "${counts.min()}" else "${counts.min()}–${counts.max()}"
    }

    /** From the fewest forks a condition gets to the most it may get, as `list` and `run` give them: "3-9", "4-5". */
    fun forksRange(): String = "${conditions.minOfOrNull { forksOf(it) } ?: forks}-${conditions.maxOfOrNull { maxForksOf(it) } ?: maxForks}"

    /** Trials of every arm of [condition] per fork: its target's own number, else [rounds]. */
    fun roundsOf(condition: Condition): Int = roundsByTarget[condition.target.name] ?: rounds

    /** The arms of every condition: the protocols, each on the gateway's further hop clients, then the controls. */
    val arms: List<Arm>
        get() = protocols.map { Arm.Of(it) } +
            hopClients.flatMap { client -> client.protocols.map { Arm.OnClient(it, client.name) } } +
            listOfNotNull(if (nullHop) Arm.NullHop else null, if (aaControl) Arm.Replica(protocols.first()) else null)

    val cells: List<Cell> get() = conditions.flatMap { c -> arms.map { Cell(c, it) } }

    /** The variant names a fork starts a server pair for; one null entry when the scenario has no variants. */
    val variantNames: List<String?> get() = variants.map { it.name }.ifEmpty { listOf(null) }

    /** Every arm's label as trials record it: each arm under each variant. */
    val armLabels: List<String> get() = variantNames.flatMap { v -> arms.map { Variant.label(it.label, v) } }

    /** Whether any condition creates members: the data-server then starts with its write path (and database). */
    val writes: Boolean get() = conditions.any { it.target is Target.Members }

    /** The seed phases this scenario reproduces. */
    val seedPhases: List<String> get() = parts.mapNotNull { it.seedPhase }.distinct()

    /** Capacity probes in the first fork only (cost mode, `probes: first-fork`): they do not recur in later forks. */
    val probesOnce: Boolean get() = mode == Mode.COST && probes == Probes.FIRST_FORK

    /**
     * Rough wall time of every condition's minimum forks ([atMost]: its maximum): the run
     * takes as many forks as the condition that needs the most, and each fork starts its
     * JVMs and soaks ([estimatedForkOverheadSeconds]), then measures the conditions that
     * still need it ([estimatedConditionSeconds]), once per variant.
     */
    fun estimatedSeconds(atMost: Boolean = false): Long = estimatedSecondsWith(if (atMost) maxForks - forks else 0)

    /** Rough wall time when every condition takes [extra] forks beyond its minimum (see [estimatedSeconds]). */
    fun estimatedSecondsWith(extra: Int): Long {
        val forks = conditions.maxOfOrNull { forksOf(it) + extra } ?: 0
        val measuring = conditions.sumOf { (forksOf(it) + extra) * estimatedConditionSeconds(it) }
        return ((forks * estimatedForkOverheadSeconds() + measuring) * variantNames.size).toLong()
    }

    /**
     * How many forks beyond its minimum every condition can take within the [budget], by the
     * estimate, when that is fewer than the design allows ([maxForks] − [forks]); null without a
     * budget, for a fixed design, when the budget reaches the most, or when it does not reach the
     * minimum (the run says that apart). Each of the design's looks tests at α over all of them,
     * so the looks past this are paid for and not taken (statistics.md, "Looking more than once").
     */
    fun extraForksWithinBudget(): Int? {
        val seconds = budget?.seconds ?: return null
        val most = maxForks - forks
        val reached = (0..most).lastOrNull { estimatedSecondsWith(it) <= seconds } ?: return null
        return reached.takeIf { it < most }
    }

    /** The estimate in whole minutes as `list` and `run` print it: "14-24" from the minimum to the most forks, or the budget's "≤40". */
    fun estimatedMinutesText(): String {
        budget?.let { return "≤${it.toMinutes()}" }
        val least = estimatedSeconds() / 60 + 1
        val most = estimatedSeconds(atMost = true) / 60 + 1
        return if (most > least) "$least-$most" else "$least"
    }

    /**
     * A fork's start-up, soak (the middle of the soak's floor and cap), its first condition's longer warm-ups and the runner's own part.
     */
    fun estimatedForkOverheadSeconds(): Double =
        SERVER_START_SECONDS + soak.typical().seconds + arms.size * firstWarmUpExtraSeconds() + RUNNER_SECONDS

    /** What one arm's warm-up in a fork's first condition takes beyond [WARM_UP_SECONDS]: longer when the arm saturates the servers. */
    private fun firstWarmUpExtraSeconds(): Double =
        if (mode == Mode.CAPACITY) FIRST_WARM_UP_EXTRA_AT_CAPACITY_SECONDS else FIRST_WARM_UP_EXTRA_SECONDS

    /**
     * One condition in one fork: capacity probed once per protocol (cost mode; with probes
     * in the first fork only, spread over the condition's forks), every arm warmed up and
     * measured in each of its rounds. Without a condition: one of [forks] forks and [rounds] rounds.
     */
    fun estimatedConditionSeconds(condition: Condition? = null): Double {
        val forks = condition?.let(::forksOf) ?: forks
        val rounds = condition?.let(::roundsOf) ?: rounds
        val probing = if (probes == Probes.FIRST_FORK) estimatedProbeSeconds() / forks else estimatedProbeSeconds()
        return probing + arms.size * estimatedArmSeconds(rounds)
    }

    /** The capacity probes of one condition in a fork that probes it: each protocol once in cost mode (none apart in capacity mode). */
    fun estimatedProbeSeconds(): Double = if (mode == Mode.COST) protocols.size * estimatedArmSeconds(1) else 0.0

    /** One arm of a condition: its [rounds], after its own warm-up (a full collection, then windows until the JIT is quiet). */
    private fun estimatedArmSeconds(rounds: Int): Double = rounds * (duration.toMillis() / 1000.0 + TRIAL_GAP_SECONDS) + WARM_UP_SECONDS

    companion object {
        /**
         * For estimates, a trial's time beyond its duration (the gateway's window opened and
         * closed, the driver's summary read): 3 s trials start 3.04–3.08 s apart on the
         * reference machine (docs/journal/2026-11-30-time-estimates.md).
         */
        const val TRIAL_GAP_SECONDS = 0.1

        /**
         * For estimates, an arm's warm-up with the full collection before it, once a fork's
         * first condition has compiled what the soak's light mix left. Its floor is
         * [Soak.ARM_QUIET_WINDOWS] windows of [Soak.WARM_UP_WINDOW]; after the first condition
         * warm-ups averaged 2.7–4.1 s per arm a fork in two quicks of the Intel Xeon VM
         * (docs/journal/2026-12-02-time-to-a-verdict.md); 11–14 s in direct runs and across
         * links on the AMD EPYC VM.
         */
        const val WARM_UP_SECONDS = 3.5

        /**
         * For estimates, what an arm's warm-up in a fork's first condition takes beyond
         * [WARM_UP_SECONDS] at a fixed rate: its first arms still compile (5–14 s each, the
         * capacity probes' included): 7–40 s a fork of 6 arms, 18 on average, in the same two quicks.
         */
        const val FIRST_WARM_UP_EXTRA_SECONDS = 3.0

        /**
         * The same in capacity mode, where every warm-up saturates the servers with the
         * condition's users: the code paths of many connections at full load compile in the
         * warm-ups, not in the soak's light mix, and the JIT is often still busy at the 30 s
         * cap. 12–31 s an arm, 23.3 on average, in projectC a and b (Intel Xeon VM, one
         * condition of 500 users a server pair, so every warm-up was a first condition's).
         */
        const val FIRST_WARM_UP_EXTRA_AT_CAPACITY_SECONDS = 20.0

        /**
         * For estimates, starting a fork's driver and servers until both answer: 16.0–21.3 s a
         * fork (`forks[].time.start`) on the slower 2-core VM of
         * docs/journal/2026-12-02-time-to-a-verdict.md.
         */
        const val SERVER_START_SECONDS = 16.0

        /**
         * For estimates, a fork's time outside its timed parts (saving the record after every
         * trial, stopping the servers): 3.8 s a fork once the servers stop at once (`forks[].time.runner`).
         */
        const val RUNNER_SECONDS = 4.0

        /** 200 requests: CPU per request in /proc clock ticks (10 ms) stays fine-grained even at milliseconds per request. */
        const val DEFAULT_MIN_REQUESTS = 200
        val MAX_TRIAL: Duration = Duration.ofMinutes(10)
    }
}

/**
 * Where the hop under test runs. [GATEWAY]: driver → gateway → data-server, the hop is the
 * gateway's call (a JVM client), measured against the null hop. [DIRECT]: the load driver
 * calls the data-server itself over the four protocols (Reactor Netty for HTTP, grpc-java
 * for gRPC unary and server streams, the gateway's own clients), as seeds 003 and 004 do;
 * the hop is driver → data-server, with no gateway and no null hop, and its server side is
 * the data-server's whole CPU per request.
 */
enum class Topology(override val id: String) : Choice {
    GATEWAY("gateway"),
    DIRECT("direct"),
    ;

    companion object : Choices<Topology>({ entries })
}

/**
 * Where the data-server stores members. [H2]: embedded and in memory, in the data-server's
 * own JVM, fresh at every start (the seed's setup; nothing to install). [POSTGRESQL]: a
 * throw-away cluster the runner starts on loopback in the run's folder and stops with it
 * (its server programs installed), in processes of its own.
 */
enum class Database(override val id: String) : Choice {
    H2("h2"),
    POSTGRESQL("postgresql"),
    ;

    companion object : Choices<Database>({ entries })
}

/** A scenario field's value, named in files and on the command line by [id] ("cost", "first-fork", "direct"). */
interface Choice {
    /** The name a scenario file and run.json use: stable across releases (Jackson writes and reads the enum by it). */
    @get:com.fasterxml.jackson.annotation.JsonValue
    val id: String
}

/** An enum of [Choice]s' companion: [parse] a name, and what is [accepted], for the error message. */
abstract class Choices<E : Choice>(private val all: () -> List<E>) {
    fun parse(text: String): E? = all().named(text)
    val accepted: String get() = all().choices()
}

/** The entry named [text], in any case and with blanks around ignored; null when none is. */
fun <E : Choice> List<E>.named(text: String): E? = firstOrNull { it.id.equals(text.trim(), ignoreCase = true) }

/** What such a field accepts, for its error message: "cost or capacity". */
fun List<Choice>.choices(): String = joinToString(" or ") { it.id }

/**
 * Which variant comparisons a condition's family holds. [EVERY_PAIR] compares every two
 * variants on each protocol; [BASELINE] compares each variant with the first only, which
 * asks "does this setting move it from the baseline?" in a family of (variants − 1) ×
 * protocols × figures instead of one that grows with the square of the variants (projectC's
 * six variants made 180 comparisons a condition, and Holm's first step needed α/180).
 */
enum class VariantPairs(override val id: String) : Choice {
    EVERY_PAIR("every-pair"),
    BASELINE("baseline"),
    ;

    companion object : Choices<VariantPairs>({ entries })
}

/**
 * When capacity is probed in cost mode. [EVERY_FORK] gives capacity an interval over
 * forks (needed to judge the seeds' throughput tables); [FIRST_FORK] probes only to
 * calibrate the rate, which makes short runs shorter.
 */
enum class Probes(override val id: String) : Choice {
    EVERY_FORK("every-fork"),
    FIRST_FORK("first-fork"),
    ;

    companion object : Choices<Probes>({ entries })
}

/** One phase's worth of conditions: a workload under a load. */
data class Part(val seedPhase: String?, val workload: Workload, val load: Load) {
    fun conditions(): List<Condition> = workload.targets.flatMap { target ->
        load.levels.map { level -> Condition(target, level, listOfNotNull(seedPhase)) }
    }
}

/**
 * How a condition is measured. [COST]: a fixed arrival rate well below saturation
 * (utilisation × calibrated capacity), so CPU per request is not inflated by contention
 * and latency is free of coordinated omission. [CAPACITY]: the closed model at the
 * scenario's virtual users, saturating this machine, as the seeds measured throughput.
 */
enum class Mode(override val id: String) : Choice {
    COST("cost"),
    CAPACITY("capacity"),
    ;

    companion object : Choices<Mode>({ entries })
}

/**
 * The soak that starts every fork: all of the fork's endpoints in one mix at [vus]
 * virtual users, in consecutive [window]s, until throughput and CPU per request of the
 * last [STEADY_WINDOWS] windows stay within ±[tolerance] of their mean and the JIT is
 * quiet; never shorter than [min], never longer than [max] (a fork that hits the cap is
 * flagged unsettled). A light mix settles sooner: on two cores a saturating one starves
 * the JIT compiler threads it is waiting for.
 */
data class Soak(val window: Duration, val min: Duration, val max: Duration, val tolerance: Double = 0.05, val vus: Int = DEFAULT_VUS) {
    /** For estimates: halfway between floor and cap. */
    fun typical(): Duration = min.plus(max).dividedBy(2)

    companion object {
        const val STEADY_WINDOWS = 3
        const val DEFAULT_VUS = 2

        /**
         * An arm's warm-up before its trial is judged in windows this long. One second: the
         * fork's soak has compiled what every arm shares, so most warm-ups end in their first
         * quiet windows, and 12 arms of 2-second windows spent a minute of every fork there.
         */
        val WARM_UP_WINDOW: Duration = Duration.ofSeconds(1)

        /** Consecutive windows with the JIT quiet that end an arm's warm-up: its shortest run. */
        const val ARM_QUIET_WINDOWS = 2

        /** The longest an arm's warm-up runs (never longer than the soak's cap). */
        val WARM_UP_CAP: Duration = Duration.ofSeconds(30)
    }
}

/** What each request asks for: a payload of a size or an object of a complexity level (reads), or new members (writes). */
sealed interface Workload {
    val targets: List<Target>

    data class Payload(val sizes: List<String>) : Workload {
        override val targets get() = sizes.map { Target.Size(it) }
    }

    data class Complexity(val levels: List<String>) : Workload {
        override val targets get() = levels.map { Target.Level(it) }
    }

    /** Seed 003's member creation: one condition per profile image size, each request creating [batch] members. */
    data class Members(val images: List<String>, val batch: Int) : Workload {
        override val targets get() = images.map { Target.Members(it, batch) }
    }

    /** The user's own message ([Scenario.message]): one condition per batch size, each answer [counts] copies of its sample. */
    data class Items(val counts: List<Int>) : Workload {
        override val targets get() = counts.map { Target.Items(it) }
    }
}

/**
 * A user's own message as a scenario names it: absolute paths of its [proto] and JSON [sample],
 * its [type] and the folders its imports are relative to. The run checks and builds it before
 * anything starts (the `message` package), and both servers load what that built.
 */
data class MessageSpec(val proto: String, val type: String, val sample: String, val includes: List<String> = emptyList())

sealed interface Target {
    /** Gateway path for an arm, e.g. `/api/data/grpc?size=1kb`. */
    fun gatewayPath(arm: Arm): String
    val label: String

    /** The target as the workload lists it ("1kb", "simple", an image size): the key of [Scenario.costRates]. */
    val name: String

    /** The bytes one request carries that the protocol must move (payload, or images of a batch); null when unknown. */
    val bytes: Int?

    data class Size(val size: String) : Target {
        override fun gatewayPath(arm: Arm) = "/api/data/${arm.pathSegment}?size=$size${arm.clientQuery}"
        override val label get() = "size=$size"
        override val name get() = size
        override val bytes get() = PayloadSize.parse(size).bytes
    }

    data class Level(val complexity: String) : Target {
        override fun gatewayPath(arm: Arm) = "/api/complex/${arm.pathSegment}?complexity=$complexity${arm.clientQuery}"
        override val label get() = "complexity=$complexity"
        override val name get() = complexity
        override val bytes: Int? get() = null
    }

    /** `GET /api/message/<arm>?count=`: a batch of [count] items of the user's message, each decoded in full by the gateway. */
    data class Items(val count: Int) : Target {
        override fun gatewayPath(arm: Arm) = "/api/message/${arm.pathSegment}?count=$count${arm.clientQuery}"
        override val label get() = "count=$count"
        override val name get() = count.toString()
        override val bytes: Int? get() = null
    }

    /**
     * `POST /api/members/<arm>` creating [batch] members, each with a profile image of
     * [image] bytes and seed 003's other fields: the load driver sends one member as a JSON object, a
     * batch as a JSON array, with emails unique in the run.
     */
    data class Members(val image: String, val batch: Int) : Target {
        override fun gatewayPath(arm: Arm) = "/api/members/${arm.pathSegment}"
        override val label get() = if (batch == 1) "image=$image" else "image=$image batch=$batch"
        override val name get() = image
        val imageBytes: Int get() = PayloadSize.parse(image).bytes
        override val bytes get() = imageBytes * batch

        /** Members one correct answer of [arm] stands for: the batch, or none for the null hop, which creates nothing. */
        fun createdBy(arm: Arm): Int = if (arm == Arm.NullHop) 0 else batch
    }
}

/**
 * How load is offered. Closed: a fixed number of virtual users, each sending its
 * next request when the previous one returns (the seeds' model; in cost mode the
 * capacity probe). Open: requests arrive at fixed rates whatever the response time.
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
    /** How run.json and reports name it: "vus=10" or "rate=1500/s". */
    val label: String

    data class Vus(val vus: Int) : LoadLevel {
        override val label get() = vusLabel(vus)
    }

    /**
     * [perSecond] arrivals on at most [maxVus] keep-alive connections of the load driver
     * (virtual users, as the scenario still calls them). Over HTTP its pool opens a
     * connection only when none is idle; over gRPC [startVus] HTTP/2 connections take the
     * calls in turn. A direct trial's warm-up lasts as long as [startVus] connections take
     * to make their first calls (`DriverPlans.connectionWarmUp`).
     */
    data class Rate(val perSecond: Int, val maxVus: Int, val startVus: Int = maxVus) : LoadLevel {
        override val label get() = rateLabel(perSecond)
    }

    companion object {
        const val VUS_PREFIX = "vus="
        const val RATE_PREFIX = "rate="
        const val PER_SECOND = "/s"

        /** Virtual users an open-model trial may use to hold its rate, at the least. */
        const val MIN_RATE_VUS = 50

        fun vusLabel(vus: Int) = "$VUS_PREFIX$vus"

        fun rateLabel(perSecond: Int) = "$RATE_PREFIX$perSecond$PER_SECOND"

        /** The connections the driver may use to hold a fixed rate in a condition of [vus] closed-model users. */
        fun rateVus(vus: Int) = maxOf(2 * vus, MIN_RATE_VUS)

        /**
         * The connections a direct cost trial starts (and warms) with: twice the condition's
         * users. At half the capacity of [vus] users about half of them are busy; twice as many
         * leave room for a stall. A connection the driver opens during the trial starts cold,
         * and its first calls are counted as new and left out of the latency.
         */
        fun directStartVus(vus: Int) = 2 * vus // never above rateVus(vus)
    }
}

/** One point of the comparison: a workload target under one load level, with the seed phases it belongs to. */
data class Condition(val target: Target, val load: LoadLevel, val phases: List<String> = emptyList()) {
    val label: String get() = "${target.label} ${load.label}"
}

/**
 * What a condition measures side by side: a protocol under test, or a control. The
 * null hop measures the harness (load driver + gateway) alone; a replica measures a protocol a
 * second time as if it were another (A/A), to check that the verdicts do not call
 * noise a difference.
 */
sealed interface Arm {
    val label: String

    /** The gateway path segment that selects it: `/api/data/<segment>`. */
    val pathSegment: String

    /** The protocol whose answer size the gateway reports (JSON bytes for HTTP/JSON, protobuf otherwise). */
    val reportsJsonBytes: Boolean

    /** Which of the gateway's named sets of hop clients carries the hop; null: the gateway's own. */
    val client: String? get() = null

    /** The gateway query parameter that picks [client], with its leading '&'; empty for the gateway's own. */
    val clientQuery: String get() = client?.let { "&client=$it" } ?: ""

    data class Of(val protocol: Protocol) : Arm {
        override val label get() = protocol.label
        override val pathSegment get() = protocol.pathSegment
        override val reportsJsonBytes get() = protocol == Protocol.HTTP_JSON
    }

    /** A protocol over one of the gateway's further sets of hop clients ([Scenario.hopClients]): "HTTP/Binary (h2c)". */
    data class OnClient(val protocol: Protocol, override val client: String) : Arm {
        override val label get() = clientLabel(protocol.label, client)
        override val pathSegment get() = protocol.pathSegment
        override val reportsJsonBytes get() = protocol == Protocol.HTTP_JSON
    }

    data object NullHop : Arm {
        const val LABEL = "Null hop"
        override val label get() = LABEL
        override val pathSegment get() = "none"
        override val reportsJsonBytes get() = false
    }

    data class Replica(val protocol: Protocol) : Arm {
        override val label get() = replicaLabel(protocol.label)
        override val pathSegment get() = protocol.pathSegment
        override val reportsJsonBytes get() = protocol == Protocol.HTTP_JSON
    }

    companion object {
        private const val REPLICA_SUFFIX = " (A/A)"

        fun replicaLabel(protocolLabel: String) = protocolLabel + REPLICA_SUFFIX

        fun clientLabel(protocolLabel: String, client: String) = "$protocolLabel ($client)"

        /** The client set an arm's label names ("HTTP/Binary (h2c)" → h2c), or null for any other arm. */
        fun clientOf(label: String): String? = CLIENT_LABEL.matchEntire(label)?.groupValues?.get(1)?.takeIf { replicated(label) == null }

        private val CLIENT_LABEL = Regex(".+ \\(([a-z0-9][a-z0-9-]*)\\)")

        /** The protocol label an A/A label copies, or null when [label] is not an A/A label. */
        fun replicated(label: String): String? = label.takeIf { it.endsWith(REPLICA_SUFFIX) }?.removeSuffix(REPLICA_SUFFIX)
    }
}

/** One arm under one condition: what one trial measures. */
data class Cell(val condition: Condition, val arm: Arm) {
    val label: String get() = "${arm.label} ${condition.label}"
}

/**
 * One configuration of the server pair, compared with the scenario's other variants in
 * the same forks, exactly as protocols are. [gateway] and [dataServer] set `protobench.*`
 * properties of each server (checked against [io.protobench.contract.server.SettableSettings]);
 * [jvmOptions] go to both JVMs after the run's own; [heap] sets -Xms and -Xmx of both
 * (e.g. "512m", "2g"); [jdk] is an installed feature release ("17", "25") or a JDK path;
 * [network] is a network profile (`region`, `rtt=40ms,bandwidth=100mbit`) the hop crosses
 * in this variant's pairs, as `run --network` does for a whole run (seed project B).
 */
data class Variant(
    val name: String,
    val gateway: Map<String, String> = emptyMap(),
    val dataServer: Map<String, String> = emptyMap(),
    val jvmOptions: List<String> = emptyList(),
    val heap: String? = null,
    val jdk: String? = null,
    val network: String? = null,
    /**
     * Where a member-creation scenario stores members: `h2` (in the data-server's JVM) or `postgresql`
     * (a throw-away cluster); null: H2. With `run --db-url`, every variant but one naming `h2` writes to that database.
     */
    val database: String? = null,
    /**
     * The protocols this variant's settings are meant to move (a setting of the gateway's
     * HTTP client: the HTTP arms); across variants, a protocol is compared only where both
     * variants name it, so the variant family holds the comparisons the question asks.
     * Every protocol still runs under every variant: the protocols are compared with each
     * other under it, and the ones not named show what a fresh server pair moves anyway.
     * Empty: every protocol.
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
    val affects: List<String> = emptyList(),
) {
    /** Whether this variant's settings act on the protocol labelled [protocol]. */
    fun affects(protocol: String): Boolean = affects.isEmpty() || protocol in affects

    /** What makes this variant itself: two variants with equal settings measure the same thing. */
    @get:com.fasterxml.jackson.annotation.JsonIgnore
    val settings: List<Any?> get() = listOf(gateway, dataServer, jvmOptions, heap, jdk, network, database ?: Database.H2.id)

    /** The database this variant's data-server writes to. */
    @get:com.fasterxml.jackson.annotation.JsonIgnore
    val store: Database get() = database?.let(Database::parse) ?: Database.H2

    /** Both servers' JVM options: the run's, the variant's heap (replacing the run's), then the variant's own. */
    fun jvmOptions(runOptions: List<String>): List<String> {
        val base = if (heap == null) {
            runOptions
        } else {
            runOptions.filterNot { it.startsWith("-Xms") || it.startsWith("-Xmx") } + listOf("-Xms$heap", "-Xmx$heap")
        }
        return base + jvmOptions
    }

    /** Spring arguments: `--name=value` for each property, in a stable order. */
    fun gatewayArguments() = gateway.toSortedMap().map { (k, v) -> "--$k=$v" }
    fun dataServerArguments() = dataServer.toSortedMap().map { (k, v) -> "--$k=$v" }

    companion object {
        /** Between an arm and its variant in a label: "gRPC/Unary · copyFrom". Variant names cannot contain it. */
        const val SEPARATOR = " · "
        val NAME = Regex("[A-Za-z0-9_.-]{1,32}")

        fun label(arm: String, variant: String?) = if (variant == null) arm else "$arm$SEPARATOR$variant"

        /** The arm and the variant of a trial's label; the variant is null for a scenario without variants. */
        fun split(label: String): Pair<String, String?> {
            val at = label.lastIndexOf(SEPARATOR)
            return if (at < 0) label to null else label.substring(0, at) to label.substring(at + SEPARATOR.length)
        }
    }
}
