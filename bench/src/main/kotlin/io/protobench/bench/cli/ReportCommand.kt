package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import io.protobench.bench.crossover.CrossoverRebuild
import io.protobench.bench.crossover.CrossoverRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.RunStore
import java.nio.file.Path

class ReportCommand : CliktCommand(name = "report") {
    override fun help(context: Context) =
        "Rebuild report.md, report.html and cells.csv of a run from its run.json; given a crossover folder, every point's " +
            "report and crossover.md, each point decided again from its run.json."
    private val dir by argument("RUN_DIR")
    private val lang by langOption()
    override fun run() {
        val texts = texts(lang)
        val path = try {
            Path.of(dir)
        } catch (e: java.nio.file.InvalidPathException) {
            invalid("not a path: ${e.message}")
        }
        if (CrossoverRebuild.isSearch(path)) return rebuildSearch(path, texts)
        val record = try {
            RunStore.load(path)
        } catch (e: IllegalArgumentException) {
            invalid(e.message ?: "no run record in $dir")
        } catch (e: java.io.IOException) {
            invalid("cannot read the run record in $dir: ${e.message}")
        }
        val target = if (java.nio.file.Files.isDirectory(path)) path else path.parent
        if (record.status == RunStatus.RUNNING && !ownerAlive(target)) {
            echo("this run is abandoned: its CLI is no longer running (killed or crashed); the report shows what it measured", err = true)
        }
        try {
            echo("report: ${ReportWriter.write(target, record, texts)} (and report.html, cells.csv)")
        } catch (e: java.io.IOException) {
            echo("cannot write the report in $target: ${e.message}", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        } catch (e: RuntimeException) {
            echo("cannot render the report of $target (${e.javaClass.simpleName}: ${e.message}); run.json is unchanged", err = true)
            throw ProgramResult(EXIT_RUN_FAILED)
        }
    }

    private fun rebuildSearch(path: Path, texts: io.protobench.bench.text.Texts) {
        val rebuilt = try {
            CrossoverRebuild.rebuild(path, texts)
        } catch (e: IllegalArgumentException) {
            invalid(e.message ?: "not a crossover folder: $dir")
        } catch (e: com.fasterxml.jackson.core.JacksonException) {
            invalid("cannot read ${path.resolve(CrossoverRecord.JSON)} or a point's run.json: ${e.originalMessage}")
        } catch (e: java.io.IOException) {
            echo("cannot read or write the search in $path: ${e.message}", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        echo("report: ${rebuilt.markdown} and the reports of ${rebuilt.points} points, each decided again from its run.json")
        if (rebuilt.changed.isEmpty()) {
            echo("every point's decision is the one crossover.json recorded")
            return
        }
        for (c in rebuilt.changed) {
            echo(
                "point ${c.n} (${c.value}) is decided differently now: ${c.now ?: "no decision"} (crossover.json: ${c.recorded ?: "none"})",
            )
        }
        echo("crossover.md gives the decisions of today's rules; crossover.json keeps the search's own, which chose its points")
    }
}
