package io.protobench.bench.cli

import java.nio.file.Files

/** A part of docs/reference.md under a heading, its first line's number, and the command it documents if any. */
data class Section(val title: String, val line: Int, val text: String) {
    /** The subcommand path of a `### \`protobench export kubernetes\`` heading, else null. */
    val path: List<String>? = COMMAND.matchEntire(title)?.groupValues?.get(1)?.split(' ')

    private companion object {
        val COMMAND = Regex("""`protobench ([a-z -]+)`""")
    }
}

/** A flag a section writes, with the command it is written for: [path] in the CLI's tree, or the wrapper's when [wrapper]. */
data class WrittenFlag(val name: String, val path: List<String>, val wrapper: Boolean, val line: Int)

/**
 * docs/reference.md cut at its headings, and the flags each part writes. A flag belongs to the
 * command the code around it names: in `run --data-server HOST:HTTP:GRPC` or a line
 * `./protobench run quick --lang ko` to run, in a bare `--force` or in prose to the section's own
 * command; in code that starts with another program (`mvn -B install`, `curl -s`) to none.
 */
class ReferenceSections(private val markdown: String, private val wrapper: WrapperWords) {
    val sections: List<Section> = markdown.lines().let { lines ->
        val starts = lines.indices.filter { HEADING.containsMatchIn(lines[it]) }
        starts.mapIndexed { i, start ->
            val end = starts.getOrElse(i + 1) { lines.size }
            Section(lines[start].replace(HEADING, ""), start + 1, lines.subList(start, end).joinToString("\n"))
        }
    }

    /** The section of [path]'s own command, or of the nearest command above it (`db start` is documented under `db`). */
    fun of(path: List<String>): Section? =
        (path.size downTo 1).firstNotNullOfOrNull { n -> sections.firstOrNull { it.path == path.take(n) } }

    val commandSections get() = sections.filter { it.path != null }

    /** The wrapper's section, `## The wrapper: \`./protobench\``. */
    val wrapperSection get() = sections.single { it.title.startsWith("The wrapper") }

    /** Every flag [section] writes; those in prose and bare code belong to [own] (the wrapper's own words when [ownIsWrapper]). */
    fun flags(section: Section, own: List<String>, ownIsWrapper: Boolean = false): List<WrittenFlag> {
        val found = mutableListOf<WrittenFlag>()
        val lines = section.text.lines()
        var fenced = false
        val prose = lines.mapIndexed { index, line ->
            if (DocumentedCommands.FENCE.containsMatchIn(line)) {
                fenced = !fenced
                ""
            } else if (fenced) {
                found += inCode(line, section.line + index, own, ownIsWrapper)
                ""
            } else {
                line
            }
        }.joinToString("\n")
        val spans = DocumentedCommands.SPAN.findAll(prose).toList()
        spans.forEach { span ->
            found += inCode(
                span.groupValues[1].replace("\\|", "|"),
                section.line + prose.substring(0, span.range.first).count { it == '\n' },
                own,
                ownIsWrapper,
            )
        }
        // Prose without its code spans, line breaks kept so that line numbers hold.
        val outside = DocumentedCommands.SPAN.replace(prose) { "\n".repeat(it.value.count { c -> c == '\n' }) }
        outside.lines().forEachIndexed { index, line ->
            FLAG.findAll(line).forEach { found += WrittenFlag(it.value, own, ownIsWrapper, section.line + index) }
        }
        return found
    }

    /** The flags of one line of code or code span, for the command it names. */
    private fun inCode(code: String, line: Int, own: List<String>, ownIsWrapper: Boolean): List<WrittenFlag> {
        val words = code.trim().split(Regex("\\s+")).filter { it.isNotEmpty() }
        val first = words.firstOrNull() ?: return emptyList()
        val afterProgram = if (PROGRAM.matches(first)) words.drop(1) else words
        val (path, isWrapper) = when {
            afterProgram.firstOrNull() in wrapper.names -> afterProgram.take(1) to true
            PROGRAM.matches(first) || DryRun.pathLength(afterProgram) > 0 -> afterProgram.take(DryRun.pathLength(afterProgram)) to false
            first.startsWith("-") -> own to ownIsWrapper
            else -> return emptyList() // another program's flags, or none
        }
        return FLAG.findAll(code).map { WrittenFlag(it.value, path, isWrapper, line) }.toList()
    }

    companion object {
        private val HEADING = Regex("""^#{1,3} """)
        private val PROGRAM = Regex("""(\./)?protobench""")

        /** `--long-name` or `-x`, not a Spring argument (`--server.port=…`), a JVM option (`-Xmx1g`) or part of a word. */
        val FLAG = Regex("""(?<![\w./-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*|-[a-zA-Z])(?![\w.-])""")

        fun ofProject() = ReferenceSections(Files.readString(projectRoot.resolve("docs/reference.md")), WrapperWords.ofProject())
    }
}
