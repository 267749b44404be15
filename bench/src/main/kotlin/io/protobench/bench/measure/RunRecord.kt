package io.protobench.bench.measure

import com.fasterxml.jackson.databind.JsonNode

/**
 * The master record of one run, written to `run.json` after every trial so an
 * interrupted run keeps what it measured. Every report format is rendered from it.
 */
data class RunRecord(
    val schemaVersion: Int = 1,
    val runId: String,
    val scenario: ScenarioRecord,
    /** Command-line options as given, after defaults. */
    val options: Map<String, String>,
    val environment: Map<String, Any?>,
    val startedAt: String,
    val finishedAt: String? = null,
    /** running | complete | interrupted | failed */
    val status: String,
    /** Why the run stopped early, when it did. */
    val failure: String? = null,
    /** Seed of the shuffle that ordered the trials, so the order can be reproduced. */
    val shuffleSeed: Long,
    val warmups: List<WarmupRecord> = emptyList(),
    val trials: List<TrialRecord> = emptyList(),
)

/** The scenario as it was run (after command-line overrides). */
data class ScenarioRecord(
    val name: String,
    val description: String,
    val seedPhase: String?,
    /** Condition labels in scenario order, e.g. "size=1kb vus=10". */
    val conditions: List<String>,
    /** Protocol labels in scenario order. */
    val protocols: List<String>,
    /** A/A control cells, as "<protocol> (A/A)" labels; empty without noise control. */
    val controls: List<String> = emptyList(),
    val loadModel: String,
    val durationMs: Long,
    val warmupMs: Long,
    val repetitions: Int,
    /** Most warm-up rounds (fewer when every cell settled sooner). */
    val warmupRounds: Int = 1,
)

/** One uncounted warm-up round of one cell. */
data class WarmupRecord(
    val condition: String,
    val protocol: String,
    /** 1-based warm-up round. */
    val round: Int,
    /** k6 throughput of this round, req/s. */
    val throughputRps: Double?,
    /** Relative change from the cell's previous warm-up round (0.05 = +5%); null in round 1. */
    val changeFromPrevious: Double?,
    /** True when the change was small enough to call the cell settled; null in round 1. */
    val settled: Boolean?,
    val error: String? = null,
)

/** One measured trial of one cell. */
data class TrialRecord(
    val condition: String,
    val protocol: String,
    /** 1-based round; every cell gets one trial per round. */
    val round: Int,
    /** 1-based position of this trial in the whole run. */
    val sequence: Int,
    val startedAt: String,
    /** Figures derived from k6 and the gateway, by [Figure] key; null when unavailable. */
    val figures: Map<String, Double?>,
    /** The k6 end-of-test summary metrics, as k6 wrote them. */
    val k6: JsonNode?,
    /** The gateway's /benchmark/end answer, as it was returned. */
    val gateway: JsonNode?,
    /** Why the trial produced no figures, when it failed. */
    val error: String? = null,
    /** CPU of k6, both servers and the machine over the trial, from /proc. */
    val cpu: CpuUsage? = null,
    /**
     * Why this trial's figures deserve doubt, each as "kind: detail": `machine` or
     * `load generator` saturated, `target rate` not held (open model), `unsteady`
     * throughput. Empty when none applies.
     */
    val flags: List<String> = emptyList(),
)
