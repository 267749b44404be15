package io.protobench.bench.cli

import com.github.ajalt.clikt.parameters.groups.OptionGroup
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.split
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.MessageFile
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioFile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Violation
import io.protobench.bench.scenario.toFile
import io.protobench.bench.text.Texts
import io.protobench.contract.message.ItemCount
import java.nio.file.Path

/** Command-line flags that replace a scenario's fields; the result is validated like a file. */
class ScenarioOverrides : OptionGroup("Scenario overrides") {
    val mode by option(
        "--mode",
        help = "cost (fixed rate at a share of capacity; default) or capacity (closed model, saturated; " +
            "the scenario's fixed costRates are dropped)",
    )
    val duration by option("--duration", help = "Measured time per arm per fork, e.g. 5s")
    val forks by option(
        "--forks",
        "--repetitions",
        "-r",
        help = "Forks (fresh JVM pairs) every condition gets at least " +
            "(the scenario's fewer forks for some targets, forksByTarget, are dropped)",
    ).int()
    val maxForks by option("--max-forks", help = "Most forks a condition gets while its comparisons are undecided").int()
    val budget by option("--budget", help = "Wall-time budget for adding forks where comparisons are undecided, e.g. 40m")
    val margin by option("--margin", help = "Practical margin of equivalence, e.g. 5%")
    val protocols by option("--protocols", help = "Comma-separated protocols, e.g. gRPC/Unary,HTTP/Binary").split(",")
    val noiseControl by option("--noise-control", help = "Add an A/A control per condition (the first protocol measured twice)").flag()
    val message by option(
        "--message",
        help = "Your own message type, e.g. shop.Order: measured (with --proto and --sample) instead of the scenario's payloads",
    )
    val proto by option("--proto", help = MessageCommand.PROTO_HELP)
    val sample by option("--sample", help = "One --message as JSON (protobuf's JSON mapping), e.g. order.json")
    val protoPath by option("-I", "--proto-path", help = "A folder the .proto's imports are relative to (repeatable)").multiple()
    val counts by option("--counts", help = "Items of --message per answer, one condition each, e.g. 1,10,100 (default 1,100)")
        .split(",")

    /**
     * [scenario] with the flags given, validated like a file for servers with [serverHeapBytes] of heap;
     * the message's files relative to [base] when given (else to the working folder, as typed).
     */
    fun applyTo(scenario: Scenario, serverHeapBytes: Long = ServerHeap.DEFAULT_BYTES, base: Path? = null): Scenario {
        val file = scenario.toFile()
        val changedForks = forks ?: file.forks
        // Capacity mode saturates: a scenario's fixed cost-mode rates (quick's) go when --mode capacity replaces its mode.
        val toCapacity = mode?.let { Mode.parse(it) } == Mode.CAPACITY
        val changed = file.copy(
            mode = mode ?: file.mode,
            costRates = if (toCapacity) null else file.costRates,
            duration = duration ?: file.duration,
            forks = changedForks,
            // --forks gives every condition its number: one a target had of its own could exceed it.
            forksByTarget = if (forks != null) null else file.forksByTarget,
            // Raising the minimum raises the maximum with it unless that is given too.
            maxForks = maxForks ?: file.maxForks?.let { maxOf(it, changedForks ?: it) },
            budget = budget ?: file.budget,
            margin = margin ?: file.margin,
            protocols = protocols ?: file.protocols,
            noiseControl = noiseControl || (file.noiseControl ?: false),
        ).let { withMessage(it, base, scenario.name) }
        return try {
            ScenarioParser.validate(changed, "command line (scenario ${scenario.name})", serverHeapBytes = serverHeapBytes)
        } catch (e: InvalidScenario) {
            throw InvalidScenario(e.violations.map { v -> flagOf(v.field)?.let { v.copy(field = it) } ?: v })
        }
    }

