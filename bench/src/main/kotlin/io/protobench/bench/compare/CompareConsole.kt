package io.protobench.bench.compare

import io.protobench.bench.text.Texts
import java.nio.file.Path

/** What `protobench compare` prints, in the catalogue's language: a refusal (for stderr), or where the comparison went and its summary. */
object CompareConsole {
    /** Why runs [runA] and [runB] are not compared: no shared condition, or the machine and settings that differ. */
    fun refusal(refused: CompareResult.Refused, runA: String, runB: String, t: Texts = Texts.EN): List<String> = buildList {
        if (refused.noSharedCondition) {
            fun conditions(list: List<String>?) = list.orEmpty().joinToString(", ").ifEmpty { t("compare.none") }
            add(t("compare.refused.no-shared", runA, conditions(refused.conditionsA), runB, conditions(refused.conditionsB)))
        }
        if (refused.differences.isNotEmpty()) {
            add(t("compare.refused.differ"))
            refused.differences.forEach { add("  ${it.text(t)}") }
            if (!refused.noSharedCondition) add(t("compare.refused.force"))
        }
    }

    /** The file written, what `--force` overrode, the notes, the summaries, then every contradiction and regression. */
    fun summary(c: Comparison, file: Path, t: Texts = Texts.EN): List<String> = buildList {
        add(t("compare.written", file))
        if (c.warnings.isNotEmpty()) add(t("compare.forced-anyway", c.warnings.joinToString("; ") { it.text(t) }))
        c.notes.forEach { add(it.text(t)) }
        add(CompareMarkdown.summary(c, t))
        add(CompareMarkdown.verdictSummary(c, t))
        if (c.yardstick.isNotEmpty()) add(CompareMarkdown.yardstickSummary(c, t))
        c.verdicts.filter { it.agreement == Agreement.CONTRADICT }.forEach { add(CompareMarkdown.contradiction(it, t)) }
        c.regressions.forEach { (condition, change) -> add(CompareMarkdown.regression(condition, change, t)) }
    }
}
