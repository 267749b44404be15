package io.protobench.bench.cli

import com.github.ajalt.clikt.testing.test
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * Every command line README.md and docs/ show runs as written: parsed by the CLI's
 * own command tree up to where the command would start ([DryRun]), its values checked by the
 * parsers the command uses. A line of the wrapper's own (`./protobench test …`) is checked
 * against the words the wrapper script takes ([WrapperWords]), and a command only named in
 * prose (`protobench compare`) by its `--help`, which must be that command's. A synopsis
 * (`protobench report RUN_DIR [--lang en|ko]`) is parsed in each of its forms ([Synopsis]).
 * Nothing is left out: a line that cannot be checked fails.
 */
class DocumentedCommandsTest {
    /** The README and the design documents; not docs/results or docs/journal, records of their day whose commands are history. */
    private val documents = listOf("README.md") + java.nio.file.Files.list(projectRoot.resolve("docs")).use { files ->
        files.map { it.fileName.toString() }.filter { it.endsWith(".md") }.sorted().map { "docs/$it" }.toList()
    }
    private val wrapper = WrapperWords.ofProject()

    /** What is wrong with [command] as a user would type it, or null. */
    private fun problem(command: DocCommand): String? {
        val words = command.words
        if (words.firstOrNull() in wrapper.names) return wrapper.problem(words)
        if (!Synopsis.isSynopsis(words)) return if (named(command, words)) namedProblem(words) else DryRun.problem(words)
        return Synopsis.forms(words).firstNotNullOfOrNull { form ->
            (if (named(command, form)) namedProblem(form) else DryRun.problem(form))
                ?.let { "as `protobench ${form.joinToString(" ")}`: $it" }
        }
    }

    /** Whether prose only names a command (`protobench compare`, `protobench db stop|status`) rather than giving a line to run. */
    private fun named(command: DocCommand, words: List<String>) = command.inline && DryRun.pathLength(words) == words.size

    /** A command named in prose: its --help must be its own, not the help of a parent that did not know the name. */
    private fun namedProblem(path: List<String>): String? {
        val usage = DryRun.help(path).lineSequence().firstOrNull { it.startsWith("Usage:") }
        val expected = (listOf("Usage: protobench") + path).joinToString(" ")
        return if (usage != null && (usage == expected || usage.startsWith("$expected "))) {
            null
        } else {
            "`protobench ${path.joinToString(" ")} --help` prints ${usage ?: "no usage line"}"
        }
    }

    private fun problems(commands: List<DocCommand>) = commands.mapNotNull { command -> problem(command)?.let { "$command\n    $it" } }

    @Test
    fun `every command line in the README and the docs runs as written`() {
        val commands = documents.flatMap(DocumentedCommands::inFile)
        assertThat(commands.map { it.source }).describedAs("documents with command lines").contains("README.md", "docs/reference.md")
        assertThat(commands).describedAs("command lines found").anyMatch { !it.inline }.anyMatch { it.inline }
        val problems = problems(commands)
        assertThat(problems).describedAs(
            "${problems.size} of ${commands.size} documented command lines do not run as written:\n" +
                problems.joinToString("\n"),
        ).isEmpty()
    }

