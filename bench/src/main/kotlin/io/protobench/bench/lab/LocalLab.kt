package io.protobench.bench.lab

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.design.Fork
import io.protobench.bench.design.Lab
import io.protobench.bench.design.LoadRun
import io.protobench.bench.design.Mix
import io.protobench.bench.design.Sample
import io.protobench.bench.design.ToolRun
import io.protobench.bench.design.VariantSettings
import io.protobench.bench.lab.clients.DataServerClient
import io.protobench.bench.lab.clients.GatewayClient
import io.protobench.bench.lab.launch.DriverProcess
import io.protobench.bench.lab.launch.SeedToolRunner
import io.protobench.bench.lab.launch.ServerLauncher
import io.protobench.bench.lab.launch.ServerSet
import io.protobench.bench.lab.plans.DriverPlans
import io.protobench.bench.lab.writes.MemberBodies
import io.protobench.bench.lab.writes.MemberLedger
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.CpuUsage
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.measure.Steadiness
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Target
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import io.protobench.contract.metrics.HeapsCollected
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.WindowReport
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger
import io.protobench.driver.Summary as DriverSummary

/** How long a failed trial waits for a server that is dying to be seen dead. */
private const val DEATH_GRACE_MS = 500L

/**
 * The real lab: server JVMs on this machine, /proc for CPU, and as the load generator the
 * lab's own driver (one process per fork), through the gateway or straight to the data-server.
 */
