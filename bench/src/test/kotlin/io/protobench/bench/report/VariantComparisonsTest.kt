package io.protobench.bench.report

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.VariantPairs
import io.protobench.bench.scenario.toFile
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test

/** Which variants a condition compares on each protocol: every pair, or each against the baseline (`compareVariants`). */
class VariantComparisonsTest {
    private fun scenario(compare: String?, httpOnly: String = "", grpcOnly: String = "") = ScenarioParser.parse(
        """
        name: v
        duration: 1s
        sizes: [10kb]
        protocols: [HTTP/JSON, gRPC/Unary]
        ${compare?.let { "compareVariants: $it" } ?: ""}
        variants:
          - {name: baseline, gateway: {protobench.gateway.http.version: HTTP_1_1}}
          - {name: h2c, gateway: {protobench.gateway.http.version: H2C}$httpOnly}
          - {name: pool-10, gateway: {protobench.gateway.http.pool-size: 10}$httpOnly}
          - {name: channels-4, gateway: {protobench.gateway.grpc.channels: 4}$grpcOnly}
        """.trimIndent(),
        "test.yaml",
    )

    /** Each setting acts on the protocols it names only. */
    private fun scoped(compare: String?, http: String = "[http/json]") =
        scenario(compare, httpOnly = ", affects: $http", grpcOnly = ", affects: [gRPC/Unary]")

    private fun acrossVariants(record: ScenarioRecord): List<Pair<String, String>> =
        Analysis.comparedPairs(record, record.arms.toSet()).second

    @Test
    fun `every two variants are compared on each protocol unless the scenario asks for the baseline only`() {
        val everyPair = acrossVariants(scenario(null).toRecord())
        assertThat(everyPair).hasSize(2 * 6) // two protocols, six pairs of four variants
            .contains("HTTP/JSON · h2c" to "HTTP/JSON · pool-10")

        val baseline = acrossVariants(scenario("baseline").toRecord())
        assertThat(baseline).containsExactly(
            "HTTP/JSON · baseline" to "HTTP/JSON · h2c",
            "HTTP/JSON · baseline" to "HTTP/JSON · pool-10",
            "HTTP/JSON · baseline" to "HTTP/JSON · channels-4",
            "gRPC/Unary · baseline" to "gRPC/Unary · h2c",
            "gRPC/Unary · baseline" to "gRPC/Unary · pool-10",
            "gRPC/Unary · baseline" to "gRPC/Unary · channels-4",
        )
        // A baseline arm not measured (its variant rejected) leaves that protocol nothing to compare with.
        val record = scenario("baseline").toRecord()
        assertThat(Analysis.comparedPairs(record, record.arms.filterNot { it == "gRPC/Unary · baseline" }.toSet()).second)
            .allMatch { (x, _) -> x == "HTTP/JSON · baseline" }
            .hasSize(3)
    }

    @Test
    fun `the choice is kept in the scenario's file form and in run_json, and old records read as every pair`() {
        val scenario = scenario("baseline")
        assertThat(scenario.compareVariants).isEqualTo(VariantPairs.BASELINE)
        assertThat(ScenarioParser.validate(scenario.toFile(), "round trip")).isEqualTo(scenario)
        val json = JsonFiles.mapper.writeValueAsString(scenario.toRecord())
        assertThat(JsonFiles.mapper.readValue(json, ScenarioRecord::class.java).compareVariants).isEqualTo(VariantPairs.BASELINE)
        // The default writes nothing, so records from before the field keep their bytes.
        assertThat(JsonFiles.mapper.writeValueAsString(scenario(null).toRecord())).doesNotContain("compareVariants")
        assertThat(scenario(null).toFile().compareVariants).isNull()
    }

    @Test
    fun `a variant is compared only on the protocols it acts on, and still measures every protocol`() {
        val record = scoped("baseline").toRecord()
        assertThat(acrossVariants(record)).containsExactly(
            "HTTP/JSON · baseline" to "HTTP/JSON · h2c",
            "HTTP/JSON · baseline" to "HTTP/JSON · pool-10",
            "gRPC/Unary · baseline" to "gRPC/Unary · channels-4",
        )
        // Between two settings, a protocol is compared where both act on it.
        assertThat(acrossVariants(scoped(null).toRecord())).containsExactlyInAnyOrder(
            "HTTP/JSON · baseline" to "HTTP/JSON · h2c",
            "HTTP/JSON · baseline" to "HTTP/JSON · pool-10",
            "HTTP/JSON · h2c" to "HTTP/JSON · pool-10",
            "gRPC/Unary · baseline" to "gRPC/Unary · channels-4",
        )
        // Under each setting both protocols run and are compared with each other.
        assertThat(record.arms).contains("gRPC/Unary · h2c", "HTTP/JSON · channels-4")
        assertThat(Analysis.comparedPairs(record, record.arms.toSet()).first).contains("HTTP/JSON · h2c" to "gRPC/Unary · h2c")
    }

    @Test
    fun `what a variant acts on is kept in its label's spelling in run_json and the file form, and left out when it is every protocol`() {
        val scenario = scoped("baseline")
        assertThat(
            scenario.variants.map {
                it.affects
            },
        ).containsExactly(emptyList(), listOf("HTTP/JSON"), listOf("HTTP/JSON"), listOf("gRPC/Unary"))
        assertThat(ScenarioParser.validate(scenario.toFile(), "round trip")).isEqualTo(scenario)
        val json = JsonFiles.mapper.writeValueAsString(scenario.toRecord())
        assertThat(JsonFiles.mapper.readValue(json, ScenarioRecord::class.java).variants).isEqualTo(scenario.variants)
        assertThat(JsonFiles.mapper.writeValueAsString(scenario("baseline").toRecord())).doesNotContain("affects")
    }

    @Test
    fun `a protocol the scenario does not run, or none at all, is refused with the scenario's protocols`() {
        val other = catchThrowableOfType(InvalidScenario::class.java) { scoped("baseline", "[HTTP/Binary]") }.violations
        assertThat(other.map { it.field }).containsExactly("variants[1].affects[0]", "variants[2].affects[0]")
        assertThat(other.first().toString()).contains("HTTP/Binary").contains("HTTP/JSON, gRPC/Unary")
        val none = catchThrowableOfType(InvalidScenario::class.java) { scoped("baseline", "[]") }.violations
        assertThat(none.map { it.field }).contains("variants[1].affects")
        val twice = catchThrowableOfType(InvalidScenario::class.java) { scoped("baseline", "[HTTP/JSON, http/json]") }.violations
        assertThat(twice.first().toString()).contains("each protocol at most once")
    }

    @Test
    fun `a choice not offered is refused with what is`() {
        val violation = catchThrowableOfType(InvalidScenario::class.java) { scenario("first") }.violations.single()
        assertThat(violation.field).isEqualTo("compareVariants")
        assertThat(violation.toString()).contains("every-pair or baseline")
    }
}
