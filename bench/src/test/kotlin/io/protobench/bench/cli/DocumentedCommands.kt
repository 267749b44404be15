package io.protobench.bench.cli

import java.nio.file.Files
import java.nio.file.Path

/** The project checkout: surefire runs in bench/. */
internal val projectRoot: Path = Path.of("").toAbsolutePath().parent

/**
 * One command line as a document shows it: a line of a fenced code block, or an inline
 * code span, that starts with `./protobench` or `protobench`. [words] are what follows the
 * program's name, a shell comment left out; [inline] tells a span in prose from a block line.
 */
data class DocCommand(val source: String, val line: Int, val text: String, val words: List<String>, val inline: Boolean) {
    override fun toString() = "$source:$line: $text"
}

/** Finds the command lines of Markdown documents: [DocCommand]s, in the order they appear. */
object DocumentedCommands {
    private val PROGRAM = Regex("""^(\./)?protobench(\s|$)""")
    internal val FENCE = Regex("""^\s*```""")

    /** An inline code span; it may run over line breaks, not over a blank line. */
    internal val SPAN = Regex("""`((?:[^`\n]|\n(?![ \t]*\n))+)`""")

    /** A shell comment: `#` after white space, to the end of the line. */
    private val COMMENT = Regex("""\s+#.*$""")

    fun inFile(relative: String): List<DocCommand> = inMarkdown(relative, Files.readString(projectRoot.resolve(relative)))

    fun inMarkdown(source: String, markdown: String): List<DocCommand> {
        val lines = markdown.lines()
        val found = mutableListOf<DocCommand>()
        // Prose keeps its line numbers: a fenced line is blanked out of it, so no span is found inside a block.
        val prose = ArrayList<String>(lines.size)
        var fenced = false
        lines.forEachIndexed { index, line ->
            when {
                FENCE.containsMatchIn(line) -> {
                    fenced = !fenced
                    prose += ""
                }

                fenced -> {
                    prose += ""
                    val command = line.trim().replace(COMMENT, "")
                    if (PROGRAM.containsMatchIn(command)) found += command(source, index + 1, command, inline = false)
                }

                else -> prose += line
            }
        }
        val text = prose.joinToString("\n")
        SPAN.findAll(text).forEach { span ->
            // In a table a `|` inside code is written `\|`.
            val command = span.groupValues[1].replace("\\|", "|").split(Regex("\\s+")).filter { it.isNotEmpty() }.joinToString(" ")
            if (PROGRAM.containsMatchIn(command)) {
                found += command(source, text.substring(0, span.range.first).count { it == '\n' } + 1, command, inline = true)
            }
        }
        return found.sortedBy { it.line }
    }

    private fun command(source: String, line: Int, text: String, inline: Boolean) =
        DocCommand(source, line, text, shellWords(text).drop(1), inline)

    /** [text] split as a shell splits it: on white space, with '…' and "…" kept together (no escapes or expansions). */
    fun shellWords(text: String): List<String> {
        val words = mutableListOf<String>()
        val word = StringBuilder()
        var quote: Char? = null
        var started = false
        for (c in text) {
            when {
                quote != null && c == quote -> quote = null

                quote != null -> word.append(c)

                c == '\'' || c == '"' -> {
                    quote = c
                    started = true
                }

                c.isWhitespace() -> if (started) {
                    words += word.toString()
                    word.clear()
                    started = false
                }

                else -> {
                    word.append(c)
                    started = true
                }
            }
        }
        if (started) words += word.toString()
        return words
    }
}

/**
 * A usage synopsis as the reference writes one (`protobench report RUN_DIR [--lang en|ko]`)
 * turned into command lines to parse: every optional `[…]` part given once and left out
 * once, every alternative `a|b` taken in turn, `X...` given once, and `[options]` (the
 * options the section's table lists, checked by [ReferenceOptionsTest]) left out. A
 * metavariable (`RUN_DIR`, `<scenario>`, `results/<run>`) stands for the user's value and is
 * passed as it is written, but for a number ([NUMBER]), where a word would not be one.
 */
