package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.lab.LocalLabSource
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.Analysis
import io.protobench.bench.run.BenchmarkRunner
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.run.remoteOfFlag
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.ScenarioParser
import java.nio.file.Path

class ResumeCommand : CliktCommand(name = "resume") {
    override fun help(context: Context) = "Continue an interrupted or abandoned run in its own folder, keeping every completed trial."
    private val dir by argument("RUN_DIR")
    private val lang by langOption()

    override fun run() {
        val texts = texts(lang)
        val store = RunStore(Path.of(dir).toAbsolutePath().normalize())
        val record = try {
            RunStore.load(store.dir)
        } catch (e: IllegalArgumentException) {
            echo(e.message, err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val resume = record.resume
        if (record.status == RunStatus.COMPLETE || resume == null) {
            echo(
                "nothing to resume in $dir: the run is ${record.status.name.lowercase()}" +
                    if (resume == null) " and its record has no resume section" else "",
                err = true,
            )
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        if (record.status == RunStatus.RUNNING && ownerAlive(store.dir)) {
            echo("the run in $dir is still running", err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val scenario = try {
            ScenarioParser.validate(resume.scenario, "${store.runJson}")
        } catch (e: InvalidScenario) {
            echo(e.message, err = true)
            throw ProgramResult(EXIT_INVALID_INPUT)
        }
        val options = RunOptions(
            store.dir.parent, resume.jvmOptions, resume.gatewayArguments, resume.dataServerArguments,
            record.seed, resume.pinning, record.options, resume.serverJava?.let { Path.of(it) },
            network = resume.network?.let(io.protobench.bench.scenario.NetworkProfile::parse), remote = resume.remote?.let(::remoteOfFlag),
            externalDatabase = resume.database?.let { ExternalDatabase.of(it.url, it.user, it.schema) },
        )
        echo("resuming ${record.runId}: ${record.trials.size} trials in ${record.forks.size} forks kept")
        try {
            BenchmarkRunner(
                LocalLabSource(projectDir()),
                Analysis.judge,
                onFinished = { s, record -> writeReport(s, record, texts) },
            ).run(scenario, options, resumed = store)
        } catch (e: Exception) {
            val (what, exit) = runFailure(e) ?: throw e
            echo("$what: ${e.message}", err = true)
            throw ProgramResult(exit)
        }
        if (RunStore.load(store.dir).status != RunStatus.COMPLETE) throw ProgramResult(EXIT_RUN_FAILED)
    }
}
