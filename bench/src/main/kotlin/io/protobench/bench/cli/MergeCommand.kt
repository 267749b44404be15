package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.multiple
import com.github.ajalt.clikt.parameters.arguments.optional
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import io.protobench.bench.export.InvalidMerge
import io.protobench.bench.export.MergeResult
import io.protobench.bench.export.PartsMerge
import io.protobench.driver.Latency
import java.io.IOException
import java.nio.file.InvalidPathException
import java.nio.file.Path
import java.util.Locale

/**
 * `protobench merge OUT INPUTS...`: exit 0 when the merged trial is written, 2 when the
 * inputs are not the parts of one trial or cannot be read or written (every reason named).
 */
class MergeCommand : CliktCommand(name = "merge") {
    override fun help(context: Context) =
        "Merge the outputs of the parts of one driver plan (the pods of a Job from `protobench export kubernetes`, as `kubectl logs` " +
            "prints them, or `load-driver run --part I/N` outputs) into one trial: counts, failures and connections summed, latency " +
            "percentiles from their histogram logs merged. Writes OUT (the driver's summary, JSON) and the merged log beside it (.hlog). " +
            "See docs/distributed.md."

    private val out by argument("OUT", help = "The merged summary to write, e.g. results/quick-01-http-json.json").optional()
    private val inputs by argument("INPUTS", help = "Files holding the parts' outputs (a file may hold several)").multiple()
    private val force by option("--force", help = "Replace OUT and its .hlog if they exist").flag()

    override fun run() {
        val target = out ?: invalid("give OUT, the merged summary to write, and the parts' outputs: protobench merge OUT INPUTS...")
        val result = try {
            PartsMerge.run(path(target), inputs.map(::path), force)
        } catch (e: InvalidMerge) {
            invalid(e.message ?: e.javaClass.simpleName)
        } catch (e: IOException) {
            invalid("cannot write the merged trial: ${e.javaClass.simpleName}: ${e.message}")
        }
        echo(describe(result))
    }

    private fun path(text: String): Path = try {
        Path.of(text)
    } catch (e: InvalidPathException) {
        invalid("not a path: $text (${e.message})")
    }

    private fun describe(result: MergeResult): String {
        val trial = result.trial
        val timed = trial.summary.timed
        return "merged ${trial.parts} parts of one plan (${trial.plan.targets.joinToString { it.path }}) " +
            "into ${result.summaryFile} and ${result.logFile}: " +
            "timed phase ${timed.correct} correct, ${timed.wrong} wrong, ${timed.dropped} dropped answers; " +
            "${latency(trial.summary.latency)}; " +
            "every part timed together for ${seconds(trial.together.seconds)} of the ${seconds(trial.spread.seconds)} " +
            "from the first one's start to the last one's end"
    }

    private fun latency(latency: Latency?): String = latency?.let {
        String.format(Locale.ROOT, "latency p50 %.3f ms, p99 %.3f ms, p99.9 %.3f ms, max %.3f ms", it.p50, it.p99, it.p999, it.max)
    } ?: "no latency recorded"

    private fun seconds(value: Double) = String.format(Locale.ROOT, "%.1f s", value)
}
