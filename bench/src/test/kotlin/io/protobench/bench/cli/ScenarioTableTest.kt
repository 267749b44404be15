package io.protobench.bench.cli

import com.github.ajalt.clikt.testing.test
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/**
 * docs/reference.md's "Built-in scenarios" table and `protobench list` against the catalogue
 * they both describe. The source is the scenario files: each one's name, mode, conditions,
 * forks and `description`, which `protobench list` prints as it is; the reference's table must
 * say the same, row by row, and `list` print them in the table's order of columns.
 */
class ScenarioTableTest {
    private val scenarios = ScenarioCatalog.all()

    private val table: List<List<String>> = run {
        val section = ReferenceSections.ofProject().sections.single { it.title == "Built-in scenarios" }

        // Cells split at a `|` that is not written `\|`; backticks around a name removed.
        fun cells(line: String) = line.trim().removePrefix("|").removeSuffix("|").split(Regex("""(?<!\\)\|"""))
            .map { it.trim().replace("\\|", "|").removeSurrounding("`") }
        section.text.lines().filter { it.startsWith("|") }.map(::cells)
    }

    /** The table's column names, without their remarks in brackets. */
    private val header = table.first().map { it.substringBefore(" (") }

    /** The table's rows, as the table's own lines would be written again. */
    private val rows = table.drop(2).map { cells -> "| `${cells.first()}` | " + cells.drop(1).joinToString(" | ") + " |" }

    /** Forks as the table writes them: "5", or the fewest a condition gets and the most it may get "3–5" (quick: "4–5"). */
    private fun forks(s: Scenario) = s.forksRange().split("-").distinct().joinToString("–")

    /** The row the reference should have for [s], in the table's own form. */
    private fun expectedRow(s: Scenario) = "| `${s.name}` | ${s.mode.id} | ${s.conditions.size} | ${forks(s)} | ${s.description} |"

    @Test
    fun `the reference's table of built-in scenarios is the catalogue's, row by row`() {
        assertThat(header).containsExactly("name", "mode", "conditions", "forks", "description")
        val expected = scenarios.map(::expectedRow)
        assertThat(rows).describedAs("docs/reference.md, Built-in scenarios, should read:\n" + expected.joinToString("\n"))
            .containsExactlyElementsOf(expected)
    }

    @Test
    fun `protobench list prints each scenario's columns in the table's order, with its estimated time before the description`() {
        val result = protobenchCommands().test(listOf("list"))
        assertThat(result.statusCode).isEqualTo(0)
        val lines = result.stdout.lines().filter { it.isNotBlank() }
        for (s in scenarios) {
            // Forks as a range even where both ends are one number ("5-5"), where the table writes the number once.
            val columns = listOf(s.name, s.mode.id, "${s.conditions.size}", s.forksRange())
            val shape = Regex(columns.joinToString("""\s+""") { Regex.escape(it) } + """\s+.*\S\s+""" + Regex.escape(s.description))
            assertThat(lines).describedAs("a line of `protobench list` for ${s.name}").anyMatch { shape.matches(it) }
        }
        assertThat(lines).describedAs("a header and one line per scenario").hasSize(scenarios.size + 1)
    }
}
