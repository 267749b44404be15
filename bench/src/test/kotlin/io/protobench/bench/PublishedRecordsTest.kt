package io.protobench.bench

import io.protobench.bench.lab.Environment
import io.protobench.bench.measure.Figure
import io.protobench.bench.report.CsvReport
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.Mode
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * Every run published under docs/results (schema 2, k6's, some from the first days of the lab)
 * still loads into today's typed record and renders its reports: a change of the record or
 * the reports that would orphan a published run fails here.
 */
class PublishedRecordsTest {
    /** Surefire runs in bench/; the published runs are in the project's docs/results. */
    private val published: List<Path> = Files.walk(Path.of("").toAbsolutePath().parent.resolve("docs/results")).use { paths ->
        paths.filter { it.fileName.toString() == "run.json" || it.fileName.toString() == "run.json.gz" }.map { it.parent }.distinct().sorted().toList()
    }

    @Test
    fun `every published run loads with typed fields and renders report_md and cells_csv`() {
        assertThat(published).hasSizeGreaterThan(40)
        for (dir in published) {
            val record = RunStore.load(dir)
            assertThat(record.scenario.mode).describedAs(dir.toString()).isIn(Mode.COST, Mode.CAPACITY)
            assertThat(MarkdownReport.render(record)).describedAs(dir.toString()).contains("# Proto-Bench")
            assertThat(CsvReport.render(record).lines().first()).startsWith("condition,kind,arm,forks")
        }
    }

    @Test
    fun `a k6-era record reads k6's CPU as the load generator's figure and names k6 as its load generator`() {
        val record = RunStore.load(published.first())
        val keys = record.trials.flatMap { it.figures.keys }.toSet()
        assertThat(keys).contains(Figure.DRIVER_CPU_US.key).noneMatch { it.startsWith("k6_") }
        assertThat(Environment.loadGenerator(record.environment).toString()).startsWith("k6 v1.")
        assertThat(MarkdownReport.render(record)).contains("load generator `k6 v1.")
    }

    @Test
    fun `a record written today reads back equal, its choices under their stable names`(@org.junit.jupiter.api.io.TempDir tmp: Path) {
        val record = RunStore.load(published.first { Files.exists(it.resolve("run.json.gz")) })
        RunStore(tmp).save(record)

        assertThat(RunStore.load(tmp)).isEqualTo(record)
        val json = Files.readString(tmp.resolve("run.json"))
        assertThat(json).contains("\"mode\" : \"${record.scenario.mode.id}\"", "\"topology\" : \"${record.scenario.topology.id}\"")
    }
}
