package io.protobench.bench.scenario

import java.nio.file.Files
import java.nio.file.Path

/** The built-in scenarios (bundled YAML) and user files, found by name or path. */
object ScenarioCatalog {
    val builtInNames = listOf("quick", "phase1", "phase2", "phase3", "phase4", "phase5", "phase6", "phase7", "seed004", "aa", "seeds")

    fun builtIn(name: String): Scenario? {
        val text = javaClass.getResourceAsStream("/scenarios/$name.yaml")?.use { String(it.readAllBytes()) } ?: return null
        return ScenarioParser.parse(text, "built-in scenario '$name'")
    }

    fun all(): List<Scenario> = builtInNames.mapNotNull(::builtIn)

    /** A built-in name, or a path to a YAML file. Throws [InvalidScenario] when neither. */
    fun load(nameOrPath: String): Scenario {
        builtIn(nameOrPath)?.let { return it }
        val path = Path.of(nameOrPath)
        if (!Files.isRegularFile(path)) {
            throw InvalidScenario(listOf(Violation(nameOrPath, "(scenario)", nameOrPath,
                "a built-in scenario (${builtInNames.joinToString()}) or the path of a YAML file")))
        }
        return ScenarioParser.parse(Files.readString(path), path.toString())
    }
}
