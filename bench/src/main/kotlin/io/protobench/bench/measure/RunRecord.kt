package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonIgnore
import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.WindowReport

/**
 * The master record of one run, written to `run.json` after every trial so an
 * interrupted run keeps what it measured. Every report is rendered from it alone.
 */
data class RunRecord(
    val schemaVersion: Int = SCHEMA_VERSION,
    val runId: String,
    val scenario: ScenarioRecord,
    /** Command-line options as given, after defaults. */
    val options: Map<String, String>,
    val environment: RunEnvironment,
    val startedAt: String,
    val finishedAt: String? = null,
    val status: RunStatus,
    /** Why the run stopped early, when it did. */
    val failure: String? = null,
    /** Seed of every shuffle (arm and condition order inside forks), so the order can be reproduced. */
    val seed: Long,
    /** Cost mode: the fixed arrival rate chosen for each condition, from its first fork's capacity probes. */
    val calibrations: List<Calibration> = emptyList(),
    val forks: List<ForkRecord> = emptyList(),
    /** Why the planner stopped adding forks, and what stayed open; set when the run ends. */
    val planning: PlanningRecord? = null,
    /** Everything `protobench resume` needs to continue this run exactly as it was started. */
    val resume: ResumeRecord? = null,
    /** The database the run wrote to without starting it (`--db-url`); null: H2 or a throw-away cluster. */
    val externalDatabase: ExternalDatabaseRecord? = null,
    /** An earlier run's rates this run kept for its cost trials (`--rates-of`); null: calibrated here. */
    val pinnedRates: PinnedRates? = null,
) {
    val trials: List<TrialRecord> get() = forks.flatMap { it.trials }

    /** Every fork's runs of the seed's own tools. */
    val toolRuns: List<ToolRunRecord> get() = forks.flatMap { it.toolRuns }

    companion object {
        const val SCHEMA_VERSION = 3

        /** Schemas `RunStore.load` (package run) reads: 2 is upgraded as it is read (k6's figure keys). */
        val READABLE_SCHEMAS = 2..SCHEMA_VERSION
    }
}

enum class RunStatus { RUNNING, COMPLETE, INTERRUPTED, FAILED }

/** The scenario as a file (after overrides) and the server options of a run, for `protobench resume`. */
data class ResumeRecord(
    val scenario: io.protobench.bench.scenario.ScenarioFile,
    val jvmOptions: List<String>,
    val gatewayArguments: List<String>,
    val dataServerArguments: List<String>,
    val pinning: Boolean,
    val serverJava: String?,
    /** The network profile the run named (`--network`); null = loopback. */
    val network: String? = null,
    /** The remote servers the run measured, as the flag that named them (`--data-server HOST:HTTP:GRPC`); null = none. */
    val remote: String? = null,
    /** The external database (`--db-url`, `--db-user`, `--db-schema`; the password is read from the environment again); null = none. */
    val database: ExternalDatabaseFlags? = null,
)

/** `run --db-url URL --db-user USER --db-schema SCHEMA`, as `resume` gives them back. */
data class ExternalDatabaseFlags(val url: String, val user: String, val schema: String)

/**
 * A PostgreSQL database the run wrote to without starting it (`run --db-url`): where, as whom,
 * in which schema, its version, and the [variants] whose data-servers wrote there (empty when
 * the scenario has none: then every pair did). Its CPU is not counted, so a variant writing
 * there is not compared on CPU with one writing to H2 in its own JVM.
 */
data class ExternalDatabaseRecord(
    val jdbcUrl: String,
    val user: String,
    val schema: String,
    val serverVersion: String,
    val variants: List<String>,
)