object Synopsis {
    /** The metavariables a synopsis writes for a number. */
    private val NUMBER = setOf("N")
    private const val NUMBER_SAMPLE = "1"

    /** An upper-case placeholder such as RUN_DIR, P, INPUTS or HOST:HTTP:GRPC: a value for the user to give. */
    private val METAVARIABLE = Regex("""[A-Z][A-Z_]*(:[A-Z][A-Z_]*)*""")

    /** A placeholder in angle brackets, alone or inside a word: `<scenario>`, `results/<run>`. */
    private val PLACEHOLDER = Regex("""<[^<>\s]+>""")

    fun isPlaceholder(word: String) = METAVARIABLE.matches(word) || PLACEHOLDER.containsMatchIn(word)

    fun isSynopsis(words: List<String>) = words.any { '[' in it || '|' in it || it.endsWith("...") || isPlaceholder(it) }

    fun forms(words: List<String>): List<List<String>> = listOf(true, false).flatMap { withOptional ->
        alternatives(optional(words, withOptional))
    }.distinct()

    /** [words] with every bracketed part (which may span words) kept without its brackets, or dropped. */
    private fun optional(words: List<String>, keep: Boolean): List<String> {
        val kept = mutableListOf<String>()
        var depth = 0
        for (word in words) {
            val opens = word.count { it == '[' }
            val inside = depth + opens > 0
            depth += opens - word.count { it == ']' }
            val bare = word.replace("[", "").replace("]", "")
            if (bare == "options" || bare.isEmpty()) continue
            if (!inside || keep) kept += bare
        }
        return kept
    }

    /** One line per choice of alternatives (`start|stop|status`), with `X...` once and numbers for number metavariables. */
    private fun alternatives(words: List<String>): List<List<String>> = words.fold(listOf(emptyList())) { lines, word ->
        val choices = word.removeSuffix("...").split('|').map { if (it in NUMBER) NUMBER_SAMPLE else it }
        lines.flatMap { line -> choices.map { line + it } }
    }
}

/**
 * The words the wrapper script `protobench` takes itself instead of handing them to the CLI:
 * read from the script, `if [[ "${1:-}" == "test" ]]` and the `case` labels (`--all)`) in
 * that branch. Anything else after them goes to Maven, which the reference documents as
 * such ("Extra arguments go to Maven"): a documented line may give only `-D` properties there.
 */
class WrapperWords(script: String) {
    private val commands: Map<String, Set<String>> =
        Regex("""(?ms)^if \[\[ "\$\{1:-}" == "([a-z]+)" ]]; then$(.*?)^fi$""").findAll(script).associate { branch ->
            branch.groupValues[1] to Regex("""(?m)^\s*(--?[a-z][a-z-]*)\)""").findAll(branch.groupValues[2])
                .map { it.groupValues[1] }.toSet()
        }

    val names: Set<String> get() = commands.keys

    fun options(command: String): Set<String> = commands[command].orEmpty()

    /** What is wrong with [words] (after `./protobench`) for the wrapper, or null when it takes them. */
    fun problem(words: List<String>): String? {
        val options = commands[words.firstOrNull()]
            ?: return "${words.firstOrNull()} is not a command of the wrapper (${names.joinToString()})"
        val rest = words.drop(1)
        val first = rest.firstOrNull() ?: return null
        val toMaven = if (first in options) rest.drop(1) else rest
        val unknown = toMaven.filterNot { it.startsWith("-D") }
        return if (unknown.isEmpty()) {
            null
        } else {
            "${unknown.joinToString(" ")}: the wrapper's `${words.first()}` takes ${options.joinToString(" or ")} " +
                "and hands the rest to Maven, " +
                "which would not take this; accepted there: -Dname=value"
        }
    }

    companion object {
        fun ofProject() = WrapperWords(Files.readString(projectRoot.resolve("protobench")))
    }
}
