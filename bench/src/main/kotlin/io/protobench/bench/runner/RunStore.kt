package io.protobench.bench.runner

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.SerializationFeature
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.bench.measure.RunRecord
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/**
 * Reads and writes `run.json`; writes go through a temporary file so a crash never
 * leaves half a record, one writer at a time. After [seal] (an interrupted run's last
 * word) later saves are ignored, so a run thread still unwinding cannot overwrite it.
 */
class RunStore(val dir: Path) {
    val runJson: Path = dir.resolve("run.json")
    @Volatile
    var sealed = false
        private set

    @Synchronized
    fun save(record: RunRecord) {
        if (sealed) return
        Files.createDirectories(dir)
        val temporary = dir.resolve("run.json.tmp")
        mapper.writeValue(temporary.toFile(), record)
        Files.move(temporary, runJson, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }

    /** Saves [record] as the final word: nothing saved afterwards replaces it. */
    @Synchronized
    fun seal(record: RunRecord) {
        save(record)
        sealed = true
    }

    companion object {
        val mapper: ObjectMapper = jacksonObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)

        /** Reads a run directory's run.json; the message says what is wrong when it cannot. */
        fun load(dir: Path): RunRecord {
            val file = if (Files.isDirectory(dir)) dir.resolve("run.json") else dir
            if (!Files.isRegularFile(file)) throw IllegalArgumentException("no run.json in $dir: give a results/<run> directory")
            return try {
                mapper.readValue(file.toFile(), RunRecord::class.java)
            } catch (e: com.fasterxml.jackson.core.JacksonException) {
                throw IllegalArgumentException("$file is not a Proto-Bench run record: ${e.originalMessage}")
            }
        }
    }
}
