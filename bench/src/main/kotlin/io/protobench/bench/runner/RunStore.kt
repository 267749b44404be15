package io.protobench.bench.runner

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.SerializationFeature
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.bench.measure.RunRecord
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/** Reads and writes `run.json`; writes go through a temporary file so a crash never leaves half a record. */
class RunStore(val dir: Path) {
    val runJson: Path = dir.resolve("run.json")

    fun save(record: RunRecord) {
        Files.createDirectories(dir)
        val temporary = dir.resolve("run.json.tmp")
        mapper.writeValue(temporary.toFile(), record)
        Files.move(temporary, runJson, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
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
