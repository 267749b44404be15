package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.default
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import io.protobench.bench.compare.CompareConsole
import io.protobench.bench.compare.CompareHtml
import io.protobench.bench.compare.CompareMarkdown
import io.protobench.bench.compare.CompareResult
import io.protobench.bench.compare.RunComparison
import io.protobench.bench.json.JsonFiles
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.ScenarioParser
import java.nio.file.Path

class CompareCommand : CliktCommand(name = "compare") {
    override fun help(context: Context) =
        "Compare two runs of the same scenario (A, the baseline, then B) and write compare.md and compare.html: " +
            "per condition, arm and figure, " +
            "the change B vs A with its Holm-adjusted interval: changed beyond noise, equivalent within the margin, or inconclusive. " +
            CompareMarkdown.regressionRule("margin").replace("**", "").replace("`", "") +
            " Beside, each run's own verdicts side by side (between protocols, between settings, interactions): " +
            "agreeing, decided in one run only, or contradicting." +
            " Exit 0: no regression; 2: a run cannot be read, or the runs share no condition or differ in machine or settings " +
            "(without --force); 4: at least one regression."

    private val runA by argument("RUN_A", help = "The baseline: a results/<run> folder or its run.json")
    private val runB by argument("RUN_B", help = "The run compared with it")
    private val margin by option(
        "--margin",
        help = "Margin of equivalence and of a regression, e.g. 5% or 0.05 (default: the runs' margin)",
    )
    private val force by option("--force", help = "Compare runs whose machine or settings differ; the differences head compare.md").flag()
    private val out by option("--out", help = "Folder for compare.md and compare.html (default: results/<time>-compare/)")
    private val lang by langOption("compare.md, compare.html and what it prints")

    override fun run() {
        val texts = texts(lang)
        val share = margin?.let { text ->
            ScenarioParser.parseShare(text, ScenarioParser.MARGIN_RANGE)
                ?: invalid("--margin $text: ${ScenarioParser.shareAccepted(ScenarioParser.MARGIN_RANGE)}")
        }
        val a = load(runA)
        val b = load(runB)
        val comparison = when (val result = RunComparison.of(a, b, share, force)) {
            is CompareResult.Identical -> {
                echo(result.message(texts))
                return
            }

            is CompareResult.Refused -> {
                CompareConsole.refusal(result, a.runId, b.runId, texts).forEach { echo(it, err = true) }
                throw ProgramResult(EXIT_INVALID_INPUT)
            }

            is CompareResult.Compared -> result.comparison
        }
        val file = try {
            val dir = out?.let { java.nio.file.Files.createDirectories(Path.of(it)) }
                ?: RunStore.create(projectDir().resolve("results"), "${RunStore.stamp(java.time.Instant.now())}-compare").dir
            JsonFiles.writeAtomically(dir.resolve(CompareHtml.FILE_NAME), CompareHtml.render(comparison, texts).toByteArray())
            dir.resolve(CompareMarkdown.FILE_NAME).also {
                JsonFiles.writeAtomically(it, CompareMarkdown.render(comparison, texts).toByteArray())
            }
        } catch (e: java.io.IOException) {
            invalid("cannot write ${CompareMarkdown.FILE_NAME}${out?.let { " in $it" } ?: ""}: ${e.message}")
        } catch (e: java.nio.file.InvalidPathException) {
            invalid("--out $out: not a path: ${e.message}")
        }
        CompareConsole.summary(comparison, file, texts).forEach { echo(it) }
        if (comparison.hasRegression) throw ProgramResult(EXIT_REGRESSION)
    }

    private fun load(dir: String) = try {
        RunStore.load(Path.of(dir))
    } catch (e: java.nio.file.InvalidPathException) {
        invalid("not a path: ${e.message}")
    } catch (e: IllegalArgumentException) {
        invalid(e.message ?: "no run record in $dir")
    } catch (e: java.io.IOException) {
        invalid("cannot read the run record in $dir: ${e.message}")
    }
}