/** The scenario as it was run (after command-line overrides). */
data class ScenarioRecord(
    val name: String,
    val description: String,
    val mode: io.protobench.bench.scenario.Mode,
    val conditions: List<ConditionRecord>,
    /** Protocol labels in scenario order. */
    val protocols: List<String>,
    /** Every arm's label: the protocols, then the controls (null hop, A/A). */
    val arms: List<String>,
    val durationMs: Long,
    val forks: Int,
    val maxForks: Int,
    val margin: Double,
    val utilisation: Double,
    val budgetMs: Long?,
    val soak: SoakSettings,
    val probes: io.protobench.bench.scenario.Probes = io.protobench.bench.scenario.Probes.EVERY_FORK,
    /** Fewest requests of a fixed-rate trial (0: none, as in records from before the field). */
    val minRequests: Int = 0,
    /** The variants compared (each fork starts one server pair per variant); empty without variants. */
    val variants: List<io.protobench.bench.scenario.Variant> = emptyList(),
    /** Each variant compared with the first only ([io.protobench.bench.scenario.VariantPairs.BASELINE]); null: every pair, as before the field. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    val compareVariants: io.protobench.bench.scenario.VariantPairs? = null,
    /** Records from before the field: gateway. */
    val topology: io.protobench.bench.scenario.Topology = io.protobench.bench.scenario.Topology.GATEWAY,
    /** Members each request creates when the scenario writes (seed 003); null for reads. */
    val membersPerRequest: Int? = null,
    /** Trials of every arm per fork; the fork's value is their median (records from before the field: 1). */
    val rounds: Int = 1,
    /** Cost rates the scenario fixed by target name instead of calibrating. */
    val costRates: Map<String, Int> = emptyMap(),
    /** Requests per run of seed 003's own tools by virtual users; empty = the tools did not run. */
    val seedTools: Map<Int, Int> = emptyMap(),
) {
    /** Forks the condition labelled [condition] gets at least: its own number, else [forks]. */
    fun forksOf(condition: String): Int = conditions.firstOrNull { it.label == condition }?.forks ?: forks

    /** Most forks it may get: as far beyond its own minimum as [maxForks] is beyond [forks]. */
    fun maxForksOf(condition: String): Int = forksOf(condition) + (maxForks - forks)

    /** Trials of every arm per fork in the condition labelled [condition]. */
    fun roundsOf(condition: String): Int = conditions.firstOrNull { it.label == condition }?.rounds ?: rounds
}

/**
 * A condition as run.json keeps it, with its own [forks] and [rounds] where its target has
 * them (scenario `forksByTarget`, `roundsByTarget`); null, and left out, where the scenario's apply.
 */
data class ConditionRecord(
    val label: String,
    val phases: List<String>,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    val forks: Int? = null,
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    val rounds: Int? = null,
)

/**
 * The scenario's soak as run.json keeps it: [window], [min] and [max] as the scenario's
 * duration text in milliseconds ("3000ms"), the [tolerance] of a steady window (0.05 = 5%)
 * and the soak mix's virtual users. Each may be missing (null, and left out when written
 * again) in a record from the first days of schema 2, written before the soak kept its users.
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
data class SoakSettings(
    val window: String? = null,
    val min: String? = null,
    val max: String? = null,
    val tolerance: Double? = null,
    val vus: Int? = null,
)

data class Calibration(
    val condition: String,
    val fork: Int,
    /** Capacity of the slowest protocol (correct answers per second, closed model). */
    val capacityRps: Double,
    val slowestProtocol: String,
    /** The arrival rate every cost trial of this condition runs at. */
    val ratePerSecond: Int,
    val maxVus: Int,
    /**
     * The variant whose own rate this is, when variants differ in network (a link sets the
     * capacity: region's rate would overload wan); null: one rate for every variant.
     */
    val variant: String? = null,
    /** The scenario fixed the rate (costRates); the probe only gives its share of capacity. */
    val declared: Boolean = false,
    /**
     * The rate the scenario fixes, when it was above `FixedRates.ceiling` (package design)
     * of this machine's slowest capacity and the run measured at half of it or less
     * ([ratePerSecond]); null when the run measured at the scenario's own rate.
     */
    val scenarioRate: Int? = null,
    /** The run ([RunRecord.runId]) whose rate this is (`--rates-of`), not this run's probe; null: chosen here. */
    val pinnedFrom: String? = null,
)

/**
 * The rates of an earlier run ([fromRun]) that cost trials keep instead of calibrating
 * their own (`run --rates-of`): each is used for the condition and variant it was chosen
 * for, so two runs compared on one machine measure at one operating point even when the
 * machine's probes differ between them.
 */
data class PinnedRates(val fromRun: String, val rates: List<Calibration>)

/**
 * One fresh pair of server JVMs and everything measured in it. With variants, a fork
 * starts one pair per variant: each has its own record with the fork's [index] and its
 * [variant], and trials pair across variants by that index.
 */
