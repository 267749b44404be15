package io.protobench.bench.scenario

import io.protobench.bench.text.Texts

/**
 * `protobench list`: each built-in scenario with its mode, conditions, forks, estimated time and description, in the catalogue's language.
 */
object ScenarioList {
    /** The table, a line each: the name left-aligned, the figures right-aligned, the description last. */
    fun lines(scenarios: List<Scenario> = ScenarioCatalog.all(), t: Texts = Texts.EN): List<String> {
        val header = listOf("list.name", "list.mode", "list.conditions", "list.forks", "list.time", "list.description").map { t(it) }
        val rows = scenarios.map { s ->
            listOf(
                s.name,
                t("mode.${s.mode.id}"),
                s.conditions.size.toString(),
                s.forksRange(),
                t("list.minutes", s.estimatedMinutesText()),
                t.description(s.description) ?: s.description,
            )
        }
        val widths = MIN_WIDTHS.indices.map { i -> maxOf(MIN_WIDTHS[i], (rows + listOf(header)).maxOf { Texts.columns(it[i]) }) }
        return (listOf(header) + rows).map { cells ->
            cells.take(MIN_WIDTHS.size).mapIndexed { i, cell ->
                val pad = " ".repeat(widths[i] - Texts.columns(cell))
                if (i == 0) cell + pad else pad + cell
            }.joinToString(" ") + "  " + cells.last()
        }
    }

    /** Columns as wide as the English header and its figures need (name, mode, conditions, forks, time). */
    private val MIN_WIDTHS = listOf(15, 8, 5, 6, 9)
}
