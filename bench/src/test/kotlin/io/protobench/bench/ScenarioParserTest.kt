package io.protobench.bench

import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.Load
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Workload
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import java.time.Duration

class ScenarioParserTest {
    private fun violations(yaml: String) =
        catchThrowableOfType(InvalidScenario::class.java) { ScenarioParser.parse(yaml, "test.yaml") }.violations

    @Test
    fun `every built-in scenario parses and has the seeds' conditions`() {
        val all = ScenarioCatalog.all().associateBy { it.name }
        assertThat(all.keys).containsExactlyInAnyOrderElementsOf(ScenarioCatalog.builtInNames)
        assertThat((all.getValue("phase4").workload as Workload.Payload).sizes).containsExactly("10kb", "50kb", "100kb", "200kb", "500kb")
        assertThat((all.getValue("phase3").load as Load.Closed).vus).containsExactly(50, 100, 200, 500)
        assertThat((all.getValue("phase6").workload as Workload.Complexity).levels).containsExactly("ultra", "extreme")
        assertThat(all.getValue("seed004").duration).isEqualTo(Duration.ofSeconds(60))
        assertThat(all.getValue("quick").cells).hasSize(8)
    }

    @Test
    fun `a valid file becomes a scenario with conditions times protocols cells`() {
        val s = ScenarioParser.parse("""
            name: mine
            sizes: [1kb, 2mb]
            protocols: [grpc, HTTP/JSON]
            load: {model: closed, vus: [1, 5]}
            duration: 2s
            warmup: 500ms
            repetitions: 2
        """.trimIndent(), "mine.yaml")
        assertThat(s.protocols).containsExactly(Protocol.GRPC_UNARY, Protocol.HTTP_JSON)
        assertThat(s.conditions.map { it.label }).containsExactly("size=1kb vus=1", "size=1kb vus=5", "size=2mb vus=1", "size=2mb vus=5")
        assertThat(s.cells).hasSize(8)
        assertThat(s.warmup).isEqualTo(Duration.ofMillis(500))
    }

    @Test
    fun `every problem of a file is reported at once with field, value and what is accepted`() {
        val v = violations("""
            name: "bad name!"
            sizes: [1kb, 9gb]
            protocols: [gRPC/Unary, SOAP]
            load: {model: closed, vus: [0]}
            duration: soon
            repetitions: 0
        """.trimIndent())
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("name", "sizes[1]", "protocols[1]", "load.vus", "duration", "repetitions")
        assertThat(v.first { it.field == "sizes[1]" }.accepted).contains("up to 8mb")
        assertThat(v.first { it.field == "protocols[1]" }.accepted).contains("gRPC/Stream")
        assertThat(v.first { it.field == "duration" }.value).isEqualTo("soon")
        assertThat(v).allSatisfy { assertThat(it.source).isEqualTo("test.yaml") }
    }

    @Test
    fun `sizes and complexities are exclusive and one is required`() {
        assertThat(violations("name: x\nduration: 1s").map { it.field }).containsExactly("sizes|complexities")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ncomplexities: [simple]").map { it.field }).containsExactly("sizes|complexities")
    }

    @Test
    fun `unknown levels, load models and fields are rejected`() {
        assertThat(violations("name: x\nduration: 1s\ncomplexities: [hard]").single().accepted).contains("simple", "extreme")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nload: {model: burst}").single().field).isEqualTo("load.model")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nthreads: 4").single().field).isEqualTo("threads")
    }

    @Test
    fun `open load needs rates and forbids vus`() {
        val v = violations("name: x\nduration: 1s\nsizes: [1kb]\nload: {model: open, vus: [3]}")
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("load.rates", "load.vus")
        val ok = ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb]\nload: {model: open, rates: [100, 200], maxVus: 50}", "t")
        assertThat(ok.conditions.map { it.label }).containsExactly("size=1kb rate=100/s", "size=1kb rate=200/s")
    }

    @Test
    fun `broken YAML is an error naming the document, not a crash`() {
        assertThat(violations("name: \"unterminated").single().field).isEqualTo("(document)")
        assertThat(violations("name: x\nrepetitions: many").single().field).isEqualTo("repetitions")
    }

    @Test
    fun `an unknown scenario name or missing file says what is accepted`() {
        val e = catchThrowableOfType(InvalidScenario::class.java) { ScenarioCatalog.load("phase99") }
        assertThat(e.violations.single().accepted).contains("quick", "phase7", "YAML file")
    }
}