data class ForkRecord(
    /** 1-based. */
    val index: Int,
    val conditions: List<String>,
    val startedAt: String,
    val status: ForkStatus,
    val soak: SoakRecord? = null,
    val trials: List<TrialRecord> = emptyList(),
    val finishedAt: String? = null,
    /** Why the fork ended early, when it did. */
    val failure: String? = null,
    /**
     * Each measured arm's warm-up at its trial's load, just before the trial ([WarmInRecord.arm]
     * set); runs recorded before per-arm warm-ups have one mix per condition (arm null).
     */
    val warmIns: List<WarmInRecord> = emptyList(),
    /** The variant this pair of servers ran, null without variants. */
    val variant: String? = null,
    /** The variant's `protobench.*` settings as both servers reported them before measuring. */
    val settings: Map<String, String> = emptyMap(),
    /** Runs of seed 003's own tools in this fork (scenario field `seedTools`), after the load driver's trials of their condition. */
    val toolRuns: List<ToolRunRecord> = emptyList(),
    /** Where this pair's wall time went, set when the fork ends; null in older records and while it runs. */
    val time: ForkTime? = null,
)

/**
 * One run of one of seed 003's own tools (hey for HTTP/JSON, ghz for gRPC/Unary) against
 * the data-server: `-n [requests] -c [concurrency]`, one fixed body. [figures] are the
 * tool's own throughput and latencies with the data-server's CPU per request and the
 * machine's busy share, by [Figure]; never part of a protocol verdict.
 */
data class ToolRunRecord(
    val condition: String,
    val tool: String,
    val protocol: String,
    val fork: Int,
    val startedAt: String,
    val concurrency: Int,
    val requests: Int,
    val figures: Figures,
    /** Answers that created a member (HTTP 201, gRPC OK). */
    val created: Long = 0,
    /** The other answers, by status code or error text, with their counts. */
    val failures: Map<String, Long> = emptyMap(),
    val flags: List<Flag> = emptyList(),
    /** Why the run produced no figures, when it failed. */
    val error: String? = null,
)

/**
 * An unmeasured run at the load of the trial that follows, until the JIT is quiet ([soak]).
 * It is one arm's ([arm]) right before that arm's trial: code that only this arm runs
 * reaches its compile thresholds here, not in the trial
 * (docs/journal/2026-11-23-per-arm-warm-up.md). Earlier records hold one mix of every
 * arm of [condition] per condition, with [arm] null. [collected]: both servers' heaps
 * after the full collection that came right before it (null in records from before it,
 * or when it failed, with [collectionProblem] saying why).
 */
data class WarmInRecord(
    val condition: String,
    val load: TrialLoad,
    val soak: SoakRecord,
    val arm: String? = null,
    val collected: io.protobench.contract.metrics.HeapsCollected? = null,
    val collectionProblem: String? = null,
)

/**
 * [REJECTED]: a variant's servers refused its settings (the JVM rejected an option, a
 * server a value) or reported settings other than asked; the variant is not tried again
 * and the run goes on with the others.
 */
enum class ForkStatus { RUNNING, COMPLETE, FAILED, INTERRUPTED, REJECTED }

/** The soak that started a fork: consecutive windows of all its endpoints in one mix. */
data class SoakRecord(
    val windows: List<SoakWindow>,
    /** True when the last windows stayed within the tolerance; false when the cap was reached first. */
    val settled: Boolean,
    val seconds: Double,
    val error: String? = null,
    /** The virtual users of the mix (a fork's soak; more than the scenario's across a link): null in records from before it was kept. */
    val vus: Int? = null,
)

/**
 * One soak window: throughput and CPU per request of both servers, wrong answers, and
 * the share of the window both servers' JIT compilers were busy compiling (0.25 = a
 * quarter of the window's wall time, summed over both JVMs).
 */
data class SoakWindow(val throughputRps: Double?, val cpuUsPerRequest: Double?, val failedRequests: Long = 0, val jitShare: Double? = null)

/** A capacity probe (closed model, saturating) or a cost trial (fixed arrival rate). */
enum class TrialKind { CAPACITY, COST }

