package io.protobench.bench.runner

import io.protobench.bench.scenario.LoadLevel
import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.CpuUsage
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.measure.Steadiness
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Variant
import io.protobench.contract.window.WindowReport
import java.nio.file.Path
import java.time.Duration

/** The real lab: server JVMs on this machine, k6 as the load generator, /proc for CPU. */
class LocalLab(
    private val launcher: ServerLauncher,
    private val k6: K6Runner,
    private val cpu: CpuAccounting,
    private val script: Path,
    private val dir: Path,
    private val mode: Mode,
) : Lab {
    /** The command lines of the last servers started (of each variant), for run.json. */
    @Volatile var lastCommands: Map<String, List<String>> = emptyMap()
        private set

    override fun startFork(index: Int, variant: Variant?): Fork {
        val servers = launcher.start(variant)
        lastCommands = lastCommands + servers.commands.mapKeys { (server, _) -> Variant.label(server, variant?.name) }
        return LocalFork(servers)
    }

    private inner class LocalFork(private val servers: ServerSet) : Fork {
        private val gateway = GatewayClient(servers.gatewayUrl)
        private val levelBytes: JsonNode by lazy { gateway.complexities() }
        private val cores = Runtime.getRuntime().availableProcessors()

        override fun measure(run: LoadRun): Sample {
            val before = cpu.read(servers.pids)
            return try {
                gateway.startWindow(run.cell.arm.label, "${run.cell.label} ${run.offered.label}")
                val summary = try {
                    k6.run(invocation(listOf(run.cell), run.offered, run.duration))
                } catch (e: Exception) {
                    // The window is closed whatever happened to k6, so the next trial can open its own.
                    runCatching { gateway.endWindow() }
                    throw e
                }
                val end = gateway.endWindow()
                sample(summary, end, cpu.usage(before, cpu.read(servers.pids), cores), run.offered)
            } catch (e: Exception) {
                Sample.failed(e.message ?: e.javaClass.simpleName)
            }
        }

        private fun sample(summary: JsonNode, end: WindowReport, usage: CpuUsage, offered: LoadLevel): Sample {
            val (correct, wrong) = TrialFigures.answers(summary)
            val requests = summary.path("metrics").path("http_reqs").path("values").path("count").asDouble(0.0)
            val base = TrialFigures.from(summary, end, usage, requests)
            val target = (offered as? LoadLevel.Rate)?.perSecond
            val figures = base + TrialFigures.rateShare(base, target)
            val machineLimit = if (mode == Mode.COST && offered is LoadLevel.Rate) CpuUsage.MACHINE_BUSY_COST_LIMIT else CpuUsage.MACHINE_SATURATED
            val flags = usage.flags(machineLimit) + TrialFigures.rateFlags(figures, target) +
                listOfNotNull(Steadiness.ofGateway(end).flag(), Flag.JitActive.of(figures)) +
                listOfNotNull(if (wrong > 0) Flag.WrongAnswers(wrong.toLong(), (correct + wrong).toLong()) else null)
            return Sample(figures, correct.toLong(), wrong.toLong(), flags, null, summary.path("metrics"), end)
        }

        override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix {
            val process = k6.start(invocation(cells, load, limit))
            return object : Mix {
                override fun window(length: Duration): SoakWindow {
                    gateway.startWindow("soak", "soak")
                    Thread.sleep(length.toMillis())
                    val end = gateway.endWindow()
                    val figures = TrialFigures.fromGateway(end)
                    val cpuPerRequest = figures[Figure.API_CPU_US.key]?.let { api -> figures[Figure.DATA_CPU_US.key]?.let { api + it } }
                    val jitMs = end.processes.apiServer.jitCompileTimeMs + (end.processes.dataServer?.jitCompileTimeMs ?: 0)
                    return SoakWindow(end.throughputRps, cpuPerRequest, end.failedRequests, jitMs / end.durationMs.coerceAtLeast(1).toDouble())
                }

                override fun close() = k6.stop(process)
            }
        }

        override fun alive(): Boolean = servers.allAlive() && gateway.isHealthy()

        /** From an empty measurement window: its report carries both servers' effective settings. */
        override fun effectiveSettings(): Map<String, String> {
            gateway.startWindow("settings", "settings")
            val end = gateway.endWindow()
            return VariantSettings.flatten("protobench.gateway", end.clientSettings) +
                VariantSettings.flatten("protobench.data", end.dataServerSettings) +
                VariantSettings.jvm("api-server", end.processes.apiServer.jvm) +
                VariantSettings.jvm("data-server", end.processes.dataServer?.jvm)
        }

        override fun close() = servers.close()

        private fun invocation(cells: List<Cell>, offered: LoadLevel, duration: Duration) = K6Invocation.of(
            script, servers.gatewayUrl, cells.map { K6Target.of(it, ::levelBytes) }, offered, duration, dir.resolve("logs/k6-summary.json"),
        )

        /** The exact serializedSize the gateway reports for a level: JSON bytes for HTTP/JSON, protobuf bytes otherwise. */
        private fun levelBytes(level: String, arm: Arm): Long? {
            val field = if (arm.reportsJsonBytes) "jsonBytes" else "protobufBytes"
            return levelBytes.findParents("level").firstOrNull { it.path("level").asText() == level }
                ?.path(field)?.takeIf { it.isNumber }?.asLong()
        }
    }
}