class LocalLab(
    private val launcher: ServerLauncher,
    /** Starts a fork's load driver. */
    private val startDriver: () -> DriverProcess,
    private val cpu: CpuAccounting,
    private val dir: Path,
    private val mode: Mode,
    private val topology: Topology = Topology.GATEWAY,
    /** Seed 003's own tools, when the scenario runs them (`seedTools`). */
    private val seedTools: SeedToolRunner? = null,
) : Lab {
    /** Where each trial's latency goes as a standard HdrHistogram log (the driver writes it). */
    private val histograms by lazy { Files.createDirectories(dir.resolve("histograms")) }
    private val trialsLogged = AtomicInteger()

    /** The next trial's histogram log: `histograms/trial-0001.hlog`, … in the order trials ran. */
    private fun nextHistogramLog(): Path = histograms.resolve("trial-%04d.hlog".format(trialsLogged.incrementAndGet()))

    /** Member-creation bodies the load driver reads, written once per run. */
    private val memberBodies = MemberBodies(dir.resolve("member-bodies"))

    /** The command lines of the last servers started (of each variant), for run.json. */
    @Volatile var lastCommands: Map<String, List<String>> = emptyMap()
        private set

    override fun startFork(index: Int, variant: Variant?): Fork {
        // The driver first: it loads its clients' classes while the servers start.
        val driver = startDriver()
        val servers = try {
            launcher.start(variant, gateway = topology == Topology.GATEWAY)
        } catch (e: Exception) {
            driver.close()
            throw e
        }
        lastCommands = lastCommands + servers.commands.mapKeys { (server, _) -> Variant.label(server, variant?.name) }
        return if (topology == Topology.DIRECT) DirectFork(servers, driver) else LocalFork(servers, driver)
    }

    /** Flags every trial gets from /proc, the load generator's rate and its answers, whoever stands in front of the data-server. */
    private fun commonFlags(figures: Figures, usage: CpuUsage, offered: LoadLevel, correct: Double, wrong: Double): List<Flag> {
        val machineLimit =
            if (mode == Mode.COST && offered is LoadLevel.Rate) CpuUsage.MACHINE_BUSY_COST_LIMIT else CpuUsage.MACHINE_SATURATED
        return usage.flags(machineLimit) + TrialFigures.rateFlags(figures, (offered as? LoadLevel.Rate)?.perSecond) +
            listOfNotNull(Flag.JitActive.of(figures)) +
            listOfNotNull(if (wrong > 0) Flag.WrongAnswers(wrong.toLong(), (correct + wrong).toLong()) else null)
    }

    /** A trial that could not be measured: a server's death notice when one died under it, else the error itself. */
    private fun failed(servers: ServerSet, e: Exception): Sample {
        // The process may take a moment to be reaped after its connections broke.
        val notice = servers.deathNotice() ?: run {
            Thread.sleep(DEATH_GRACE_MS)
            servers.deathNotice()
        }
        return Sample.failed(notice ?: e.message ?: e.javaClass.simpleName)
    }

    private inner class LocalFork(private val servers: ServerSet, private val driver: DriverProcess) : Fork {
        override val linkRoundTripMs get() = servers.linkRoundTripMs
        private val gateway = GatewayClient(servers.gatewayUrl!!)

        /** For member creation: the members table's counts before and after each trial (never with a remote gateway). */
        private val dataServer by lazy { DataServerClient(servers.dataServerUrl) }
        private val levelBytes: JsonNode by lazy { gateway.complexities() }
        private val cores = Runtime.getRuntime().availableProcessors()

        /** The servers' processes and the driver's, whose CPU a trial reads. */
        private val processes get() = servers.pids + (DriverProcess.NAME to driver.pid)

        override fun measure(run: LoadRun): Sample {
            val ledger = MemberLedger.of(run.cell) { dataServer }
            return try {
                // The ledger's reads (a count of the table) stay outside the CPU measured.
                ledger?.open()
                val log = nextHistogramLog()
                val plan = plan(listOf(run.cell), run.offered, run.duration).copy(histogramLog = log.toString())
                val before = cpu.read(processes, servers.processTrees)
                gateway.startWindow(run.cell.arm.label, "${run.cell.label} ${run.offered.label}")
                val summary = try {
                    // The record names the log relative to the run's folder, which may move.
                    driver.run(plan).copy(histogramLog = dir.relativize(log).toString())
                } catch (e: Exception) {
                    // The window is closed whatever happened to the driver, so the next trial can open its own.
                    runCatching { gateway.endWindow() }
                    throw e
                }
                val end = gateway.endWindow()
                val sample = sample(summary, end, cpu.usage(before, cpu.read(processes, servers.processTrees), cores), run.offered)
                ledger?.closeInto(sample) ?: sample
            } catch (e: Exception) {
                failed(servers, e)
            }
        }

        private fun sample(summary: DriverSummary, end: WindowReport, usage: CpuUsage, offered: LoadLevel): Sample {
            val (correct, wrong) = answers(summary)
            val base = TrialFigures.from(summary, end, usage, correct + wrong)
            val figures = base + TrialFigures.rateShare(base, (offered as? LoadLevel.Rate)?.perSecond)
            val flags = commonFlags(figures, usage, offered, correct, wrong) + listOfNotNull(Steadiness.ofGateway(end).flag()) +
                TrialFigures.driverFlags(summary)
            return Sample(figures, correct.toLong(), wrong.toLong(), flags, gateway = end, driver = summary)
        }

        override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix {
            val writes = cells.any { it.condition.target is Target.Members }
            val plan = plan(cells, load, limit)
            driver.start(plan)
            return object : Mix {
                override fun window(length: Duration): SoakWindow {
                    // Each window starts from an empty table: a soak's rows would otherwise fill an in-memory database.
                    if (writes) dataServer.clearMembers()
                    val driverBefore = cpu.read(mapOf(DriverProcess.NAME to driver.pid))
                    gateway.startWindow("soak", "soak")
                    Thread.sleep(length.toMillis())
                    val end = gateway.endWindow()
                    val driverUsage = cpu.usage(driverBefore, cpu.read(mapOf(DriverProcess.NAME to driver.pid)), cores)
                    val figures = TrialFigures.fromGateway(end)
                    val cpuPerRequest = figures[Figure.API_CPU_US]?.let { api -> figures[Figure.DATA_CPU_US]?.let { api + it } }
                    val jitMs = end.processes.apiServer.jitCompileTimeMs + (end.processes.dataServer?.jitCompileTimeMs ?: 0)
                    // The driver warms here too: its compiler threads' share of the window counts like the servers'.
                    val driverJit = driverUsage.compilerCoresUsed[DriverProcess.NAME] ?: 0.0
                    return SoakWindow(
                        end.throughputRps,
                        cpuPerRequest,
                        end.failedRequests,
                        jitMs / end.durationMs.coerceAtLeast(1).toDouble() + driverJit,
                    )
                }

                // A soak the driver refused or failed shows in its windows (no throughput); its answer is only read off.
                override fun close() {
                    runCatching { driver.stop(plan) }
                }
            }
        }

        override fun alive(): Boolean = servers.allAlive() && gateway.isHealthy()

        override fun collectGarbage(): HeapsCollected = gateway.collectGarbage()

        /** From an empty measurement window: its report carries both servers' effective settings. */
        override fun effectiveSettings(): Map<String, String> {
            gateway.startWindow("settings", "settings")
            val end = gateway.endWindow()
            return VariantSettings.flatten("protobench.gateway", end.clientSettings) +
                VariantSettings.flatten("protobench.data", end.dataServerSettings) +
                VariantSettings.jvm("api-server", end.processes.apiServer.jvm) +
                VariantSettings.jvm("data-server", end.processes.dataServer?.jvm)
        }

        override fun close() {
            driver.close()
            servers.close()
        }

        private fun plan(cells: List<Cell>, offered: LoadLevel, duration: Duration) = DriverPlans.plan(
            servers.gatewayUrl!!,
            cells.map {
                DriverPlans.target(it, ::levelBytes, memberBodies)
            },
            offered,
            duration,
        )

        /** The exact serializedSize the gateway reports for a level: JSON bytes for HTTP/JSON, protobuf bytes otherwise. */
        private fun levelBytes(level: String, arm: Arm): Long? {
            val field = if (arm.reportsJsonBytes) "jsonBytes" else "protobufBytes"
            return levelBytes.findParents("level").firstOrNull { it.path("level").asText() == level }
                ?.path(field)?.takeIf { it.isNumber }?.asLong()
        }
    }

    /**
     * A fork without a gateway (`topology: direct`): the driver calls the data-server over
     * each protocol itself, with the clients the gateway uses (Reactor Netty, grpc-java). A
     * trial's figures come from the driver (answers; latency, the hop's, on warm connections),
     * /proc (CPU of the data-server and of the driver) and the data-server's own counters before
     * and after (allocation, GC, heap), and for member creation the table's ([MemberLedger]);
     * a soak window's from the data-server's request count (reads) or creations (writes) and
     * counters, as there is no gateway window to read. A cost trial's connections make their
     * first calls in a warm-up ([DriverPlans.connectionWarmUp]) in the same driver run: those
     * calls count as answers and CPU, not in the throughput or latency.
     */
    private inner class DirectFork(private val servers: ServerSet, private val driver: DriverProcess) : Fork {
        override val linkRoundTripMs get() = servers.linkRoundTripMs
        private val dataServer = DataServerClient(servers.dataServerUrl)
        private val cores = Runtime.getRuntime().availableProcessors()
        private val processes get() = servers.pids + (DriverProcess.NAME to driver.pid)

        override fun measure(run: LoadRun): Sample = try {
            val ledger = MemberLedger.of(run.cell) { dataServer }
            // The ledger's reads stay outside the CPU measured, as through the gateway.
            ledger?.open()
            dataServer.resetPeakHeap()
            val log = nextHistogramLog()
            val plan = plan(listOf(run.cell), run.offered, run.duration, DriverPlans.connectionWarmUp(run.offered))
                .copy(histogramLog = log.toString())
            val before = cpu.read(processes, servers.processTrees)
            val start = dataServer.snapshot()
            val summary = driver.run(plan).copy(histogramLog = dir.relativize(log).toString())
            val usage = cpu.usage(before, cpu.read(processes, servers.processTrees), cores)
            // Every answer of the run, the warm-up's too: its CPU is in the counters.
            val (correct, wrong) = answers(summary)
            val data = ProcessUsage.between(start, dataServer.snapshot(), (correct + wrong).toLong())
            val base = TrialFigures.direct(summary, data, usage)
            val figures = base + TrialFigures.rateShare(base, (run.offered as? LoadLevel.Rate)?.perSecond)
            val flags = commonFlags(figures, usage, run.offered, correct, wrong) + TrialFigures.connectionFlags(summary) +
                TrialFigures.warmingFlags(summary) + TrialFigures.driverFlags(summary)
            val sample = Sample(figures, correct.toLong(), wrong.toLong(), flags, driver = summary, dataServer = data)
            ledger?.closeInto(sample) ?: sample
        } catch (e: Exception) {
            failed(servers, e)
        }

        /**
         * A seed tool's run, measured like a trial: the table emptied before and checked after
         * ([MemberLedger]), the data-server's CPU per request from its own counters, the
         * machine's from /proc; throughput and latency are the tool's own.
         */
        override fun runSeedTool(cell: Cell, run: ToolRun): Sample = try {
            val tools = checkNotNull(seedTools) { "the seed tools were not installed for this run" }
            val target = cell.condition.target as? Target.Members ?: error("the seed tools create members; ${cell.condition.label} reads")
            val ledger = MemberLedger.of(cell) { dataServer }
            ledger?.open()
            val before = cpu.read(servers.pids, servers.processTrees)
            val start = dataServer.snapshot()
            val report = tools.run(run, servers.dataServerUrl, servers.dataServerGrpc, memberBodies.fixed(target))
            val usage = cpu.usage(before, cpu.read(servers.pids, servers.processTrees), cores)
            val data = ProcessUsage.between(start, dataServer.snapshot(), report.requests)
            val figures = report.figures() +
                Figures.of(Figure.DATA_CPU_US to data.cpuUsPerRequest, Figure.MACHINE_BUSY to usage.machineBusyShare)
            val wrong = report.requests - report.ok
            val flags = usage.flags(CpuUsage.MACHINE_SATURATED) +
                listOfNotNull(if (wrong > 0) Flag.WrongAnswers(wrong, report.requests) else null)
            val sample = Sample(figures, report.ok, wrong, flags, failures = report.failures)
            ledger?.closeInto(sample) ?: sample
        } catch (e: Exception) {
            failed(servers, e)
        }

        override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix {
            val writes = cells.any { it.condition.target is Target.Members }

            // Reads count in the data handlers; a creation (one member per request here) in the table's counts.
            fun requestsSoFar() = if (writes) dataServer.members().created else dataServer.served()
            val plan = plan(cells, load, limit)
            driver.start(plan)
            return object : Mix {
                // The driver answers only at its end: a window cannot count failures, the trials do.
                override fun window(length: Duration): SoakWindow {
                    // Each window starts from an empty table: a soak's rows would otherwise fill an in-memory database.
                    if (writes) dataServer.clearMembers()
                    val (served, start) = requestsSoFar() to dataServer.snapshot()
                    val driverBefore = cpu.read(mapOf(DriverProcess.NAME to driver.pid))
                    Thread.sleep(length.toMillis())
                    val (requests, end) = (requestsSoFar() - served) to dataServer.snapshot()
                    val driverUsage = cpu.usage(driverBefore, cpu.read(mapOf(DriverProcess.NAME to driver.pid)), cores)
                    val seconds = (end.monotonicNs - start.monotonicNs) / 1e9
                    val cpuPerRequest = if (requests > 0) (end.cpuTimeNs - start.cpuTimeNs) / 1e3 / requests else null
                    // The driver warms here too: its compiler threads' share of the window counts like the data-server's.
                    val jitShare = (end.jitCompileTimeMs - start.jitCompileTimeMs) / (seconds * 1000).coerceAtLeast(1.0) +
                        (driverUsage.compilerCoresUsed[DriverProcess.NAME] ?: 0.0)
                    return SoakWindow(requests / seconds, cpuPerRequest, 0, jitShare)
                }

                override fun close() {
                    runCatching { driver.stop(plan) }
                }
            }
        }

        override fun alive(): Boolean = servers.allAlive() && dataServer.isHealthy()

        /** No gateway: only the data-server has a heap of this run's. */
        override fun collectGarbage(): HeapsCollected = HeapsCollected(gateway = null, dataServer = dataServer.collectGarbage())

        override fun effectiveSettings(): Map<String, String> = VariantSettings.flatten("protobench.data", dataServer.settings()) +
            VariantSettings.jvm("data-server", dataServer.snapshot().jvm)

        override fun close() {
            driver.close()
            servers.close()
        }

        private fun plan(cells: List<Cell>, offered: LoadLevel, duration: Duration, warmUp: Duration = Duration.ZERO) =
            DriverPlans.directPlan(
                servers.dataServerUrl,
                servers.dataServerGrpc,
                cells.map { DriverPlans.direct(it, memberBodies) },
                offered,
                duration,
                warmUp,
            )
    }

    /** (correct, wrong) answers of a driver's run, both phases: all of them cost the servers CPU. */
    private fun answers(summary: DriverSummary): Pair<Double, Double> =
        (summary.warmUp.correct + summary.timed.correct).toDouble() to (summary.warmUp.wrong + summary.timed.wrong).toDouble()
}
