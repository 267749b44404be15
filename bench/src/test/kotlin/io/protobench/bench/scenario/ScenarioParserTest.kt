package io.protobench.bench.scenario

import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.Load
import io.protobench.bench.scenario.MembersFile
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Workload
import io.protobench.bench.scenario.toFile
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
        assertThat((all.getValue("phase4").parts.single().workload as Workload.Payload).sizes)
            .containsExactly("10kb", "50kb", "100kb", "200kb", "500kb")
        assertThat((all.getValue("phase3").parts.single().load as Load.Closed).vus).containsExactly(50, 100, 200, 500)
        assertThat((all.getValue("phase6").parts.single().workload as Workload.Complexity).levels).containsExactly("ultra", "extreme")
        assertThat(all.getValue("quick").cells).hasSize(2 * 6) // four protocols, the null hop and the A/A copy
        assertThat(all.getValue("quick").mode).isEqualTo(Mode.COST)
        assertThat(all.getValue("phase1").arms.map { it.label }).contains("Null hop", "HTTP/JSON (A/A)")
        val executor = all.getValue("grpc-executor")
        assertThat(executor.variants.map { it.name }).containsExactly("pool", "direct")
        assertThat(executor.protocols).contains(Protocol.HTTP_JSON) // the control: it does not read the setting
        val networks = all.getValue("projectB")
        assertThat(networks.variants.map { it.network }).containsExactly("lan", "region", "wan")
        // 1 MB first: the condition a budget serves first is the one where the answer changes.
        assertThat(networks.conditions.map { it.label }).containsExactly("size=1mb vus=10", "size=100kb vus=10", "size=10kb vus=10")
    }

    @Test
    fun `a variant's network is a profile the lab knows, and the mistake is named`() {
        fun variants(network: String) = """
            name: net
            sizes: [1kb]
            load: {model: closed, vus: [1]}
            duration: 1s
            variants:
              - {name: near}
              - {name: far, network: "$network"}
        """.trimIndent()
        assertThat(ScenarioParser.parse(variants("WAN"), "net.yaml").variants.map { it.network }).containsExactly(null, "wan")
        assertThat(ScenarioParser.parse(variants("rtt=5ms,bandwidth=1gbit"), "net.yaml").variants[1].network)
            .isEqualTo("rtt=5ms,bandwidth=1gbit")
        val unknown = violations(variants("moon")).single()
        assertThat(unknown.field).isEqualTo("variants[1].network")
        assertThat(unknown.toString()).contains("'moon'", "lan, dc, region, wan, mobile")
        assertThat(violations(variants("rtt=5parsecs")).single().toString()).contains("variants[1].network", "rtt '5parsecs'")
    }

    @Test
    fun `seeds measures every phase's conditions once, tagged with each phase`() {
        val seeds = ScenarioCatalog.builtIn("seeds")!!
        val byLabel = seeds.conditions.associateBy { it.label }
        assertThat(byLabel.getValue("size=10kb vus=10").phases).containsExactly("phase2", "phase4")
        assertThat(byLabel.getValue("complexity=ultra vus=10").phases).containsExactly("phase6", "phase7")
        assertThat(seeds.conditions).hasSize(1 + 2 + 4 + 5 + 3 + 2 - 1)
        assertThat(seeds.budget).isNull()
        assertThat(seeds.conditions.map { seeds.forksOf(it) to seeds.maxForksOf(it) }.distinct()).containsExactly(5 to 5)
    }

    @Test
    fun `every built-in scenario survives its file form, as command-line overrides and resume need`() {
        // decision-map is made of includes without seed phases: its file form once lost them and `run decision-map` was refused.
        for (scenario in ScenarioCatalog.all()) {
            assertThat(ScenarioParser.validate(scenario.toFile(), "round trip")).describedAs(scenario.name).isEqualTo(scenario)
        }
    }

    @Test
    fun `a valid file becomes a scenario with conditions times protocols cells`() {
        val s = ScenarioParser.parse(
            """
            name: mine
            sizes: [1kb, 2mb]
            protocols: [grpc, HTTP/JSON]
            load: {model: closed, vus: [1, 5]}
            duration: 2s
            forks: 4
            margin: 3%
            soak: {window: 2s, min: 4s, max: 20s}
            """.trimIndent(),
            "mine.yaml",
        )
        assertThat(s.protocols).containsExactly(Protocol.GRPC_UNARY, Protocol.HTTP_JSON)
        assertThat(s.conditions.map { it.label }).containsExactly("size=1kb vus=1", "size=1kb vus=5", "size=2mb vus=1", "size=2mb vus=5")
        assertThat(s.cells).hasSize(4 * 3)
        assertThat(s.forks).isEqualTo(4)
        assertThat(s.maxForks).isEqualTo(12)
        assertThat(s.margin).isEqualTo(0.03)
        assertThat(s.soak.max).isEqualTo(Duration.ofSeconds(20))
    }

    @Test
    fun `every problem of a file is reported at once with field, value and what is accepted`() {
        val v =
            violations(
                """
            name: "bad name!"
            sizes: [1kb, 9gb]
            protocols: [gRPC/Unary, SOAP]
            load: {model: closed, vus: [0]}
            duration: soon
            forks: 1
            margin: 80%
            minRequests: -1
                """.trimIndent(),
            )
        assertThat(v.map { it.field })
            .containsExactlyInAnyOrder("name", "sizes[1]", "protocols[1]", "load.vus", "duration", "forks", "margin", "minRequests")
        assertThat(v.first { it.field == "minRequests" }.accepted).contains("0 (no minimum)")
        assertThat(v.first { it.field == "sizes[1]" }.accepted).contains("up to 8mb")
        assertThat(v.first { it.field == "protocols[1]" }.accepted).contains("gRPC/Stream")
        assertThat(v.first { it.field == "duration" }.value).isEqualTo("soon")
        assertThat(v).allSatisfy { assertThat(it.source).isEqualTo("test.yaml") }
    }

    @Test
    fun `members exclude reads, and one kind of workload is required`() {
        assertThat(violations("name: x\nduration: 1s").map { it.field }).containsExactly("sizes|complexities|members|message")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nmembers: {images: [1kb]}").map { it.field })
            .containsExactly("sizes|complexities|members|message")
        assertThat(violations("name: x\nduration: 1s\ncomplexities: [simple]\nmembers: {images: [1kb]}").map { it.field })
            .containsExactly("sizes|complexities|members|message")
    }

    @Test
    fun `sizes and complexities stand side by side, sizes first, and survive the round trip`() {
        val both = ScenarioParser.parse(
            "name: x\nduration: 1s\ncomplexities: [Simple]\nsizes: [1mb]\ncostRates: {1mb: 140, simple: 900}",
            "t",
        )
        assertThat(both.conditions.map { it.label }).containsExactly("size=1mb vus=10", "complexity=simple vus=10")
        assertThat(ScenarioParser.validate(both.toFile(), "again").conditions).isEqualTo(both.conditions)
        assertThat(violations("name: x\nduration: 1s\nsizes: [1mb]\ncomplexities: [huge]").map { it.field })
            .containsExactly("complexities[0]")
    }

    @Test
    fun `members create one condition per image size, write, and survive the round trip`() {
        val writes = ScenarioParser.parse("name: x\nduration: 1s\nmembers: {images: [1kb, 100KB], batch: 10}", "t")
        assertThat(writes.conditions.map { it.label }).containsExactly("image=1kb batch=10 vus=10", "image=100kb batch=10 vus=10")
        assertThat(writes.writes).isTrue()
        assertThat(writes.arms.map { it.label }).contains("Null hop")
        assertThat(writes.conditions.first().target.gatewayPath(writes.arms.first())).isEqualTo("/api/members/http/json")
        assertThat(writes.toFile().members).isEqualTo(MembersFile(listOf("1kb", "100kb"), 10))
        // One member of the default image when nothing more is said; reads do not write.
        val defaults = ScenarioParser.parse("name: x\nduration: 1s\nmembers: {}", "t")
        assertThat(defaults.conditions.map { it.label }).containsExactly("image=1kb vus=10")
        assertThat(ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb]", "t").writes).isFalse()
    }

    @Test
    fun `member images and batches the write path would refuse are refused with its limits`() {
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: [3mb]}").single().accepted).contains("2097152 bytes")
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: [1kb], batch: 0}").single().field).isEqualTo("members.batch")
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: [1kb], batch: 1001}").single().accepted).contains("1 to 1000")
        // 40 members of 1 MiB are 40 MiB of images in one request: over one stream's 32 MiB.
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: [1kb, 1mb], batch: 40}").single().accepted)
            .contains("32 members of the largest image")
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: []}").single().field).isEqualTo("members.images")
        assertThat(violations("name: x\nduration: 1s\nmembers: {images: [1kb], size: 3}").single().field).isEqualTo("members.size")
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
    fun `cost rates are fixed per target name and rounds per fork, and survive the round trip`() {
        val fixed = ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb, 1mb]\ncostRates: {1kb: 1500, 1mb: 140}\nrounds: 3", "t")
        assertThat(fixed.costRates).isEqualTo(mapOf("1kb" to 1500, "1mb" to 140))
        assertThat(fixed.rounds).isEqualTo(3)
        assertThat(ScenarioParser.validate(fixed.toFile(), "again")).isEqualTo(fixed)
        // Complexity levels and member images are named as their lists name them.
        assertThat(ScenarioParser.parse("name: x\nduration: 1s\ncomplexities: [simple]\ncostRates: {simple: 900}", "t").costRates)
            .containsEntry("simple", 900)
        assertThat(ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb]", "t").rounds).isEqualTo(1)
    }

    @Test
    fun `a cost rate for no target, out of range, in capacity mode or with an open load is refused with what is accepted`() {
        val unknown = violations("name: x\nduration: 1s\nsizes: [1kb, 1mb]\ncostRates: {10kb: 900}").single()
        assertThat(unknown.field).isEqualTo("costRates.10kb")
        assertThat(unknown.accepted).contains("1kb, 1mb")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ncostRates: {1kb: 0}").single().accepted).contains("from 1 to")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ncostRates: {1kb: fast}").single().field).isEqualTo("costRates.1kb")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ncostRates: [1500]").single().accepted).contains("{1kb: 1500, 1mb: 150}")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nmode: capacity\ncostRates: {1kb: 900}").single().accepted)
            .contains("only in cost mode")
        assertThat(
            violations("name: x\nduration: 1s\nsizes: [1kb]\nload: {model: open, rates: [100]}\ncostRates: {1kb: 900}").single().accepted,
        ).contains("only with a closed load")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nrounds: 0").single().accepted).contains("from 1 to")
    }

    @Test
    fun `a target may have fewer forks and other rounds of its own, and keeps them through the round trip`() {
        val own = ScenarioParser.parse(
            "name: x\nduration: 1s\nsizes: [1kb, 1mb]\nforks: 5\nmaxForks: 7\nrounds: 3\n" +
                "forksByTarget: {1mb: 4}\nroundsByTarget: {1mb: 2}",
            "t",
        )
        val (small, large) = own.conditions
        assertThat(listOf(own.forksOf(small), own.maxForksOf(small), own.roundsOf(small))).containsExactly(5, 7, 3)
        // The maximum keeps the scenario's distance from the minimum: the same looks in every condition.
        assertThat(listOf(own.forksOf(large), own.maxForksOf(large), own.roundsOf(large))).containsExactly(4, 6, 2)
        assertThat(own.forksRange()).isEqualTo("4-7")
        assertThat(own.forksText()).isEqualTo("4–5")
        assertThat(ScenarioParser.validate(own.toFile(), "again")).isEqualTo(own)
        // The record keeps each condition's own numbers, and only those.
        val record = own.toRecord()
        assertThat(record.conditions.map { it.forks to it.rounds }).containsExactly(null to null, 4 to 2)
        assertThat(listOf(record.forksOf(large.label), record.maxForksOf(large.label), record.roundsOf(large.label)))
            .containsExactly(4, 6, 2)
        assertThat(record.forksOf(small.label)).isEqualTo(5)
    }

    @Test
    fun `forks of a target outside 2 to forks, rounds outside 1 to 9 or a name no target has are refused with what is accepted`() {
        val sizes = "name: x\nduration: 1s\nsizes: [1kb, 1mb]\nforks: 5\n"
        assertThat(violations(sizes + "forksByTarget: {1mb: 6}").single().accepted).contains("from 2 to forks (5)")
        assertThat(violations(sizes + "forksByTarget: {1mb: 1}").single().field).isEqualTo("forksByTarget.1mb")
        val unknown = violations(sizes + "forksByTarget: {10kb: 3}").single()
        assertThat(unknown.field).isEqualTo("forksByTarget.10kb")
        assertThat(unknown.accepted).contains("1kb, 1mb")
        assertThat(violations(sizes + "roundsByTarget: {1mb: 10}").single().accepted).contains("from 1 to 9")
        assertThat(violations(sizes + "roundsByTarget: {1mb: two}").single().field).isEqualTo("roundsByTarget.1mb")
        assertThat(violations(sizes + "forksByTarget: [4]").single().accepted).contains("{1mb: 4}")
    }

    @Test
    fun `seed 003 runs its own tools by virtual users, and seedTools is refused where the tools cannot do what the seed did`() {
        val seed003 = ScenarioCatalog.load("seed003")
        assertThat(seed003.seedTools).isEqualTo(mapOf(10 to 100, 100 to 10_000))
        assertThat(ScenarioParser.validate(seed003.toFile(), "again").seedTools).isEqualTo(seed003.seedTools)

        val direct = "name: x\nduration: 1s\nmembers: {images: [88]}\ntopology: direct\nload: {model: closed, vus: [10]}\n"
        assertThat(ScenarioParser.parse(direct + "seedTools: {10: 100}", "t").seedTools)
            .containsExactly(org.assertj.core.api.Assertions.entry(10, 100))
        assertThat(violations(direct + "seedTools: {20: 100}").single().accepted).isEqualTo("the virtual users of the closed load: 10")
        assertThat(violations(direct + "seedTools: {10: 0}").single().accepted).contains("from 1 to 1000000")
        assertThat(violations(direct + "seedTools: {10: many}").single().field).isEqualTo("seedTools.10")
        assertThat(violations(direct + "protocols: [HTTP/Binary]\nseedTools: {10: 100}").single().accepted)
            .contains("HTTP/JSON (hey)", "gRPC/Unary (ghz)")
        assertThat(
            violations("name: x\nduration: 1s\nmembers: {images: [88]}\nload: {model: closed, vus: [10]}\nseedTools: {10: 100}")
                .single().accepted,
        ).contains("only with topology direct")
        assertThat(
            violations("name: x\nduration: 1s\nsizes: [1kb]\ntopology: direct\nload: {model: closed, vus: [10]}\nseedTools: {10: 100}")
                .single().accepted,
        ).contains("only with members:")
    }

    @Test
    fun `topology direct has no null hop, refuses what needs the gateway, naming what is accepted, and takes a network`() {
        val direct = ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb]\ntopology: direct", "t")
        assertThat(direct.topology).isEqualTo(Topology.DIRECT)
        assertThat(direct.arms.map { it.label }).containsExactly("HTTP/JSON", "HTTP/Binary", "gRPC/Unary", "gRPC/Stream")
        assertThat(ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb]", "t").arms.map { it.label }).contains("Null hop")
        // Written back (as run.json's resume does), the topology survives.
        assertThat(direct.toFile().topology).isEqualTo("direct")

        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ntopology: mesh").single().accepted).isEqualTo("gateway or direct")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\ntopology: direct\nnullHop: true").single().field).isEqualTo("nullHop")
        assertThat(violations("name: x\nduration: 1s\ncomplexities: [simple]\ntopology: direct").single().accepted)
            .contains("payload sizes and member creation")
        // Member creation goes direct one member per request: the data-server's HTTP side takes no batch.
        val writes = ScenarioParser.parse("name: x\nduration: 1s\nmembers: {images: [1kb]}\ntopology: direct", "t")
        assertThat(writes.writes).isTrue()
        assertThat(writes.arms.map { it.label }).doesNotContain("Null hop")
        val batch = violations("name: x\nduration: 1s\nmembers: {images: [1kb], batch: 10}\ntopology: direct").single()
        assertThat(batch.field).isEqualTo("members.batch")
        assertThat(batch.accepted).contains("batches need the gateway")
        val settings = violations(
            "name: x\nduration: 1s\nsizes: [1kb]\ntopology: direct\n" +
                "variants: [{name: a}, {name: b, gateway: {protobench.gateway.http.version: H2C}}]",
        )
        assertThat(settings.single().accepted).contains("gateway settings")
        // A network profile puts k6 on the near side of the link: direct takes it.
        val networks = ScenarioParser.parse(
            "name: x\nduration: 1s\nsizes: [1kb]\ntopology: direct\n" +
                "variants: [{name: a, network: region}, {name: b, network: wan}]",
            "t",
        )
        assertThat(networks.variants.map { it.network }).containsExactly("region", "wan")
    }

    @Test
    fun `broken YAML is an error naming the document, not a crash`() {
        assertThat(violations("name: \"unterminated").single().field).isEqualTo("(document)")
        // A wrong type no longer stops the reading: the missing fields are reported with it.
        val v = violations("name: x\nforks: many")
        assertThat(v.map { it.field }).containsExactly("forks", "sizes|complexities|members|message", "duration")
        assertThat(v.first().accepted).contains("whole number")
    }

    @Test
    fun `an unknown scenario name or missing file says what is accepted`() {
        val e = catchThrowableOfType(InvalidScenario::class.java) { ScenarioCatalog.load("phase99") }
        assertThat(e.violations.single().accepted).contains("quick", "phase7", "YAML file")
    }
}
