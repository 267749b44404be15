package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.core.main
import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.default
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import io.protobench.bench.database.ExternalDatabaseRefused
import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.lab.launch.NoSuchJdk
import io.protobench.bench.lab.launch.ToolchainProblem
import io.protobench.bench.lab.remote.RemoteUnreachable
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.InvalidRemote
import io.protobench.bench.run.RunStore
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import java.nio.file.Path

/**
 * Exit codes: 0 done; 1 bad command line as Clikt reports it (unknown option, missing
 * argument, a value that is not a number for a numeric flag); 2 bad scenario, flag value,
 * input file or missing tool (nothing ran, nothing created), or two runs `compare` refuses;
 * 3 a run that failed or was cut short; 4 `compare` found at least one regression beyond
 * the margin (B worse than A with the whole Holm-adjusted interval beyond the margin).
 */
internal const val EXIT_INVALID_INPUT = 2
internal const val EXIT_RUN_FAILED = 3
internal const val EXIT_REGRESSION = 4

/** A server property as the command line takes it, name=value: without the '=' Spring would read an empty value. */
internal val SPRING_PROPERTY = Regex("""[A-Za-z][\w.\[\]-]*=.*""")

/** The project checkout: where the server jars, tools/ and results/ live. The wrapper sets PROTOBENCH_HOME. */
internal fun projectDir(): Path = Path.of(System.getenv("PROTOBENCH_HOME") ?: ".").toAbsolutePath().normalize()

class Protobench : CliktCommand(name = "protobench") {
    override fun help(context: Context) =
        "Compares HTTP/JSON, HTTP/Binary, gRPC/Unary and gRPC/Stream between two JVM services, with statistics."
    override fun run() = Unit
}

/**
 * Writes a finished run's reports. Whatever goes wrong here (a full disk, or a fault in
 * the report code), the measured run.json stays as it is and the message says how to
 * rebuild the reports from it.
 */
internal fun CliktCommand.writeReport(store: RunStore, record: io.protobench.bench.measure.RunRecord, texts: Texts) {
    try {
        echo("report: ${ReportWriter.write(store.dir, record, texts)} (and report.html, cells.csv)", err = true)
    } catch (e: Exception) {
        echo(
            "cannot write the report (${e.javaClass.simpleName}: ${e.message}); run.json is kept: " +
                "rebuild it with `protobench report ${store.dir}`",
            err = true,
        )
    }
}

/** `--lang`: the language of [what] the command writes (report.md and report.html unless said). */
internal fun CliktCommand.langOption(what: String = "report.md and report.html") =
    option("--lang", help = "Language of $what: ${Lang.accepted}; default en").default("en")

/** The message catalogue for a `--lang` value, or exit 2 naming the languages there are. */
internal fun CliktCommand.texts(lang: String): Texts =
    Lang.parse(lang)?.let(Texts::of) ?: invalid("--lang $lang: no report in that language; accepted: ${Lang.accepted}")

/** Bad input: say what was wrong and stop with exit 2. */
internal fun CliktCommand.invalid(message: String): Nothing {
    echo(message, err = true)
    throw ProgramResult(EXIT_INVALID_INPUT)
}

/** Whether the CLI that wrote a run folder's children.pid is still running. */
internal fun ownerAlive(dir: Path): Boolean {
    val first = runCatching {
        java.nio.file.Files.readAllLines(dir.resolve(io.protobench.bench.process.ChildProcesses.FILE_NAME)).firstOrNull()
    }.getOrNull()
        ?: return false
    val pid = first.substringBefore(" ").toLongOrNull() ?: return false
    return ProcessHandle.of(pid).map { it.isAlive }.orElse(false)
}

/**
 * How a run that stopped is reported: a missing tool or a refused setting is bad input
 * (exit 2, found before anything was measured), a failed database cluster or disk a
 * failed run (exit 3); null for anything else, a bug that should surface.
 */
internal fun runFailure(e: Exception): Pair<String, Int>? = when (e) {
    is ToolchainProblem, is io.protobench.bench.network.LinkSetupFailed, is NoSuchJdk, is io.protobench.bench.database.PostgresMissing,
    is InvalidRemote, is RemoteUnreachable, is ExternalDatabaseRefused,
    ->
        "cannot run" to EXIT_INVALID_INPUT

    is io.protobench.bench.design.ServerSettingRejected -> "bad server setting" to EXIT_INVALID_INPUT

    is io.protobench.bench.database.ClusterProblem -> "the run's PostgreSQL cluster failed" to EXIT_RUN_FAILED

    is java.io.IOException -> "cannot write results" to EXIT_RUN_FAILED

    else -> null
}

/**
 * The whole command tree, as `main` runs it: the one place the commands are put together,
 * so the tests that check docs/reference.md against the CLI parse with the very same tree.
 */
fun protobenchCommands(): CliktCommand = Protobench().subcommands(
    RunCommand(), ListCommand(), ReportCommand(), ResumeCommand(), CompareCommand(), CrossoverCommand(), NetworkCommand(),
    LinkSinkCommand(),
    ServeCommand(), MessageCommand(),
    ExportCommand().subcommands(KubernetesExportCommand()), MergeCommand(),
    DatabaseCommand().subcommands(DatabaseStartCommand(), DatabaseStopCommand(), DatabaseStatusCommand()),
)

fun main(args: Array<String>) = protobenchCommands().main(args)
