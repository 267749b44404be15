package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.RunStore
import java.nio.file.Path

class ReportCommand : CliktCommand(name = "report") {
    override fun help(context: Context) = "Rebuild report.md, report.html and cells.csv of a run from its run.json."
    private val dir by argument("RUN_DIR")
    private val lang by langOption()
    override fun run() {
        val texts = texts(lang)
        val path = try {
            Path.of(dir)
        } catch (e: java.nio.file.InvalidPathException) {
            invalid("not a path: ${e.message}")
        }
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
}
