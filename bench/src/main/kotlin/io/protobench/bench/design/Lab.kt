package io.protobench.bench.design

import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Variant
import io.protobench.contract.metrics.HeapsCollected
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.WindowReport
import java.time.Duration
import io.protobench.driver.Summary as DriverSummary

/**
 * Everything the [ForkRunner] needs from the outside world: fresh server pairs that
 * can be loaded and measured. The lab package's `LocalLab` starts real JVMs (the servers and the load driver); tests use a fake
 * that returns synthetic figures, so the planner, the soak, forks, restarts and the
 * adaptive stop are tested without servers.
 */
interface Lab {
    /**
     * Starts a fresh pair of server JVMs (one fork, or with [variant] that variant's pair in
     * the fork); throws when they do not come up, [ServerSettingRejected] when a server or
     * its JVM refused the settings it was given.
     */
    fun startFork(index: Int, variant: Variant? = null): Fork
}

/** One pair of server JVMs. Closing it stops both. */
interface Fork : AutoCloseable {
    /** One load run inside the gateway's measurement window. Never throws: a failure is a [Sample] with an error. */
    fun measure(run: LoadRun): Sample

    /**
     * Starts a mix of [cells] (each virtual user cycling through their endpoints) at
     * [load] (closed: virtual users; open: an arrival rate) that runs until closed.
     */
    fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix

    /**
     * One run of one of seed 003's own tools against the data-server (`topology: direct`):
     * [cell] the protocol the tool drives. Never throws: a failure is a [Sample] with an error.
     */
    fun runSeedTool(cell: Cell, run: ToolRun): Sample = Sample.failed("${run.tool.label} runs only with topology direct")

    /**
     * A full collection of both servers' heaps (the data-server's alone without a gateway),
     * between trials: what each holds after it. Throws when the servers cannot be asked.
     */
    fun collectGarbage(): HeapsCollected

    /** Both servers are running and the gateway reports the data-server healthy. */
    fun alive(): Boolean

    /** Every `protobench.*` setting both servers report running with, by property name (`protobench.data.grpc-payload-mode`). */
    fun effectiveSettings(): Map<String, String>

    /** The round trip of the link in front of the data-server, in ms (0 on loopback): every request across it waits that long. */
    val linkRoundTripMs: Double get() = 0.0
}

/** A running mix: measured in consecutive windows. */
interface Mix : AutoCloseable {
    fun window(length: Duration): SoakWindow
}

/** One load run: [offered] is the closed model at some virtual users, or an arrival rate. */
data class LoadRun(val cell: Cell, val offered: LoadLevel, val duration: Duration)

/** What one run produced. [figures] by [io.protobench.bench.measure.Figure]. */
data class Sample(
    val figures: Figures,
    val correctAnswers: Long,
    val wrongAnswers: Long,
    val flags: List<Flag> = emptyList(),
    val error: String? = null,
    val gateway: WindowReport? = null,
    /** A seed tool's answers that were not a creation, by status or error text (the driver's are in its summary). */
    val failures: Map<String, Long> = emptyMap(),
    /** The lab's load driver's summary of the trial (null where a seed tool made the load). */
    val driver: DriverSummary? = null,
    /** Topology direct: the data-server's own counters over the trial (through the gateway they are in [gateway]). */
    val dataServer: ProcessUsage? = null,
) {
    companion object {
        fun failed(reason: String) = Sample(Figures.NONE, 0, 0, error = reason)
    }
}

/**
 * A server refused a setting it was given (`--gateway`/`--data-server`): bad input, not
 * bad luck, so the run stops at once instead of trying another fork. Any [Lab] may throw it.
 */
class ServerSettingRejected(message: String) : RuntimeException(message)