/** One measured run of one arm under one condition, in one fork. */
data class TrialRecord(
    val condition: String,
    val arm: String,
    val kind: TrialKind,
    val fork: Int,
    /** 1-based position of this trial in the whole run. */
    val sequence: Int,
    val startedAt: String,
    /** The load offered: "vus=10" or "rate=1500/s". */
    val load: TrialLoad,
    /** Figures derived from the load driver, the gateway and /proc, by [Figure]; null when unavailable. */
    val figures: Figures,
    /** Answers the load generator judged: the expected status with the exact expected size, or not. */
    val correctAnswers: Long = 0,
    val wrongAnswers: Long = 0,
    val flags: List<Flag> = emptyList(),
    /** Why the trial produced no figures, when it failed. */
    val error: String? = null,
    /** The k6 end-of-test summary metrics, as k6 wrote them (records of schema 2). */
    val k6: JsonNode? = null,
    /** The gateway's /benchmark/end answer (the contract's type). */
    val gateway: WindowReport? = null,
    /** Which of the fork's rounds of this arm (1 unless the scenario has several). */
    val round: Int = 1,
    /** The lab's load driver's summary: counts, latency from intended starts, its own CPU. */
    val driver: io.protobench.driver.Summary? = null,
    /**
     * Topology direct: the data-server's counters over the trial (CPU, allocation, GC with its
     * collector's name, heap), as [gateway]'s `processes` holds them through the gateway.
     */
    val dataServer: ProcessUsage? = null,
) {
    /** Counted in verdicts: it ran, (almost) every answer was correct, and no flag leaves it out. */
    val valid: Boolean get() = leftOutAs() == null

    /** Its calls by their place on their connection, from the driver's summary or, in records of schema 2, k6's; not written. */
    @get:JsonIgnore
    val callPlaces: CallPlaces get() = driver?.let(CallPlaces::of) ?: k6?.let(CallPlaces::of) ?: CallPlaces.NONE

    /**
     * Why the trial is left out of the verdicts, as a kind for counting: [FAILED] (an error or
     * no answer), the kind of a flag that [Flag.leavesTrialOut] (`rows-mismatch` with rows lost,
     * `rate-not-held`), or [WRONG_ANSWERS]; null when it counts. [invalidReason] says the same in words.
     */
    fun leftOutAs(): String? {
        val total = correctAnswers + wrongAnswers
        if (error != null || total == 0L) return FAILED
        flags.firstOrNull { it.leavesTrialOut() }?.let { return Flag.kindOf(it) }
        return if (wrongAnswers.toDouble() / total > MAX_WRONG_SHARE) WRONG_ANSWERS else null
    }

    /** Why a trial that ran is still excluded, or null. */
    fun invalidReason(): String? {
        val total = correctAnswers + wrongAnswers
        if (error != null) return error
        if (total == 0L) return "no answers"
        flags.firstOrNull { it.leavesTrialOut() }?.let { return it.describe() }
        val share = wrongAnswers.toDouble() / total
        return if (share > MAX_WRONG_SHARE) {
            String.format(
                java.util.Locale.ROOT,
                "%.2f%% of answers were wrong (limit 0.1%%)",
                share * 100,
            )
        } else {
            null
        }
    }

    companion object {
        /** A trial with more wrong answers than this share is invalid. */
        const val MAX_WRONG_SHARE = 0.001
        const val FAILED = "failed"
        const val WRONG_ANSWERS = "wrong-answers"
    }
}

/**
 * Why the planner stopped, each comparison it left open with the forks it would take,
 * and the conditions the budget left below the minimum forks (0 = never measured) with
 * the seconds their minimum would have taken more (null when none is short).
 */
data class PlanningRecord(
    val stoppedBecause: String,
    val open: List<OpenComparison>,
    val belowMinimum: List<ForkCount> = emptyList(),
    val secondsToMinimum: Long? = null,
)

/** A condition and its completed forks. */
data class ForkCount(val condition: String, val forks: Int)

/**
 * A comparison still undecided: about [moreForks] more forks would decide it (null: no estimate).
 * [comparison] is in English, "HTTP/JSON vs gRPC/Unary on Hop CPU/req" (the report reads it back in its language).
 * [beyondReach]: no number of forks up to [io.protobench.bench.verdict.Verdicts.MAX_FORKS] would
 * (records from before the field: false).
 */
data class OpenComparison(val condition: String, val comparison: String, val moreForks: Int?, val beyondReach: Boolean = false) {
    companion object {
        /** The open comparison [decision] is, under [condition]; null when it is decided. */
        fun of(condition: String, decision: io.protobench.bench.verdict.Decision, title: String): OpenComparison? {
            val open = decision.outcome as? io.protobench.bench.verdict.Outcome.Inconclusive ?: return null
            val beyond = open.reason == io.protobench.bench.verdict.Outcome.Inconclusive.NOT_DECIDED && open.moreForks == null
            return OpenComparison(
                condition,
                io.protobench.bench.text.Texts.EN("planning.comparison", decision.a, decision.b, title),
                open.moreForks,
                beyond,
            )
        }
    }
}
