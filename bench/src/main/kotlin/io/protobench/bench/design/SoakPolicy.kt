package io.protobench.bench.design

import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.PlanningRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.SoakRecord
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.measure.ToolRunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.measure.WarmInRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Condition
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Probes
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.SeedTool
import io.protobench.bench.scenario.Soak
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.math.roundToInt
import kotlin.random.Random

/**
 * When a soak counts as steady: over the last [Soak.STEADY_WINDOWS] windows,
 * throughput and CPU per request each stay within ±[tolerance] of their mean, and the JIT
 * compilers of both servers were quiet in each window. On two cores the JIT works in waves
 * for a minute or two: throughput can hold still for several windows between two of them,
 * so a plateau alone is not steady state.
 */
object SoakPolicy {
    /**
     * Compilation may take at most this share of the CPU both servers used in a window —
     * the limit of the trials' `jit-active` flag. At a light fixed rate (1 MB at 191/s, the
     * servers using under one core) a fixed share of wall time lets warm-ins end while the
     * compilers still take 10–30% of the servers' CPU in the trials that follow
     * (docs/journal/2026-11-23-per-arm-warm-up.md).
     */
    const val MAX_JIT_CPU_SHARE = Flag.JitActive.LIMIT

    /**
     * Where the servers' CPU is unknown: at most this share of the window's wall time (both
     * JVMs summed). Measured on the reference machine: 1.5 to 3 while warming up, 0 to about
     * 0.15 once throughput has settled.
     */
    const val MAX_JIT_SHARE = 0.15

    /**
     * The mean request of the soak's mix on loopback, in ms: two virtual users reach about
     * 2,200 requests a second there on the reference machine
     * (docs/journal/2026-11-26-soak-across-a-link.md).
     */
    private const val LOOPBACK_REQUEST_MS = 1.0

    /** The most virtual users a soak across a link gets. */
    const val MAX_VUS_ACROSS = 100

    /**
     * The soak's virtual users across a link of [roundTripMs]. Every request waits at least
     * the round trip, so the soak's few users call the servers tens of times less often
     * than on loopback (wan, 2 users: some 40 requests a second against 2,200) and the JIT
     * is still compiling at the soak's cap (CPU per request still falls after 150 s of a
     * direct wan soak). So each user gets company for every [LOOPBACK_REQUEST_MS] of round
     * trip, keeping about loopback's rate where the link's bandwidth allows it; at most
     * [MAX_VUS_ACROSS]. On loopback (0 ms) the soak keeps its own.
     */
    fun vusAcross(vus: Int, roundTripMs: Double): Int =
        (vus * (1 + roundTripMs / LOOPBACK_REQUEST_MS)).roundToInt().coerceIn(vus, maxOf(vus, MAX_VUS_ACROSS))

    /**
     * An arm's warm-up is over when the compilers were quiet in its last two windows. Its
     * CPU per request is not held to the soak's ±5%: the fork's soak has shown that, and
     * 1-second windows of 1 MB requests differ by more than that with one collection more
     * or less.
     */
    fun armQuiet(windows: List<SoakWindow>): Boolean = quietOver(windows, Soak.ARM_QUIET_WINDOWS)

    /**
     * A fork's soak across a link is over when the compilers were quiet in its last
     * [Soak.STEADY_WINDOWS] windows. Throughput and CPU per request are not held to the
     * soak's tolerance there: they follow the link. Across wan, 1 MB answers fill
     * 100 Mbit/s and losses stall them, so throughput and CPU per request keep swinging
     * well beyond ±5% after the compilers have gone quiet, and a soak held to them would
     * run to its cap (docs/journal/2026-11-26-soak-across-a-link.md).
     */
    fun quietAcrossLink(windows: List<SoakWindow>): Boolean = quietOver(windows, Soak.STEADY_WINDOWS)

    /** The compilers were quiet in each of the last [count] windows. */
    private fun quietOver(windows: List<SoakWindow>, count: Int): Boolean = windows.size >= count && windows.takeLast(count).all(::jitQuiet)

    fun steady(windows: List<SoakWindow>, tolerance: Double): Boolean {
        val last = windows.takeLast(Soak.STEADY_WINDOWS)
        if (last.size < Soak.STEADY_WINDOWS) return false
        return within(last.map { it.throughputRps }, tolerance) && within(last.map { it.cpuUsPerRequest }, tolerance) &&
            last.all(::jitQuiet)
    }

    /** Compile time (ms per ms of wall) against the cores both servers used: requests/s × CPU µs per request. */
    private fun jitQuiet(w: SoakWindow): Boolean {
        val jit = w.jitShare ?: return true
        val serverCores = if (w.throughputRps != null && w.cpuUsPerRequest != null) w.throughputRps * w.cpuUsPerRequest / 1e6 else null
        return if (serverCores != null && serverCores > 0) jit <= MAX_JIT_CPU_SHARE * serverCores else jit <= MAX_JIT_SHARE
    }

    private fun within(values: List<Double?>, tolerance: Double): Boolean {
        if (values.any { it == null || it <= 0.0 }) return false
        val mean = values.sumOf { it!! } / values.size
        return values.all { kotlin.math.abs(it!! / mean - 1) <= tolerance }
    }
}
