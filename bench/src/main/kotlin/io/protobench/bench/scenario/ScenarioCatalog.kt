package io.protobench.bench.scenario

import java.io.IOException
import java.nio.ByteBuffer
import java.nio.charset.CharacterCodingException
import java.nio.charset.CodingErrorAction
import java.nio.file.Files
import java.nio.file.InvalidPathException
import java.nio.file.Path

/** The built-in scenarios (bundled YAML) and user files, found by name or path. */
object ScenarioCatalog {
    val builtInNames = listOf(
        "quick", "direct", "writes", "seed003", "projectD", "phase1", "phase1-copy", "projectA", "projectB", "projectC", "phase2", "phase3",
        "phase4", "phase5", "phase6", "phase7", "seed004", "grpc-executor", "aa", "seeds", "map-size", "map-complexity", "decision-map",
    )

    /** A scenario file is a page of YAML; anything bigger is the wrong file. */
    const val MAX_FILE_BYTES = 1L shl 20

    fun builtIn(name: String): Scenario? = builtIn(name, ServerHeap.DEFAULT_BYTES)

    /** Only the listed names: a user's argument never reaches into the class path. */
    fun builtIn(name: String, serverHeapBytes: Long): Scenario? {
        if (name !in builtInNames) return null
        val text = javaClass.getResourceAsStream("/scenarios/$name.yaml")?.use { String(it.readAllBytes()) } ?: return null
        return ScenarioParser.parse(text, "built-in scenario '$name'", serverHeapBytes)
    }

    fun all(): List<Scenario> = builtInNames.mapNotNull(::builtIn)

    /**
     * A built-in name, or a path to a YAML file, for servers with [serverHeapBytes] of heap.
     * Throws [InvalidScenario] when neither, or when the file cannot be read as UTF-8 text.
     */
    fun load(nameOrPath: String, serverHeapBytes: Long = ServerHeap.DEFAULT_BYTES): Scenario {
        builtIn(nameOrPath, serverHeapBytes)?.let { return it }
        val path = pathOf(nameOrPath)
        return ScenarioParser.parse(readText(path, nameOrPath), path.toString(), serverHeapBytes)
    }

    private fun pathOf(nameOrPath: String): Path {
        val path = try {
            Path.of(nameOrPath)
        } catch (e: InvalidPathException) {
            null
        }
        if (path == null || !Files.exists(path)) {
            refuse(nameOrPath, nameOrPath, "a built-in scenario (${builtInNames.joinToString()}) or the path of a YAML file")
        }
        return path
    }

    /** The file's text, or one violation saying why it is not a scenario file. */
    private fun readText(path: Path, given: String): String {
        val source = path.toString()
        if (Files.isDirectory(path)) refuse(source, given, "the path of a YAML file, not a folder", "$source is a folder")
        if (!Files.isRegularFile(path)) refuse(source, given, "the path of a regular YAML file", "$source is not a regular file")
        val bytes = try {
            if (Files.size(path) > MAX_FILE_BYTES) refuse(source, given, "a scenario file of at most 1 MiB", "$source is larger than 1 MiB")
            Files.readAllBytes(path)
        } catch (e: IOException) {
            refuse(source, given, "a file this user can read", "cannot read $source (${e.javaClass.simpleName}: ${e.message})")
        }
        return utf8(bytes) ?: refuse(source, given, "UTF-8 text", "$source is not UTF-8 text")
    }

    /** Strict decoding: a malformed byte is an error, not a silent U+FFFD. */
    private fun utf8(bytes: ByteArray): String? = try {
        Charsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(ByteBuffer.wrap(bytes)).toString()
    } catch (e: CharacterCodingException) {
        null
    }

    private fun refuse(source: String, value: String, accepted: String, problem: String? = null): Nothing =
        throw InvalidScenario(listOf(Violation(source, "(scenario)", value, accepted, problem)))
}
