package io.protobench.bench.lab.launch

import io.protobench.bench.design.ToolRun
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.scenario.SeedTool
import io.protobench.contract.Json
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * What a seed tool reported about its run, in its own terms: [requestsPerSecond] is the
 * tool's own figure (all answers over its wall time, as the seed read it), [ok] the
 * answers that created a member (HTTP 201, gRPC OK), latencies in milliseconds.
 */
data class ToolReport(
    val requests: Long,
    val ok: Long,
    val seconds: Double,
    val requestsPerSecond: Double,
    val averageMs: Double?,
    val p50Ms: Double?,
    val p95Ms: Double?,
    val p99Ms: Double?,
    /** Answers that were not a creation, by status code or error text, with their counts. */
    val failures: Map<String, Long>,
) {
    /** The report as [Figures]: what the run record keeps. */
    fun figures(): Figures = Figures.of(
        Figure.THROUGHPUT to requestsPerSecond,
        Figure.LATENCY_AVG to averageMs,
        Figure.LATENCY_P50 to p50Ms,
        Figure.LATENCY_P95 to p95Ms,
        Figure.LATENCY_P99 to p99Ms,
        Figure.ERROR_RATE to if (requests > 0) (requests - ok).toDouble() / requests else null,
    )
}

/** The tools' printed summaries, read back. A summary that is not there is an [IllegalStateException] naming what was missing. */
object ToolOutput {
    private val json = Json.newMapper()

    /**
     * hey's text summary: `Total:`, `Average:` and `Requests/sec:` lines, `NN%% in X secs`
     * latency lines, `[code]\tN responses` status lines and `[N]\terror` error lines.
     */
    fun hey(text: String): ToolReport {
        fun seconds(label: String) = Regex("""$label:\s+([0-9.]+)""").find(text)?.groupValues?.get(1)?.toDouble()
        val percentiles = Regex("""(\d+)%%? in ([0-9.]+) secs""").findAll(text)
            .associate { it.groupValues[1].toInt() to it.groupValues[2].toDouble() * 1000 }
        val statuses = Regex("""\[(\d{3})]\s+(\d+) responses""").findAll(text)
            .associate { it.groupValues[1] to it.groupValues[2].toLong() }
        val errorSection = text.substringAfter("Error distribution:", "")
        val errors = Regex("""\[(\d+)]\s+(.+)""").findAll(errorSection).associate { it.groupValues[2].trim() to it.groupValues[1].toLong() }
        val total = seconds("Total") ?: error("hey printed no summary (no 'Total:' line)")
        val ok = statuses["201"] ?: 0
        return ToolReport(
            requests = statuses.values.sum() + errors.values.sum(),
            ok = ok,
            seconds = total,
            requestsPerSecond = seconds("Requests/sec") ?: error("hey printed no 'Requests/sec:' line"),
            averageMs = seconds("Average")?.let { it * 1000 },
            p50Ms = percentiles[50], p95Ms = percentiles[95], p99Ms = percentiles[99],
            failures = statuses.filterKeys { it != "201" } + errors,
        )
    }

    /** ghz's JSON report (`-O json`): durations in nanoseconds, status counts by gRPC code name. */
    fun ghz(text: String): ToolReport {
        val report = runCatching { json.readTree(text) }.getOrNull()?.takeIf { it.has("count") }
            ?: error("ghz printed no JSON report")
        fun ms(nanos: Double) = nanos / 1e6
        val percentiles = report.path("latencyDistribution")
            .associate { it.path("percentage").asInt() to ms(it.path("latency").asDouble()) }
        val statuses = report.path("statusCodeDistribution").fields().asSequence().associate { it.key to it.value.asLong() }
        val errors = report.path("errorDistribution").fields().asSequence().associate { it.key to it.value.asLong() }
        return ToolReport(
            requests = report.path("count").asLong(),
            ok = statuses["OK"] ?: 0,
            seconds = report.path("total").asDouble() / 1e9,
            requestsPerSecond = report.path("rps").asDouble(),
            averageMs = ms(report.path("average").asDouble()),
            p50Ms = percentiles[50], p95Ms = percentiles[95], p99Ms = percentiles[99],
            failures = statuses.filterKeys { it != "OK" } + errors,
        )
    }
}

/**
 * Runs the seed tools against a data-server: the command line of each, run to its end
 * (at most [TIMEOUT_MINUTES]), its output kept under `logs/` and read back.
 */
class SeedToolRunner(private val binaries: Map<SeedTool, Path>, private val logs: Path, private val children: ChildProcesses) {

    /** The command of [run] against a data-server at [httpUrl] and [grpcAddress], posting [body]. */
    fun command(run: ToolRun, httpUrl: String, grpcAddress: String, body: Path): List<String> {
        val binary = binaries[run.tool]?.toString() ?: error("${run.tool.label} was not installed for this run")
        val n = run.requests.toString()
        val c = run.concurrency.toString()
        return when (run.tool) {
            SeedTool.HEY -> listOf(
                binary, "-n", n, "-c", c, "-m", "POST", "-T", "application/json",
                "-D", body.toString(), "$httpUrl/api/members",
            )

            // The body is data, not a template: its free text holds braces.
            SeedTool.GHZ -> listOf(
                binary, "--insecure", "--call", "protobench.MemberService/CreateMember", "--data-file", body.toString(),
                "--disable-template-data", "--disable-template-functions", "-n", n, "-c", c, "-O", "json", grpcAddress,
            )
        }
    }

    /** Runs [run] to its end and reads its summary; throws with the tool's own words when it failed. */
    fun run(run: ToolRun, httpUrl: String, grpcAddress: String, body: Path): ToolReport {
        Files.createDirectories(logs)
        val output = logs.resolve("${run.tool.label}.out")
        val process = ProcessBuilder(command(run, httpUrl, grpcAddress, body))
            .redirectErrorStream(true).redirectOutput(output.toFile()).start()
        children.track(process)
        try {
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly()
                error("${run.tool.label} did not finish within $TIMEOUT_MINUTES minutes")
            }
        } finally {
            children.forget(process)
        }
        val text = Files.readString(output)
        if (process.exitValue() != 0) {
            error(
                "${run.tool.label} exited with ${process.exitValue()}: ${text.trim().lines().takeLast(3).joinToString(" ")}",
            )
        }
        return if (run.tool == SeedTool.HEY) ToolOutput.hey(text) else ToolOutput.ghz(text)
    }

    companion object {
        const val TIMEOUT_MINUTES = 10L
    }
}
