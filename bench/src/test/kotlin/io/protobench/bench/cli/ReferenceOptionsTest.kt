package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.parameters.options.Option
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * docs/reference.md against the options as the CLI declares them. The CLI is the source: its
 * Clikt declarations say which commands and options there are, with their defaults in the help
 * text; the reference must name every one of them in the command's section, and may write no
 * flag a command does not have. `--help`, which Clikt gives every command, is left to the
 * reference's one sentence on it ("`--help` on any of them prints its options").
 */
class ReferenceOptionsTest {
    private val wrapper = WrapperWords.ofProject()

    /** The options a user gives [command]: not hidden, not the eager --help. */
    private fun declared(command: CliktCommand): List<Option> = command.registeredOptions().filterNot { it.hidden || it.eager }

    private fun Option.allNames() = names + secondaryNames

    /** Every name a command [path] takes, with the subcommands below it (`db … --dir`), --help included. */
    private fun accepted(path: List<String>): Set<String> = DryRun.commands().filter { (p, _) -> p.take(path.size) == path }
        .flatMap { (_, c) -> c.registeredOptions().flatMap { it.allNames() } }.toSet()

    /** Every option of every command that the section documenting it does not write, with where it should be. */
    private fun undocumented(reference: ReferenceSections): List<String> =
        DryRun.commands().filter { it.first.isNotEmpty() }.flatMap { (path, command) ->
            val names = declared(command).flatMap { it.allNames() }
            val section = reference.of(path)
                ?: return@flatMap if (names.isEmpty()) emptyList() else listOf("protobench ${path.joinToString(" ")}: no section")
            // Written for the command itself, or for one above it in the same section (`protobench db start|stop|status --dir DIR`).
            val written = reference.flags(section, section.path!!)
                .filter { !it.wrapper && path.take(it.path.size) == it.path }.map { it.name }.toSet()
            names.filterNot { it in written }
                .map { "protobench ${path.joinToString(" ")} $it: not in section ${section.title} (line ${section.line})" }
        }

    /** Every flag the reference writes for a command (or the wrapper) that does not have it. */
    private fun unknown(reference: ReferenceSections): List<String> {
        val wrapperFlags = reference.flags(reference.wrapperSection, listOf(wrapper.names.single()), ownIsWrapper = true)
        val commandFlags = reference.sections.filter { it !== reference.wrapperSection }.flatMap { section ->
            section.path?.let { reference.flags(section, it) }
                ?: reference.flags(section, emptyList()).filter { it.path.isNotEmpty() || it.wrapper }
        }
        return (wrapperFlags + commandFlags).mapNotNull { flag ->
            val known = if (flag.wrapper) wrapper.options(flag.path.first()) else accepted(flag.path)
            val command = if (flag.wrapper) "the wrapper's ${flag.path.first()}" else "protobench ${flag.path.joinToString(" ")}".trim()
            if (flag.name in known) {
                null
            } else {
                "line ${flag.line}: ${flag.name} is not an option of $command (it has ${known.sorted().joinToString()})"
            }
        }.distinct()
    }

    @Test
    fun `every option of every command is in the reference section of that command`() {
        val missing = undocumented(ReferenceSections.ofProject())
        assertThat(missing)
            .describedAs("options the CLI declares that docs/reference.md does not write:\n" + missing.joinToString("\n")).isEmpty()
    }

    @Test
    fun `every flag the reference writes exists on its command`() {
        val unknown = unknown(ReferenceSections.ofProject())
        assertThat(unknown).describedAs("flags in docs/reference.md that the CLI does not have:\n" + unknown.joinToString("\n")).isEmpty()
    }

    @Test
    fun `a made-up flag and a missing option are reported`() {
        val reference =
            ReferenceSections(
                """
            ## The wrapper: `./protobench`
            `./protobench test --fast` runs fewer tests; `mvn -B install` builds.

            ### `protobench merge`
            `protobench merge OUT INPUTS...`, or `--forse`; see `run --forkz 3` and `serve api-server --data-server H:1:2`.
            In prose --quiet too.
                """.trimIndent(),
                wrapper,
            )

        assertThat(unknown(reference).map { it.substringBefore(" (") }).containsExactlyInAnyOrder(
            "line 2: --fast is not an option of the wrapper's test",
            "line 5: --forse is not an option of protobench merge",
            "line 5: --forkz is not an option of protobench run",
            "line 6: --quiet is not an option of protobench merge",
        )
        assertThat(undocumented(reference))
            .contains("protobench run: no section", "protobench merge --force: not in section `protobench merge` (line 4)")
    }

    @Test
    fun `the defaults the help states are the reference's`() {
        val reference = ReferenceSections.ofProject()
        val disagree = DryRun.commands().flatMap { (path, command) ->
            val section = reference.of(path) ?: return@flatMap emptyList()
            val context = command.resetContext()
            declared(command).mapNotNull { option ->
                val default = DEFAULT.find(option.optionHelp(context))?.groupValues?.get(1)?.trim() ?: return@mapNotNull null
                // The option's row of a table, else the whole section.
                val row = section.text.lines()
                    .firstOrNull { line -> line.startsWith("|") && option.names.any { flagIn(it, line.split("|")[1]) } }
                val where = (row ?: section.text).replace("`", "")
                if (mentions(where, default)) {
                    null
                } else {
                    "protobench ${path.joinToString(" ")} ${option.names.maxBy { it.length }}: help says default $default, " +
                        "the reference's ${if (row != null) "row" else "section"} does not"
                }
            }
        }
        assertThat(disagree).describedAs(disagree.joinToString("\n")).isEmpty()
    }

    @Test
    fun `every command has a section of the reference, linked from its contents, and every section a command`() {
        val reference = ReferenceSections.ofProject()
        val markdown = java.nio.file.Files.readString(projectRoot.resolve("docs/reference.md"))
        val paths = reference.commandSections.map { it.path!! }
        for ((path, _) in DryRun.commands().filter { it.first.isNotEmpty() }) {
            assertThat(paths).describedAs("a section for protobench ${path.joinToString(" ")}")
                .anyMatch { it.take(path.size) == path || path.take(it.size) == it }
        }
        for (path in paths) {
            assertThat(DryRun.command(path)).describedAs("the command of section protobench ${path.joinToString(" ")}").isNotNull
            assertThat(markdown).contains("(#protobench-${path.joinToString("-")})")
        }
    }

    private fun flagIn(name: String, text: String) = ReferenceSections.FLAG.findAll(text).any { it.value == name }

    /**
     * Whether [text] states [value]: as a word of its own, or matching a word of the text whose
     * `<placeholders>` stand for any text (`protobench/<module>:<version>` for an image).
     */
    private fun mentions(text: String, value: String): Boolean = Regex("(?<![\\w.])${Regex.escape(value)}(?!\\w)").containsMatchIn(text) ||
        text.split(Regex("[\\s(),;]+")).filter { '<' in it }.any { word ->
            Regex(word.split(PLACEHOLDER).joinToString("\\S+") { Regex.escape(it) }).matches(value)
        }

    private companion object {
        /** "(default 6)", "(default: random, recorded)", "(repeatable; default -Xms1g -Xmx1g)"; not "by default". */
        val DEFAULT = Regex("""(?:\(|; )default:? ([^;)]+)""")
        val PLACEHOLDER = Regex("<[^>]+>")
    }
}