    /**
     * [file] measuring the message the flags name instead of its own workload: the fields tied to
     * that workload's targets (fixed rates, forks and rounds by target, seed phases, seed tools) go.
     */
    private fun withMessage(file: ScenarioFile, base: Path?, design: String): ScenarioFile {
        val type = message
        if (type == null) {
            val stray = listOfNotNull(proto?.let { "--proto" }, sample?.let { "--sample" }, counts?.let { "--counts" }) +
                (if (protoPath.isEmpty()) emptyList() else listOf("-I"))
            if (stray.isNotEmpty()) {
                refuse(
                    stray.joinToString("/"),
                    stray.joinToString(" "),
                    "${stray.joinToString(" and ")} with --message",
                )
            }
            return file
        }
        val within = { path: String -> base?.resolve(path)?.toString() ?: path }
        val numbers = counts?.map { text ->
            text.trim().toIntOrNull() ?: refuse("--counts", text, ItemCount.ACCEPTED + ", comma-separated")
        }
        return file.copy(
            description = Texts.EN("scenario.message-description", type, (numbers ?: ScenarioParser.DEFAULT_COUNTS).joinToString(), design),
            sizes = null,
            complexities = null,
            members = null,
            include = null,
            seedPhase = null,
            message = MessageFile(proto?.let(within), type, sample?.let(within), protoPath.map(within).ifEmpty { null }, numbers),
            costRates = null,
            forksByTarget = null,
            roundsByTarget = null,
            seedTools = null,
        )
    }

    private fun refuse(flag: String, value: String, accepted: String): Nothing =
        throw InvalidScenario(listOf(Violation("command line", flag, value, accepted)))

    /**
     * The flag, with its aliases, that gave the scenario field [field] (or an element of it,
     * `protocols[1]`), when it was given on the command line: a refusal then names what the
     * user typed, not a field of a file they never saw.
     */
    private fun flagOf(field: String): String? {
        if (message != null) {
            MESSAGE_FLAGS.entries.firstOrNull { field == it.key || field.startsWith("${it.key}[") }?.let { (key, flag) ->
                return flag + field.removePrefix(key)
            }
        }
        val given = mapOf(
            "mode" to (mode != null),
            "duration" to (duration != null),
            "forks" to (forks != null),
            "maxForks" to (maxForks != null || forks != null),
            "budget" to (budget != null),
            "margin" to (margin != null),
            "protocols" to (protocols != null),
        )
        val key = given.keys.firstOrNull { field == it || field.startsWith("$it[") } ?: return null
        if (given[key] != true) return null
        val flags = FLAG_NAMES.getValue(key)
        // maxForks follows --forks unless --max-forks was given: the flag the user typed is then --forks.
        val named = if (key == "maxForks" && maxForks == null) FLAG_NAMES.getValue("forks") else flags
        return named + field.removePrefix(key)
    }

    private companion object {
        /** Each overridable field's flag and its aliases, as --help lists them. */
        val FLAG_NAMES = mapOf(
            "mode" to "--mode",
            "duration" to "--duration",
            "forks" to "--forks/--repetitions/-r",
            "maxForks" to "--max-forks",
            "budget" to "--budget",
            "margin" to "--margin",
            "protocols" to "--protocols",
        )

        /** The message's fields and the flags that give them. */
        val MESSAGE_FLAGS = mapOf(
            "message.proto" to "--proto",
            "message.type" to "--message",
            "message.sample" to "--sample",
            "message.protoPath" to "-I/--proto-path",
            "message.counts" to "--counts",
        )
    }

    fun given(): Map<String, String> = listOfNotNull(
        mode?.let { "mode" to it },
        duration?.let { "duration" to it },
        forks?.let { "forks" to it.toString() },
        maxForks?.let { "maxForks" to it.toString() },
        budget?.let { "budget" to it },
        margin?.let { "margin" to it },
        protocols?.let { "protocols" to it.joinToString(",") },
        if (noiseControl) "noiseControl" to "true" else null,
        message?.let { "message" to it },
        proto?.let { "proto" to it },
        sample?.let { "sample" to it },
        protoPath.takeIf { it.isNotEmpty() }?.let { "protoPath" to it.joinToString(",") },
        counts?.let { "counts" to it.joinToString(",") },
    ).toMap()
}
