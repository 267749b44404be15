package io.protobench.bench.runner

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Target
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/**
 * Everything one k6 run needs, rendered from a cell: the shared script's
 * environment variables. Kept apart from [K6Runner] so it can be checked without k6.
 */
data class K6Invocation(val script: Path, val environment: Map<String, String>, val duration: Duration) {
    fun command(k6: Path): List<String> = listOf(k6.toString(), "run", "--quiet", "--no-usage-report", script.toString())

    companion object {
        /** [expectedValue]: the exact payloadSize / serializedSize each answer must carry, or null for "> 0". */
        fun of(script: Path, gatewayUrl: String, cell: Cell, duration: Duration, expectedValue: Long?, summary: Path): K6Invocation {
            val target = cell.condition.target
            val load = when (val level = cell.condition.load) {
                is LoadLevel.Vus -> mapOf("LOAD_MODEL" to "closed", "VUS" to level.vus.toString())
                is LoadLevel.Rate -> mapOf("LOAD_MODEL" to "open", "RATE" to level.perSecond.toString(), "MAX_VUS" to level.maxVus.toString())
            }
            val environment = mapOf(
                "BASE_URL" to gatewayUrl,
                "TARGET_PATH" to target.gatewayPath(cell.protocol),
                "EXPECT_FIELD" to when (target) {
                    is Target.Size -> "payloadSize"
                    is Target.Level -> "serializedSize"
                },
                "EXPECT_VALUE" to (expectedValue?.toString() ?: ""),
                "DURATION" to DurationText.k6(duration),
                "SUMMARY_PATH" to summary.toAbsolutePath().toString(),
            ) + load
            return K6Invocation(script, environment, duration)
        }
    }
}

class K6Failed(message: String) : RuntimeException(message)

/** Runs k6 as a child process and returns its end-of-test summary. */
class K6Runner(private val k6: Path, private val logFile: Path, private val placement: CpuPlacement) {
    private val json = ObjectMapper()

    fun run(invocation: K6Invocation): JsonNode {
        val summary = Path.of(invocation.environment.getValue("SUMMARY_PATH"))
        Files.deleteIfExists(summary)
        val builder = ProcessBuilder(placement.wrap("k6", invocation.command(k6)))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
        builder.environment().putAll(invocation.environment)
        val process = builder.start()
        val limit = invocation.duration.plusSeconds(90)
        if (!process.waitFor(limit.seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly()
            throw K6Failed("k6 did not finish within ${limit.seconds} s; see $logFile")
        }
        // k6 exits non-zero when thresholds fail; we set none, so any non-zero exit is an error.
        if (process.exitValue() != 0 || !Files.exists(summary)) {
            throw K6Failed("k6 exited with code ${process.exitValue()}; see $logFile")
        }
        return json.readTree(summary.toFile())
    }
}
