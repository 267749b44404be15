package io.protobench.bench.scenario

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.lab.plans.DriverPlans
import io.protobench.bench.report.Analysis
import io.protobench.bench.run.toRecord
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test

/** `hopClients:` further sets of the gateway's hop clients, measured as arms of their own in one server pair. */
class HopClientsTest {
    private val head = "name: c\nduration: 1s\nsizes: [10kb]\nprotocols: [HTTP/Binary, gRPC/Unary]\n"

    private val twoSets = """
        hopClients:
          - {name: h2c, gateway: {protobench.gateway.http.version: h2c}, protocols: [HTTP/Binary]}
          - {name: channels-4, gateway: {protobench.gateway.grpc.channels: 4}, protocols: [gRPC/Unary]}
    """.trimIndent()

    private fun parse(text: String) = ScenarioParser.parse(head + text, "test.yaml")

    private fun violations(text: String): List<Violation> = catchThrowableOfType(InvalidScenario::class.java) { parse(text) }.violations

    @Test
    fun `each set adds an arm per protocol it names, before the controls, labelled with its name`() {
        val scenario = parse(twoSets)

        assertThat(scenario.arms.map { it.label })
            .containsExactly("HTTP/Binary", "gRPC/Unary", "HTTP/Binary (h2c)", "gRPC/Unary (channels-4)", "Null hop")
        assertThat(scenario.hopClients.first().gateway).containsExactlyEntriesOf(mapOf("protobench.gateway.http.version" to "H2C"))
        assertThat(Arm.clientOf("HTTP/Binary (h2c)")).isEqualTo("h2c")
        assertThat(Arm.clientOf("HTTP/Binary")).isNull()
        assertThat(Arm.clientOf("HTTP/Binary (A/A)")).isNull()
    }

    @Test
    fun `an arm on a set asks the gateway for it by name, the gateway's own arms do not`() {
        val scenario = parse(twoSets)
        val condition = scenario.conditions.single()
        fun path(label: String) = DriverPlans.target(Cell(condition, scenario.arms.single { it.label == label }), { _, _ -> null }).path

        assertThat(path("HTTP/Binary (h2c)")).isEqualTo("/api/data/http/binary?size=10kb&client=h2c")
        assertThat(path("gRPC/Unary (channels-4)")).isEqualTo("/api/data/grpc?size=10kb&client=channels-4")
        assertThat(path("HTTP/Binary")).isEqualTo("/api/data/http/binary?size=10kb")
    }

    @Test
    fun `every arm on a set is compared with every protocol and every other such arm, as protocols are`() {
        val record = parse(twoSets).toRecord()
        val (within, across) = Analysis.comparedPairs(record, record.arms.toSet())

        assertThat(within).containsExactlyInAnyOrder(
            "HTTP/Binary" to "gRPC/Unary",
            "HTTP/Binary" to "HTTP/Binary (h2c)",
            "HTTP/Binary" to "gRPC/Unary (channels-4)",
            "gRPC/Unary" to "HTTP/Binary (h2c)",
            "gRPC/Unary" to "gRPC/Unary (channels-4)",
            "HTTP/Binary (h2c)" to "gRPC/Unary (channels-4)",
        )
        assertThat(across).isEmpty()
    }

    @Test
    fun `the gateway gets each set's properties under its name`() {
        assertThat(parse(twoSets).hopClients.map { it.properties() }).containsExactly(
            mapOf("protobench.gateway.clients.h2c.http.version" to "H2C"),
            mapOf("protobench.gateway.clients.channels-4.grpc.channels" to "4"),
        )
    }

    @Test
    fun `the sets survive the record's file form`() {
        val scenario = parse(twoSets)
        val again = ScenarioParser.validate(
            JsonFiles.mapper.readValue(JsonFiles.mapper.writeValueAsString(scenario.toFile()), ScenarioFile::class.java),
            "record",
        )

        assertThat(again.hopClients).isEqualTo(scenario.hopClients)
        assertThat(again.arms).isEqualTo(scenario.arms)
    }

    @Test
    fun `a bad name, a setting a set cannot change, a bad value and a protocol the settings do not act on are each refused`() {
        val v = violations(
            """
            hopClients:
              - {name: H2C, gateway: {protobench.gateway.http.version: h2c}, protocols: [HTTP/Binary]}
              - {name: tls, gateway: {protobench.gateway.compression: gzip}, protocols: [HTTP/Binary]}
              - {name: wide, gateway: {protobench.gateway.grpc.channels: 65}, protocols: [gRPC/Unary]}
              - {name: h2c-grpc, gateway: {protobench.gateway.http.version: H2C}, protocols: [gRPC/Unary, HTTP/JSON]}
              - {name: none, gateway: {protobench.gateway.grpc.channels: 2}}
            """.trimIndent(),
        )

        assertThat(v.map { it.field }).containsExactlyInAnyOrder(
            "hopClients[0].name",
            "hopClients[1].gateway.protobench.gateway.compression",
            "hopClients[2].gateway.protobench.gateway.grpc.channels",
            "hopClients[3].protocols[0]",
            "hopClients[3].protocols[1]",
            "hopClients[4].protocols",
        )
        assertThat(v.single { it.field == "hopClients[3].protocols[0]" }.accepted).endsWith("act on: HTTP/Binary")
        assertThat(v.single { it.field == "hopClients[2].gateway.protobench.gateway.grpc.channels" }.accepted).contains("1..64")
    }

    @Test
    fun `two sets of one name, topology direct and member creation are refused`() {
        val same = violations(
            """
            hopClients:
              - {name: h2c, gateway: {protobench.gateway.http.version: H2C}, protocols: [HTTP/Binary]}
              - {name: h2c, gateway: {protobench.gateway.http.pool-size: 10}, protocols: [HTTP/Binary]}
            """.trimIndent(),
        )
        assertThat(same.map { it.field }).containsExactly("hopClients")

        val direct = violations("topology: direct\n$twoSets")
        assertThat(direct.map { it.field }).contains("topology")

        val members = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse(
                "name: m\nduration: 1s\nmembers: {images: [1kb]}\nprotocols: [HTTP/Binary, gRPC/Unary]\n$twoSets",
                "t.yaml",
            )
        }.violations
        assertThat(members.map { it.field }).contains("hopClients")
    }
}
