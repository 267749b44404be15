package io.protobench.bench.run

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import java.nio.file.Files
import java.nio.file.Path

/**
 * Reads and writes `run.json`; writes go through a temporary file so a crash never
 * leaves half a record, one writer at a time. After [seal] (an interrupted run's last
 * word) later saves are ignored, so a run thread still unwinding cannot overwrite it.
 */
class RunStore(val dir: Path) {
    val runJson: Path = dir.resolve("run.json")

    @Volatile
    private var sealed = false

    @Synchronized
    fun save(record: RunRecord) {
        if (sealed) return
        JsonFiles.writeAtomically(runJson, JsonFiles.mapper.writeValueAsBytes(record))
    }

    /** Saves [record] as the final word: nothing saved afterwards replaces it. */
    @Synchronized
    fun seal(record: RunRecord) {
        save(record)
        sealed = true
    }

    companion object {
        /** The time part of a results folder's name: "20261122-062349" (UTC). */
        fun stamp(instant: java.time.Instant): String =
            java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(java.time.ZoneOffset.UTC).format(instant)

        /** A new run folder under [root]; a second run started in the same second gets "-2", and so on. */
        fun create(root: Path, name: String): RunStore {
            Files.createDirectories(root)
            for (attempt in 1..100) {
                val dir = root.resolve(if (attempt == 1) name else "$name-$attempt")
                try {
                    return RunStore(Files.createDirectory(dir))
                } catch (_: java.nio.file.FileAlreadyExistsException) {
                    continue
                }
            }
            throw java.io.IOException("cannot create a run folder for $name under $root: 100 already exist")
        }

        /**
         * Reads a run directory's run.json (or the run.json.gz a published run keeps); the message
         * says what is wrong when it cannot.
         */
        fun load(dir: Path): RunRecord {
            val file = if (Files.isDirectory(dir)) recordIn(dir) else dir
            if (!Files.isRegularFile(file)) throw IllegalArgumentException("no run.json in $dir: give a results/<run> directory")
            // Read once: a published record is gzipped and up to a few MB.
            val tree = runCatching { read(file) { JsonFiles.mapper.readTree(it) } }.getOrNull()
            val version = tree?.path("schemaVersion")?.asInt(1) ?: -1
            if (version !in RunRecord.READABLE_SCHEMAS) {
                throw IllegalArgumentException(
                    "$file is not a Proto-Bench run record of schema ${RunRecord.READABLE_SCHEMAS.joinToString(" or ")} " +
                        "(found ${if (version < 0) "no readable JSON" else "schema $version"}): " +
                        "it was written by another version of Proto-Bench",
                )
            }
            if (version < RunRecord.SCHEMA_VERSION) upgrade(tree!!)
            return try {
                JsonFiles.mapper.treeToValue(tree, RunRecord::class.java)
            } catch (e: com.fasterxml.jackson.core.JacksonException) {
                throw IllegalArgumentException("$file is not a Proto-Bench run record: ${e.originalMessage}")
            }
        }

        /**
         * A record of schema 2 (k6 the load generator) read as the current schema: its figures
         * under their present keys ([Figure.FORMER_KEYS]), wherever a figures map holds them.
         */
        private fun upgrade(node: com.fasterxml.jackson.databind.JsonNode) {
            if (node is com.fasterxml.jackson.databind.node.ObjectNode) {
                Figure.FORMER_KEYS.forEach { (former, figure) ->
                    node.remove(former)?.let { node.set<com.fasterxml.jackson.databind.JsonNode>(figure.key, it) }
                }
            }
            // k6's own summaries keep their names: a former key inside them is k6's, not a figure.
            node.fields().forEach { (name, child) -> if (name != "k6") upgrade(child) }
            if (node.isArray) node.forEach(::upgrade)
        }

        /** run.json, else the run.json.gz of a published run. */
        private fun recordIn(dir: Path): Path = dir.resolve("run.json").takeIf { Files.exists(it) }
            ?: dir.resolve("run.json.gz").takeIf { Files.exists(it) }
            ?: dir.resolve("run.json")

        private fun <T> read(file: Path, parse: (java.io.InputStream) -> T): T = Files.newInputStream(file).use { raw ->
            if (file.fileName.toString().endsWith(".gz")) java.util.zip.GZIPInputStream(raw).use(parse) else parse(raw)
        }
    }
}
