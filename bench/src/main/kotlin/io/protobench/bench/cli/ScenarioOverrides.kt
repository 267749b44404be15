package io.protobench.bench.cli

import com.github.ajalt.clikt.parameters.groups.OptionGroup
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.split
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioFile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Workload
import io.protobench.bench.scenario.Load
import io.protobench.bench.scenario.toFile

/** Command-line flags that replace a scenario's fields; the result is validated like a file. */
class ScenarioOverrides : OptionGroup("Scenario overrides") {
    val duration by option("--duration", help = "Measured time per trial, e.g. 30s")
    val warmup by option("--warmup", help = "Uncounted warm-up per cell, e.g. 10s")
    val repetitions by option("--repetitions", "-r", help = "Trials per cell").int()
    val protocols by option("--protocols", help = "Comma-separated protocols, e.g. gRPC/Unary,HTTP/Binary").split(",")
    val noiseControl by option("--noise-control", help = "Add an A/A control cell per condition (the first protocol measured twice) to measure the noise floor").flag()

    fun applyTo(scenario: Scenario): Scenario {
        val file = scenario.toFile()
        val changed = file.copy(
            duration = duration ?: file.duration,
            warmup = warmup ?: file.warmup,
            repetitions = repetitions ?: file.repetitions,
            protocols = protocols ?: file.protocols,
            noiseControl = noiseControl || (file.noiseControl ?: false),
        )
        return ScenarioParser.validate(changed, "command line (scenario ${scenario.name})")
    }

    fun given(): Map<String, String> = listOfNotNull(
        duration?.let { "duration" to it }, warmup?.let { "warmup" to it },
        repetitions?.let { "repetitions" to it.toString() }, protocols?.let { "protocols" to it.joinToString(",") },
        if (noiseControl) "noiseControl" to "true" else null,
    ).toMap()
}
