package io.protobench.bench.architecture

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * The comments of every module's `src/main` say what the code does and why, in the present
 * tense. A comment that cites a run ("quick runs o and p") or a date ("on 2026-11-28 this VM
 * ran slower") goes stale with the next run: what was measured, when and where is in
 * docs/journal/, and a comment points there by the entry's name
 * (`docs/journal/2026-11-24-fixed-rates-and-rounds.md`), whose date is no citation.
 */
class SourceCommentsTest {
    /** The repository: the nearest folder up from here whose pom.xml lists the modules (Maven runs this in bench/). */
    private val root: Path = generateSequence(Path.of("").toAbsolutePath()) { it.parent }
        .first { Files.isRegularFile(it.resolve("pom.xml")) && "<modules>" in Files.readString(it.resolve("pom.xml")) }

    @Test
    fun `no comment under a module's src main cites a run or a date`() {
        val sources = sources()
        assertThat(sources.map { root.relativize(it).getName(0).toString() }.toSet())
            .contains("contract", "data-server", "api-server", "load-driver", "bench")
        val citations = sources.flatMap { file ->
            comments(extension(file), Files.readAllLines(file)).mapNotNull { (line, text) ->
                citation(text)?.let { "${root.relativize(file)}:$line: [$it] $text" }
            }
        }
        assertThat(citations)
            .describedAs("comments that cite a run or a date: say what and why, and point to docs/journal/ for the history")
            .isEmpty()
    }

    @Test
    fun `the patterns catch citations of runs and dates and leave ordinary prose alone`() {
        val cited = listOf(
            "2,200 requests a second there (quick runs o and p).",
            "Run b's whole-pair comparisons needed 3-4 more forks",
            "0.23 ms in projectB run f, 0.20 in the next",
            "(docs/results, grpc-executor runs a and b): with `direct`",
            "9 of 12 soaks of the projectB runs ran their cap",
            "a seeds run took 46 min",
            "not (on 2026-11-28 this VM ran slower)",
            "see docs/results/2026-11-24-quick-2core-o/README.md",
        )
        val ordinary = listOf(
            "Which threads run a gRPC call on the data-server",
            "Runs a mix at [load], window after window",
            "seed 003's tools, each run a process",
            "forks per run n (each run with n, up to [maxForks])",
            "Every comparison that at least one of the two runs decided, in run A's order",
            "Why 3 rounds: docs/journal/2026-11-24-fixed-rates-and-rounds.md",
            "2026-01-01T00:00:00Z, in epoch milliseconds",
            "A direct run's plan: the data-server's HTTP side",
            "The time part of a results folder's name: \"20261122-062349\" (UTC).",
        )
        assertThat(cited).allSatisfy { assertThat(citation(it)).describedAs(it).isNotNull() }
        assertThat(ordinary).allSatisfy { assertThat(citation(it)).describedAs(it).isNull() }
    }

    @Test
    fun `comments are told from code and strings`() {
        val kotlin = listOf(
            "/**",
            " * A block comment's every line.",
            " */",
            "val day = \"2026-11-28\" // a trailing comment",
            "val url = \"http://host // not a comment\"",
            "// a line comment",
        )
        assertThat(comments("kt", kotlin)).containsExactly(
            1 to "/**",
            2 to "* A block comment's every line.",
            3 to "*/",
            4 to "// a trailing comment",
            6 to "// a line comment",
        )
        val yaml = listOf("# a comment", "description: \"run #1\"", "sizes: [1kb] # trailing")
        assertThat(comments("yaml", yaml)).containsExactly(1 to "# a comment", 3 to "# trailing")
        assertThat(comments("properties", listOf("# a comment", "! another", "key=value # part of the value")))
            .containsExactly(1 to "# a comment", 2 to "! another")
    }

    /** Every Kotlin, Java, YAML and properties file under `<module>/src/main`, in path order. */
    private fun sources(): List<Path> = Files.list(root).use { folders ->
        folders.map { it.resolve("src/main") }.filter { Files.isDirectory(it) }.sorted().toList()
    }
        .flatMap { main ->
            Files.walk(main).use { files -> files.filter { Files.isRegularFile(it) && extension(it) in CODE + HASH }.sorted().toList() }
        }

    companion object {
        private val CODE = setOf("kt", "java")
        private val HASH = setOf("yaml", "yml", "properties")

        /**
         * What cites a run or a date, by name. A run is cited by its letter ("runs o and p",
         * "run e,", "Run b's": the letter ends a phrase or is joined by "and") or as a run of a
         * built-in scenario ("quick run", "projectB runs"). A date in a journal entry's name is
         * a pointer, and a timestamp (`2026-01-01T00:00:00Z`) is a value, not a date cited.
         */
        private val CITATIONS: Map<String, Regex> = mapOf(
            "date" to Regex("""(?<!journal/)\b20\d{2}-\d{2}-\d{2}\b"""),
            "run by its letter" to Regex("""\b[Rr]uns? [a-z]\b(?= and [a-z]\b|[,.;:)'’])"""),
            "run of a scenario" to Regex("""\b(?:quick|seeds|project[A-D])(?:-[\w-]+)? runs?\b"""),
            "this VM" to Regex("""\bthis VM\b"""),
        )

        /** The name of the first pattern [text] matches, or null. */
        private fun citation(text: String): String? = CITATIONS.entries.firstOrNull { it.value.containsMatchIn(text) }?.key

        private fun extension(file: Path): String = file.fileName.toString().substringAfterLast('.', "")

        /**
         * The comments of a file's [lines], each with its line number (from 1) and trimmed:
         * `//` and `/* … */` (every line of a block) in Kotlin and Java, `#` in YAML and
         * properties (and `!` in properties). A trailing comment counts from its marker
         * when the marker stands outside a string; properties have none.
         */
        private fun comments(extension: String, lines: List<String>): List<Pair<Int, String>> {
            val found = mutableListOf<Pair<Int, String>>()
            var inBlock = false
            lines.forEachIndexed { index, line ->
                val text = line.trim()
                val comment = when {
                    extension in HASH -> when {
                        text.startsWith("#") || (extension == "properties" && text.startsWith("!")) -> text
                        extension == "properties" -> null
                        else -> trailing(line, " #")
                    }

                    inBlock -> {
                        inBlock = "*/" !in text
                        text
                    }

                    text.startsWith("//") -> text

                    text.startsWith("/*") -> {
                        inBlock = "*/" !in text.substring(2)
                        text
                    }

                    else -> trailing(line, " // ")
                }
                if (comment != null) found += index + 1 to comment
            }
            return found
        }

        /** [line] from [marker] on, when the marker is outside a string (an even number of `"` before it). */
        private fun trailing(line: String, marker: String): String? {
            val at = line.indexOf(marker)
            return if (at >= 0 && line.take(at).count { it == '"' } % 2 == 0) line.substring(at).trim() else null
        }
    }
}
