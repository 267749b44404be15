package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.CliktError
import com.github.ajalt.clikt.core.MissingArgument
import com.github.ajalt.clikt.core.MissingOption
import com.github.ajalt.clikt.core.MultiUsageError
import com.github.ajalt.clikt.core.PrintHelpMessage
import com.github.ajalt.clikt.parameters.arguments.ArgumentDelegate
import com.github.ajalt.clikt.parameters.options.OptionDelegate
import com.github.ajalt.clikt.parsers.CommandInvocation
import com.github.ajalt.clikt.parsers.CommandLineParser
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.crossover.CrossoverPlan
import io.protobench.bench.crossover.CrossoverRequest
import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.export.ExportRequest
import io.protobench.bench.export.ExportValidation
import io.protobench.bench.run.Remote
import io.protobench.bench.scenario.MessageFile
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.text.Lang

/**
 * A command line parsed by the CLI's own command tree ([protobenchCommands]) up to the point
 * where a command's run() would start, and no further: nothing is measured, started or written.
 *
 * Why not `--help` appended: Clikt handles --help as an eager option, before it reports what
 * else is wrong, so `protobench run quick --forkz 3 --help` prints run's help and exits 0, and
 * `protobench runn --help` prints the top-level help (DocumentedCommandsTest shows both). What
 * proves that documented subcommands and flags exist is the parse itself: [CommandLineParser.parse]
 * and then [CommandLineParser.run] with a block that does nothing in place of each command's
 * run(), which is how Clikt's own main() calls them. That finalizes every command on the line:
 * unknown options and subcommands, missing arguments, numbers that are not, choices outside
 * their set all end in the [CliktError] a user would see (exit 1). A documented line that asks
 * for `--help` itself is parsed without it, and may then lack only what help makes needless.
 *
 * The values the CLI checks itself inside run() are checked with the same parsers ([valueProblem]):
 * a scenario name and its overrides, --lang, network profiles, remote servers, --db-url, the
 * crossover flags and the export request. Not checked: a synopsis's placeholders (`P`,
 * `<scenario>`), paths to the user's own files and folders (a run folder, a scenario YAML file,
 * merge's inputs; a message's .proto and sample stand in as empty files), which no test has, and a JDK named by --server-java, which depends on what
 * this machine has installed.
 */
object DryRun {
    /** What is wrong with [argv] (the words after `protobench`), or null when the CLI would take it, values included. */
    fun problem(argv: List<String>): String? {
        val root = protobenchCommands()
        // A line that asks for help is checked without it, since --help would hide the rest; what help
        // makes needless may then be missing: a required argument or option, a group's subcommand.
        val asksHelp = argv.any { it in HELP }
        val line = argv.filterNot { it in HELP }
        val invocation = try {
            CommandLineParser.parse(root, line).invocation
        } catch (e: CliktError) {
            return message(root, e)
        }
        try {
            CommandLineParser.run(invocation) { }
        } catch (e: CliktError) {
            // A group named without its subcommand prints its help: with exit 1, that is the CLI refusing the line.
            val fine = (e is PrintHelpMessage && e.statusCode == 0) || (asksHelp && needlessWithHelp(e))
            return if (fine) null else message(root, e)
        }
        if (asksHelp) return null
        return flatten(invocation, emptyList()).firstNotNullOfOrNull { (path, command) -> valueProblem(path.joinToString(" "), command) }
    }

    /** The help `protobench [path] --help` prints, as the CLI prints it. */
    fun help(path: List<String>): String {
        val result = protobenchCommands().test(path + "--help")
        return result.stdout + result.stderr
    }

    /** The command that [path] (subcommand names after `protobench`) names, or null. */
    fun command(path: List<String>): CliktCommand? = path.fold(protobenchCommands() as CliktCommand?) { command, name ->
        command?.registeredSubcommands()?.firstOrNull { it.commandName == name } as CliktCommand?
    }

    /** How many leading [words] name subcommands, one inside the other. */
    fun pathLength(words: List<String>): Int {
        var command: CliktCommand = protobenchCommands()
        for ((index, word) in words.withIndex()) {
            command = command.registeredSubcommands().firstOrNull { it.commandName == word } as CliktCommand? ?: return index
        }
        return words.size
    }

    /** Every visible command of the tree with the names that lead to it, the root (empty path) first. */
    fun commands(): List<Pair<List<String>, CliktCommand>> {
        fun walk(path: List<String>, command: CliktCommand): List<Pair<List<String>, CliktCommand>> =
            listOf(path to command) + command.registeredSubcommands().map { it as CliktCommand }
                .filterNot { it.hiddenFromHelp }.flatMap { walk(path + it.commandName, it) }
        return walk(emptyList(), protobenchCommands())
    }

    private val HELP = setOf("--help", "-h")

    private fun needlessWithHelp(e: CliktError): Boolean = when (e) {
        is MultiUsageError -> e.errors.all(::needlessWithHelp)
        is MissingArgument, is MissingOption, is PrintHelpMessage -> true
        else -> false
    }

    private fun message(root: CliktCommand, e: CliktError) =
        (root.getFormattedHelp(e) ?: e.message ?: e.javaClass.simpleName).lines().filter {
            it.isNotBlank()
        }.joinToString(" / ")

    private fun flatten(invocation: CommandInvocation<*>, path: List<String>): List<Pair<List<String>, CliktCommand>> =
        listOf(path to invocation.command as CliktCommand) +
            invocation.subcommandInvocations.flatMap { flatten(it, path + it.command.commandName) }

