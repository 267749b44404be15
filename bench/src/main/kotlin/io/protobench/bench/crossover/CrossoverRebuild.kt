package io.protobench.bench.crossover

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.Figure
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.RunStore
import io.protobench.bench.text.Texts
import java.nio.file.Files
import java.nio.file.Path

/**
 * `protobench report` on a search folder: every point's verdict decided again from its own
 * run.json, each point's report and crossover.md rewritten from what was recomputed.
 * crossover.json is left as the search wrote it (it is the search's history: which points it
 * chose came from the decisions it had then); a point whose decision no longer matches it is
 * named, so a published search shows that its answer still follows from its runs.
 */
object CrossoverRebuild {
    /** A point whose recorded decision differs from the one its run.json gives today. */
    data class Changed(val n: Int, val value: String, val recorded: String?, val now: String?)

    data class Rebuilt(val markdown: Path, val points: Int, val changed: List<Changed>)

    fun isSearch(dir: Path): Boolean = Files.isRegularFile(dir.resolve(CrossoverRecord.JSON))

    fun rebuild(dir: Path, texts: Texts = Texts.EN): Rebuilt {
        val recorded = CrossoverRecord.load(dir)
        val verdict =
            PointVerdict(requireNotNull(Figure.byKey(recorded.figure)) { "unknown figure '${recorded.figure}' in ${CrossoverRecord.JSON}" })
        val points = recorded.points.map { point -> decidedAgain(dir, recorded, point, verdict, texts) }
        val now = recorded.copy(points = points)
        val markdown = dir.resolve(CrossoverRecord.MARKDOWN)
        JsonFiles.writeAtomically(markdown, CrossoverReport.render(now, texts).toByteArray())
        val changed = recorded.points.zip(points)
            .filter { (before, after) -> before.decision != after.decision || before.outcome != after.outcome }
            .map { (before, after) -> Changed(before.n, before.value, before.decision, after.decision) }
        return Rebuilt(markdown, points.count { it.run != null && it.outcome != PointOutcome.FAILED }, changed)
    }

    /** [point] as its run folder decides it today, its report rewritten; a failed point or one without a folder as recorded. */
    private fun decidedAgain(dir: Path, search: CrossoverRecord, point: PointRecord, verdict: PointVerdict, texts: Texts): PointRecord {
        val folder = point.run?.let(dir::resolve)?.takeIf { point.outcome != PointOutcome.FAILED } ?: return point
        val run = RunStore.load(folder)
        ReportWriter.write(folder, run, texts)
        val measured = PointMeasurement(verdict.decision(run), point.run, point.seconds)
        return PointRecord.of(Probe(point.n, point.position), search.axis, measured)
    }
}
