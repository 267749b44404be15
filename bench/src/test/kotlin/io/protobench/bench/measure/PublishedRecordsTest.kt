package io.protobench.bench.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.json.JsonFiles
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
        paths.filter { it.fileName.toString() == "run.json" || it.fileName.toString() == "run.json.gz" }
            .map { it.parent }.distinct().sorted().toList()
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
        val keys = record.trials.flatMap { it.figures.byKey().keys }.toSet()
        assertThat(keys).contains(Figure.DRIVER_CPU_US.key).noneMatch { it.startsWith("k6_") }
        assertThat(record.environment.loadGenerator).startsWith("k6 v1.")
        assertThat(MarkdownReport.render(record)).contains("load generator `k6 v1.")
    }

    /** A published record as its file holds it, before any upgrade. */
    private fun raw(dir: Path): JsonNode =
        java.util.zip.GZIPInputStream(Files.newInputStream(dir.resolve("run.json.gz"))).use(JsonFiles.mapper::readTree)

    private val gzipped get() = published.filter { Files.exists(it.resolve("run.json.gz")) }

    @Test
    fun `a k6-era record with variants reads its environment into typed fields, each variant's link by its name`() {
        val dir = gzipped.first { dir ->
            raw(dir).let {
                it["schemaVersion"].asInt() == 2 &&
                    it["environment"].fieldNames().asSequence().any { key -> key.startsWith("network · ") }
            }
        }
        val json = raw(dir)["environment"]
        val env = RunStore.load(dir).environment

        assertThat(env.cpuModel).isEqualTo(json["cpuModel"].asText()).isNotBlank()
        assertThat(env.cpuCores).isEqualTo(json["cpuCores"].asInt()).isPositive()
        assertThat(env.memoryTotalMb).isEqualTo(json["memoryTotalMb"].asLong())
        assertThat(env.k6).isEqualTo(json["k6"].asText())
        assertThat(env.loadGenerator).isEqualTo(json["k6"].asText()).startsWith("k6 v1.")
        assertThat(env.serverJvmOptions).containsExactlyElementsOf(json["serverJvmOptions"].map { it.asText() })
        val variants = json.fieldNames().asSequence().filter { it.startsWith("network · ") }.map { it.removePrefix("network · ") }.toList()
        assertThat(env.networkByVariant.keys).containsExactlyElementsOf(variants)
        env.networkByVariant.forEach { (variant, link) ->
            val linkJson = json["network · $variant"]
            assertThat(link.profile).isEqualTo(linkJson["profile"].asText())
            assertThat(link.refused).isEqualTo(linkJson["refused"]?.asText())
            assertThat(link.measuredRttMs).isEqualTo(linkJson["measuredRttMs"]?.asDouble())
        }
        assertThat(env.networkByVariant.values).anyMatch { it.refused != null }.anyMatch { it.holds == true }
        assertThat(env.other).isEmpty()
    }

    @Test
    fun `a record of the lab's own driver names it as its load generator, and a run's own link reads typed`() {
        val driven = RunStore.load(gzipped.first { raw(it)["schemaVersion"].asInt() == 3 })
        assertThat(driven.environment.loadGenerator).startsWith("Proto-Bench load driver")
        assertThat(driven.environment.k6).isNull()
        assertThat(driven.environment.cpuCores).isPositive()

        val linked = gzipped.first { raw(it)["environment"].has("network") }
        val link = RunStore.load(linked).environment.network!!
        assertThat(link.profile).isEqualTo(raw(linked)["environment"]["network"]["profile"].asText())
        assertThat(link.holds).isTrue()
        assertThat(link.relayOneWayMs).isPositive()
    }

    @Test
    fun `every published record written again keeps its environment and its trials' loads byte for byte`(
        @org.junit.jupiter.api.io.TempDir tmp: Path,
    ) {
        for (dir in published) {
            val record = RunStore.load(dir)
            val store = RunStore(Files.createDirectories(tmp.resolve(dir.fileName.toString())))
            store.save(record)
            val original =
                if (Files.exists(dir.resolve("run.json.gz"))) raw(dir) else JsonFiles.mapper.readTree(dir.resolve("run.json").toFile())
            val written = JsonFiles.mapper.readTree(store.runJson.toFile())

            assertThat(text(written["environment"])).describedAs(dir.toString()).isEqualTo(text(original["environment"]))
            assertThat(loads(written)).describedAs(dir.toString()).isEqualTo(loads(original)).isNotEmpty()
            assertThat(figures(written)).describedAs(dir.toString()).isEqualTo(figures(upgraded(original))).isNotEmpty()
            assertThat(text(written["scenario"]["soak"])).describedAs(dir.toString()).isEqualTo(text(original["scenario"]["soak"]))
            assertThat(RunStore.load(store.dir)).describedAs(dir.toString()).isEqualTo(record)
        }
    }

    private fun text(node: JsonNode): String = JsonFiles.mapper.writeValueAsString(node)

    /** Every trial's and warm-up's load as run.json writes it, in record order. */
    private fun loads(record: JsonNode): List<String> = record["forks"].flatMap { fork ->
        (
            fork["trials"].orEmpty() +
                fork["warmIns"].orEmpty()
            ).map { it["load"].asText() }
    }

    private fun JsonNode?.orEmpty(): List<JsonNode> = this?.toList().orEmpty()

    /** Every trial's and seed tool run's figures object as run.json writes it (keys, order, nulls), in record order. */
    private fun figures(record: JsonNode): List<String> = record["forks"].flatMap { fork ->
        (
            fork["trials"].orEmpty() +
                fork["toolRuns"].orEmpty()
            ).map { text(it["figures"]) }
    }

    /**
     * [record] as `RunStore.load` reads it: a schema-2 record's k6 figure keys renamed ([Figure.FORMER_KEYS]),
     * each moved last, as the upgrade has always put it; a record of schema 3 as it is.
     */
    private fun upgraded(record: JsonNode): JsonNode {
        if (record["schemaVersion"].asInt() == RunRecord.SCHEMA_VERSION) return record
        val copy = record.deepCopy<JsonNode>()
        copy["forks"].forEach { fork ->
            fork["trials"].orEmpty().map { it["figures"] as com.fasterxml.jackson.databind.node.ObjectNode }.forEach { figures ->
                Figure.FORMER_KEYS.forEach { (former, figure) -> figures.remove(former)?.let { figures.set<JsonNode>(figure.key, it) } }
            }
        }
        return copy
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
