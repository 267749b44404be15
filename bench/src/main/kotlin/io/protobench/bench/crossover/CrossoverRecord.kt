package io.protobench.bench.crossover

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.scenario.Axis
import io.protobench.bench.text.Texts
import java.nio.file.Files
import java.nio.file.Path

/**
 * A crossover search as `crossover.json` keeps it: what was asked, every point probed (in
 * probe order, each with its run folder), and how it ended. crossover.md is rendered from
 * it alone ([CrossoverReport]), so a search can be re-rendered; every point's own run.json
 * holds what it measured.
 */
data class CrossoverRecord(
    val schemaVersion: Int = SCHEMA_VERSION,
    val id: String,
    /** The two protocol labels, A then B: ratios are A/B. */
    val pair: List<String>,
    val axis: Axis,
    val from: Long,
    val to: Long,
    val resolution: Double,
    val steps: Int,
    /** `--edge`: one end won and the other without a winner was searched too ([Findings.edgeWinner]). */
    val edge: Boolean = false,
    val mode: String,
    /** Key of the figure compared at every point. */
    val figure: String,
    val margin: Double,
    /** The settings every point shares, in words. */
    val fixed: String,
    /** One point's estimated seconds at its minimum forks, and the most points. */
    val estimatedPointSeconds: Long,
    val maxPoints: Int,
    val seed: Long,
    val startedAt: String,
    val status: RunStatus,
    val finishedAt: String? = null,
    val stoppedBecause: String? = null,
    /** The machine and the build, as the first point's run recorded them ([RunEnvironment.machine]); none before a point ran. */
    val machine: RunEnvironment = RunEnvironment.NONE,
    val points: List<PointRecord> = emptyList(),
) {
    val figureTitle: String get() = Figure.byKey(figure)?.title ?: figure

    fun findings() = Findings(axis, from, to, points, edge)

    companion object {
        const val SCHEMA_VERSION = 1
        const val JSON = "crossover.json"
        const val MARKDOWN = "crossover.md"

        fun load(dir: Path): CrossoverRecord {
            val file = if (Files.isDirectory(dir)) dir.resolve(JSON) else dir
            require(Files.isRegularFile(file)) { "no $JSON in $dir: give a results/<time>-crossover folder" }
            return JsonFiles.mapper.readValue(file.toFile(), CrossoverRecord::class.java)
        }
    }
}

/**
 * Writes crossover.json and crossover.md (in [texts]' language) of a search folder, each atomically. After
 * [seal] (an interrupted search's last word) later saves are ignored, so a search thread
 * still unwinding cannot overwrite it.
 */
class CrossoverStore(val dir: Path, private val texts: Texts = Texts.EN) {
    @Volatile
    var sealed = false
        private set

    @Synchronized
    fun save(record: CrossoverRecord) {
        if (sealed) return
        JsonFiles.writeAtomically(dir.resolve(CrossoverRecord.JSON), JsonFiles.mapper.writeValueAsBytes(record))
        JsonFiles.writeAtomically(dir.resolve(CrossoverRecord.MARKDOWN), CrossoverReport.render(record, texts).toByteArray())
    }

    @Synchronized
    fun seal(record: CrossoverRecord) {
        save(record)
        sealed = true
    }
}
