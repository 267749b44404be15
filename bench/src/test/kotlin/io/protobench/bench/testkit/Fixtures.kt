package io.protobench.bench.testkit

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.measure.ConditionRecord
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.SoakSettings
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialLoad
import io.protobench.bench.measure.TrialRecord
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.DataTransfer
import io.protobench.contract.window.LatencyStats
import io.protobench.contract.window.Processes
import io.protobench.contract.window.ServerMetrics
import io.protobench.contract.window.TimelineReport
import io.protobench.contract.window.WindowReport
import java.time.Instant

/** Fixed run records for report and store tests. */
object Fixtures {
    const val NULL_HOP = "Null hop"

    /**
     * Answers of a fixture trial: so many that /proc's clock ticks round nothing away from
     * its CPU per request ([io.protobench.bench.report.Rounding]), as the fixtures' values
     * are exact. Tests of the rounding set their own counts.
     */
    const val FINE_ANSWERS = 1_000_000L

    fun scenario(
        conditions: List<String>,
        arms: List<String>,
        protocols: List<String> = arms.filter {
            it != NULL_HOP && "(A/A)" !in it
        },
    ) = ScenarioRecord(
        "fixed", "A fixed run", io.protobench.bench.scenario.Mode.COST, conditions.map { ConditionRecord(it, emptyList()) },
        protocols, arms, 5_000, 3, 3, 0.05, 0.5, null, SoakSettings("5s", "10s", "60s", 0.05, 2),
    )

    /**
     * A run whose trial in fork i of (condition, kind, arm) has the figures [figures] gives for
     * (condition, kind, arm, i). Forks = the longest list.
     */
    fun record(
        conditions: List<String>,
        arms: List<String>,
        forks: Int,
        figures: (condition: String, kind: TrialKind, arm: String, fork: Int) -> Figures?,
    ): RunRecord {
        var sequence = 0
        val forkRecords = (1..forks).map { fork ->
            val trials = conditions.flatMap { c ->
                TrialKind.entries.flatMap { kind ->
                    arms.mapNotNull { arm ->
                        figures(c, kind, arm, fork)?.let {
                            TrialRecord(c, arm, kind, fork, ++sequence, "2026-11-21T00:00:00Z", TrialLoad.rate(100), it, FINE_ANSWERS, 0)
                        }
                    }
                }
            }
            ForkRecord(fork, conditions, "2026-11-21T00:00:00Z", ForkStatus.COMPLETE, trials = trials, finishedAt = "2026-11-21T00:01:00Z")
        }
        return RunRecord(
            runId = "fixed", scenario = scenario(conditions, arms), options = emptyMap(),
            environment = RunEnvironment(cpuModel = "Test CPU", cpuCores = 2),
            startedAt = "2026-11-21T00:00:00Z", finishedAt = "2026-11-21T00:10:00Z", status = RunStatus.COMPLETE,
            seed = 1, forks = forkRecords,
        )
    }

    /** A /benchmark/end answer as the contract types it, with the gateway's per-second [timeline] of completed requests. */
    fun window(api: ProcessUsage, data: ProcessUsage?, timeline: List<Long> = emptyList()) = WindowReport(
        protocol = "gRPC/Unary", testName = "t", startedAt = Instant.EPOCH, endedAt = Instant.EPOCH, durationMs = 3000,
        totalRequests = 3000, successRequests = 3000, failedRequests = 0, throughputRps = 1000.0,
        latency = LatencyStats(1.2, 0.1, 9.0, 1.0, 2.0, 2.5, 3.0, 5.0),
        serverMetrics = ServerMetrics(1.0, 1.0, 1.0, 0, 0, 0.0, 0.0, 0.0, 0.0), dataTransfer = DataTransfer(0, 0.0),
        processes = Processes(api, data), clientSettings = ObjectMapper().createObjectNode(), timeline = TimelineReport(1000, timeline),
    )

    /** One process's usage over a window, as the servers report it. */
    fun usage(cpuUs: Double, allocated: Double = 0.0, gcs: Long = 0, peakHeapMb: Double = 0.0) = ProcessUsage(
        1.0, cpuUs, 0, allocated, gcs,
        gcs * 3, 0.0, 0.0, peakHeapMb, 0.0,
    )

    /** Cost-trial figures of an arm whose servers spend [totalCpuUs] per request. */
    fun cost(totalCpuUs: Double, hopP50: Double = 1.0) = Figures.of(
        Figure.TOTAL_CPU_US to totalCpuUs,
        Figure.API_CPU_US to totalCpuUs * 0.7,
        Figure.DATA_CPU_US to totalCpuUs * 0.3,
        Figure.DRIVER_CPU_US to 150.0,
        Figure.HOP_P50 to hopP50,
    )
}