    @Test
    fun `a documented line with an unknown flag, subcommand or value is reported, a right one is not`() {
        val markdown = """
            ```bash
            ./protobench run quick --forkz 3     # a flag run does not have
            ./protobench run quick --forks 8     # right
            ./protobench report                  # RUN_DIR missing
            ./protobench test --fast             # not a word of the wrapper
            ./protobench test --all -Dtest=ReportTest   # right: the wrapper's --all, then a property for Maven
            ./protobench report --help           # right: help needs no RUN_DIR
            ./protobench runn --help             # a subcommand there is not
            ./protobench run quick --forkz 3 -h  # help does not hide a flag run does not have
            ```
            Then `protobench exportt kubernetes --scenario quick --pods 2 --out k8s`, `protobench export kubernete`, `protobench crossover
            --pair gRPC/Unary,HTTP/Binary --axis sise --from 10kb --to 2mb`, `protobench run quik`, `protobench report RUN_DIR [--langg en|ko]`,
            `protobench resume RUN_DIR [--lang en|kr]`
            and `protobench db start|stop|state --dir DIR`; right: `protobench db start|stop|status --dir DIR`.
        """.trimIndent()
        val commands = DocumentedCommands.inMarkdown("made-up.md", markdown)
        val reported = commands.associate { it.text to problem(it) }

        assertThat(reported.filterValues { it == null }.keys).containsExactlyInAnyOrder(
            "./protobench run quick --forks 8",
            "./protobench test --all -Dtest=ReportTest",
            "./protobench report --help",
            "protobench db start|stop|status --dir DIR",
        )
        assertThat(reported["./protobench runn --help"]).contains("no such subcommand", "runn")
        assertThat(reported["./protobench run quick --forkz 3 -h"]).contains("--forkz")
        assertThat(reported["./protobench run quick --forkz 3"]).contains("--forkz")
        assertThat(reported["./protobench report"]).contains("missing argument <run_dir>")
        assertThat(reported["./protobench test --fast"]).contains("--fast")
        // Clikt names what the top level does not know here: the flags of the subcommand it did not find.
        assertThat(reported["protobench exportt kubernetes --scenario quick --pods 2 --out k8s"]).contains("no such option --scenario")
        assertThat(reported["protobench export kubernete"]).contains("no such subcommand", "kubernete")
        assertThat(reported["protobench crossover --pair gRPC/Unary,HTTP/Binary --axis sise --from 10kb --to 2mb"]).contains("sise")
        assertThat(reported["protobench run quik"]).contains("quik")
        assertThat(reported["protobench report RUN_DIR [--langg en|ko]"]).contains("--langg")
        assertThat(reported["protobench db start|stop|state --dir DIR"]).contains("state")
        assertThat(reported["protobench resume RUN_DIR [--lang en|kr]"]).contains("--lang kr")
    }

    @Test
    fun `--help alone would not prove a flag exists, the dry parse does`() {
        // Clikt prints help for --help before it reports anything else on the line: why DryRun parses the line as written.
        val line = listOf("run", "quick", "--forkz", "3")
        assertThat(DryRun.help(line)).startsWith("Usage: protobench run ").doesNotContain("--forkz")
        assertThat(DryRun.problem(line)).contains("no such option", "--forkz")
        // The exit code the reference gives a bad command line.
        assertThat(protobenchCommands().test(line).statusCode).isEqualTo(1)
        assertThat(DryRun.help(listOf("runn"))).startsWith("Usage: protobench [")
        assertThat(DryRun.problem(listOf("runn"))).contains("no such subcommand", "runn")
    }

    @Test
    fun `command lines are found in code blocks and inline code, without shell comments or table escapes`() {
        val markdown = """
            Run `./protobench run quick
            --lang ko` or `protobench.data.grpc.port`, or `mvn -B install`.

            | option | meaning |
            |---|---|
            | `protobench network --profile rtt=40ms` `--mode cost\|capacity` | `protobench db start\|stop --dir D` |

            ```
            # ./protobench run commented-out
              ./protobench list   # the scenarios
            protobench serve data-server --property 'a=b c'
            ```
        """.trimIndent()
        val found = DocumentedCommands.inMarkdown("t.md", markdown)

        assertThat(found.map { Triple(it.line, it.inline, it.words) }).containsExactly(
            Triple(1, true, listOf("run", "quick", "--lang", "ko")),
            Triple(6, true, listOf("network", "--profile", "rtt=40ms")),
            Triple(6, true, listOf("db", "start|stop", "--dir", "D")),
            Triple(10, false, listOf("list")),
            Triple(11, false, listOf("serve", "data-server", "--property", "a=b c")),
        )
    }

    @Test
    fun `a synopsis is parsed with and without its optional parts, each alternative in turn`() {
        val forms = Synopsis.forms(DocumentedCommands.shellWords("merge OUT INPUTS... [--force] [options] [--lang en|ko]"))

        assertThat(forms).containsExactlyInAnyOrder(
            listOf("merge", "OUT", "INPUTS", "--force", "--lang", "en"),
            listOf("merge", "OUT", "INPUTS", "--force", "--lang", "ko"),
            listOf("merge", "OUT", "INPUTS"),
        )
    }

    @Test
    fun `every command prints its own help`() {
        for ((path, _) in DryRun.commands()) {
            assertThat(namedProblem(path)).describedAs("protobench ${path.joinToString(" ")} --help").isNull()
        }
    }
}