    /** The value of [name] as the command holds it once parsed (its default when not given). */
    private fun CliktCommand.option(name: String): Any? = (registeredOptions().single { name in it.names } as OptionDelegate<*>).value

    /** The text given to [name], or null when none is, or only a synopsis's placeholder (`P`, `<scenario>`): the user's value. */
    private fun CliktCommand.text(name: String) = (option(name) as String?)?.takeUnless(Synopsis::isPlaceholder)

    @Suppress("UNCHECKED_CAST")
    private fun CliktCommand.texts(name: String) = (option(name) as List<String>).filterNot(Synopsis::isPlaceholder)

    /** Whether any value the command holds is a synopsis's placeholder. */
    private fun CliktCommand.placeholders() = (
        registeredOptions().map { (it as OptionDelegate<*>).value } +
            registeredArguments().map { (it as ArgumentDelegate<*>).value }
        )
        .flatMap { if (it is List<*>) it else listOf(it) }.any { it is String && Synopsis.isPlaceholder(it) }

    private fun CliktCommand.argument(name: String): Any? = (registeredArguments().single { it.name == name } as ArgumentDelegate<*>).value

    /** What the command's own checks would refuse in the values of a parsed line, or null. */
    private fun valueProblem(path: String, command: CliktCommand): String? = try {
        if (command.registeredOptions().any { "--lang" in it.names }) {
            command.text("--lang")?.let { lang -> if (Lang.parse(lang) == null) return "--lang $lang: accepted: ${Lang.accepted}" }
        }
        when (path) {
            "run" -> runValues(command)
            "network" -> command.text("--profile")?.let(NetworkProfile::parse)
            "crossover" -> if (!command.placeholders()) CrossoverPlan.of(crossoverRequest(command))
            "export kubernetes" -> if (!command.placeholders()) ExportValidation.check(exportRequest(command))
        }
        null
    } catch (e: RuntimeException) {
        "$path: ${e.message}"
    }

    /** RunCommand's checks before anything starts: the scenario with its overrides, the link, the remote servers, the database. */
    private fun runValues(command: CliktCommand) {
        val scenario = command.argument("SCENARIO") as String
        if (!Synopsis.isPlaceholder(scenario) && !scenario.endsWith(".yaml") && !scenario.endsWith(".yml")) {
            val overrides = command.registeredParameterGroups().filterIsInstance<ScenarioOverrides>().single()
            overrides.applyTo(ScenarioCatalog.load(scenario), base = overrides.message?.let { standIns(overrides.proto, overrides.sample) })
        }
        command.text("--network")?.let(NetworkProfile::parse)
        command.texts("--gateway").forEach { if (Remote.isGatewayAddress(it)) Remote.gateway(it) else property("--gateway", it) }
        command.texts("--data-server").forEach {
            if (Remote.isDataServerAddress(it)) Remote.dataServer(it) else property("--data-server", it)
        }
        command.text("--db-url")?.let { ExternalDatabase.of(it, command.text("--db-user"), command.text("--db-schema")!!) }
    }

    private fun property(flag: String, text: String) = require(text.matches(SPRING_PROPERTY)) {
        "$flag $text: not a Spring property name=value nor a remote server's address"
    }

    private fun crossoverRequest(c: CliktCommand) = CrossoverRequest(
        c.text("--pair")!!, c.text("--axis")!!, c.text("--from")!!, c.text("--to")!!, c.option("--resolution") as Double,
        c.option("--steps") as Int, c.text("--size"), c.option("--vus") as Int?, c.text("--mode"), c.text("--figure"),
        c.option("--forks") as Int, c.option("--max-forks") as Int?, c.text("--duration")!!, c.text("--margin"),
        c.text("--message")?.let { type ->
            val base = standIns(c.text("--proto"), c.text("--sample"))
            MessageFile(
                c.text("--proto")?.let {
                    base.resolve(it).toString()
                },
                type,
                c.text("--sample")?.let { base.resolve(it).toString() },
            )
        },
        c.text("--utilisation"),
    )

    /**
     * A folder holding stand-ins for a documented line's own message files (`--proto shop.proto`,
     * `--sample order.json`), which no test has: the line's paths are taken from it, so what is
     * checked is the flags and their values, not a user's files.
     */
    private fun standIns(vararg paths: String?): java.nio.file.Path {
        val folder = java.nio.file.Files.createTempDirectory("documented-message")
        folder.toFile().deleteOnExit()
        paths.filterNotNull().forEach { path ->
            val file = folder.resolve(path)
            java.nio.file.Files.createDirectories(file.parent)
            java.nio.file.Files.writeString(file, "stand-in for $path")
            file.toFile().deleteOnExit()
        }
        return folder
    }

    private fun exportRequest(c: CliktCommand) = ExportRequest(
        c.text("--scenario")!!, c.option("--pods") as Int, c.text("--out")!!, c.option("--force") as Boolean, c.text("--namespace")!!,
        c.text("--duration")!!, c.text("--warm-up")!!, c.option("--rate") as Int?, c.text("--data-server-image")!!,
        c.text("--gateway-image")!!, c.text("--driver-image")!!, c.text("--server-cpu")!!, c.text("--server-memory")!!,
        c.text("--driver-cpu")!!, c.text("--driver-memory")!!,
    )
}
