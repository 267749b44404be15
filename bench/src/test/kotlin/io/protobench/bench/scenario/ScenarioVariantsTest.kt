package io.protobench.bench.scenario

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.scenario.Database
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.ScenarioFile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Variant
import io.protobench.bench.scenario.Violation
import io.protobench.bench.scenario.toFile
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test

/** `variants:` in scenario files: named server-pair configurations, checked before any server starts. */
class ScenarioVariantsTest {
    private val head = "name: v\nduration: 1s\nsizes: [1kb]\n"

    private fun parse(variants: String, serverHeapBytes: Long = ServerHeap.DEFAULT_BYTES) =
        ScenarioParser.parse(head + variants.trimIndent(), "test.yaml", serverHeapBytes)

    private fun violations(variants: String): List<Violation> = catchThrowableOfType(InvalidScenario::class.java) {
        parse(variants)
    }.violations

    private fun List<Violation>.at(field: String) = single { it.field == field }

    private val twoVariants = """
        variants:
          - {name: zero-copy, dataServer: {protobench.data.grpc-payload-mode: shared}}
          - {name: copyFrom,  dataServer: {protobench.data.grpc-payload-mode: copy}}
          - name: big-heap-zgc
            gateway: {protobench.gateway.grpc.channels: 4, protobench.gateway.http.version: h2c}
            jvm: [-XX:+UseZGC, -XX:+ZGenerational]
            heap: 2g
            jdk: 25
    """

    @Test
    fun `variants parse with their properties, options, heap and JDK`() {
        val variants = parse(twoVariants).variants
        assertThat(variants.map { it.name }).containsExactly("zero-copy", "copyFrom", "big-heap-zgc")
        assertThat(variants[1].dataServer).containsExactlyEntriesOf(mapOf("protobench.data.grpc-payload-mode" to "copy"))
        // Numbers are text, and a closed set's value is kept in one spelling.
        assertThat(variants[2]).isEqualTo(
            Variant(
                name = "big-heap-zgc",
                gateway = mapOf("protobench.gateway.grpc.channels" to "4", "protobench.gateway.http.version" to "H2C"),
                jvmOptions = listOf("-XX:+UseZGC", "-XX:+ZGenerational"),
                heap = "2g",
                jdk = "25",
            ),
        )
        assertThat(parse(twoVariants).armLabels).contains("gRPC/Unary · copyFrom", "Null hop · big-heap-zgc")
    }

    @Test
    fun `a property name not settable is refused, misspelt, set by the lab or the other server's`() {
        val v =
            violations(
                """
            variants:
              - {name: a, dataServer: {protobench.data.grpc-payload-mod: copy}}
              - {name: b, dataServer: {protobench.data.grpc.port: 9999}}
              - {name: c, dataServer: {protobench.gateway.grpc.channels: 2}}
        """,
            )
        assertThat(v.map { it.field }).containsExactly(
            "variants[0].dataServer.protobench.data.grpc-payload-mod",
            "variants[1].dataServer.protobench.data.grpc.port",
            "variants[2].dataServer.protobench.gateway.grpc.channels",
        )
        assertThat(v[0].toString()).contains(
            "variants[0].dataServer: unknown setting 'protobench.data.grpc-payload-mod' " +
                "(did you mean protobench.data.grpc-payload-mode?)",
        )
        assertThat(v[0].accepted).contains("protobench.data.complex-encoding")
        assertThat(v[1].toString()).contains("'protobench.data.grpc.port' is set by the lab, not by a scenario")
        assertThat(v[2].toString()).contains("a gateway setting: write it under gateway")
    }

    @Test
    fun `a value not accepted says what is`() {
        val v =
            violations(
                """
            variants:
              - {name: a, dataServer: {protobench.data.grpc-payload-mode: copyy}}
              - {name: b, gateway: {protobench.gateway.grpc.channels: 65, protobench.gateway.http.pool-size: [1]}}
        """,
            )
        assertThat(v.at("variants[0].dataServer.protobench.data.grpc-payload-mode").toString())
            .contains("= 'copyy': accepted shared or copy")
        assertThat(v.at("variants[1].gateway.protobench.gateway.grpc.channels").accepted).isEqualTo("1..64")
        assertThat(v.at("variants[1].gateway.protobench.gateway.http.pool-size").accepted).contains("one value per property")
    }

    @Test
    fun `names are valid and unique, letter case aside`() {
        val v =
            violations(
                """
            variants:
              - {name: copy, dataServer: {protobench.data.grpc-payload-mode: copy}}
              - {name: Copy, dataServer: {protobench.data.grpc-payload-mode: shared}}
              - {name: "a · b", heap: 2g}
              - {heap: 4g}
        """,
            )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("variants", "variants[2].name", "variants[3].name")
        assertThat(v.at("variants").accepted).contains("at most once", "copy and Copy")
        assertThat(v.at("variants[3].name").toString()).contains("is missing")
    }

    @Test
    fun `variants that set the same are refused`() {
        val v =
            violations(
                """
            variants:
              - {name: a, gateway: {protobench.gateway.http.version: H2C}}
              - {name: b, gateway: {protobench.gateway.http.version: h2c}}
              - {name: c}
              - {name: d, jvm: []}
        """,
            )
        assertThat(v.map { it.problem }).containsExactly("variants a and b differ in nothing", "variants c and d differ in nothing")
    }

    @Test
    fun `a database is a variant's only where members are created, h2 or postgresql`() {
        val writes = ScenarioParser.parse(
            "name: v\nduration: 1s\nmembers: {images: [1kb]}\nvariants: [{name: a, database: H2}, {name: b, database: postgresql}]",
            "t",
        )
        assertThat(writes.variants.map { it.store }).containsExactly(Database.H2, Database.POSTGRESQL)
        assertThat(writes.toFile().variants!!.map { it.database }).containsExactly("h2", "postgresql")
        // Leaving it out is H2: the same configuration under two names.
        val same = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse("name: v\nduration: 1s\nmembers: {images: [1kb]}\nvariants: [{name: a}, {name: b, database: h2}]", "t")
        }.violations
        assertThat(same.single().problem).contains("differ in nothing")
        assertThat(violations("variants: [{name: a, database: postgresql}, {name: b}]").at("variants[0].database").accepted)
            .contains("only with members")
        val unknown = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse("name: v\nduration: 1s\nmembers: {images: [1kb]}\nvariants: [{name: a, database: mysql}, {name: b}]", "t")
        }.violations
        assertThat(unknown.single().accepted).isEqualTo("h2 or postgresql")
        // PostgreSQL listens on this machine's loopback, out of reach of a data-server behind a link.
        val behindLink = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse(
                "name: v\nduration: 1s\nmembers: {images: [1kb]}\nvariants: [{name: a, network: region, database: PostgreSQL}, {name: b}]",
                "t",
            )
        }.violations
        assertThat(behindLink.single().field).isEqualTo("variants[0].network")
        assertThat(behindLink.single().accepted).contains("no network with PostgreSQL", "database: h2, or no network")
        val h2BehindLink = ScenarioParser.parse(
            "name: v\nduration: 1s\nmembers: {images: [1kb]}\nvariants: [{name: a, network: region}, {name: b}]",
            "t",
        )
        assertThat(h2BehindLink.variants.map { it.network }).containsExactly("region", null)
    }

    @Test
    fun `heap, JVM options and JDK are checked`() {
        val v =
            violations(
                """
            variants:
              - {name: a, heap: 2gb}
              - {name: b, heap: 32m}
              - {name: c, jvm: [-Xmx4g, -XX:MaxHeapSize=4g, -jar, XX:+UseZGC]}
              - {name: d, jdk: 16}
              - {name: e, jdk: jdks/25}
              - {name: f, jdk: /opt/jdk-25, heap: 512M}
        """,
            )
        assertThat(v.map { it.field }).containsExactly(
            "variants[0].heap",
            "variants[1].heap",
            "variants[2].jvm[0]",
            "variants[2].jvm[1]",
            "variants[2].jvm[2]",
            "variants[2].jvm[3]",
            "variants[3].jdk",
            "variants[4].jdk",
        )
        assertThat(v.at("variants[1].heap").accepted).contains("at least 64m")
        assertThat(v.at("variants[2].jvm[0]").toString()).contains("variants[2].jvm[0]: '-Xmx4g' sizes the heap; use heap")
        assertThat(v.at("variants[2].jvm[2]").toString()).contains("variants[2].jvm[2]: '-jar' would replace the server")
        assertThat(v.at("variants[2].jvm[3]").accepted).contains("starting with '-'")
        assertThat(v.at("variants[3].jdk").accepted).contains("from 17", "absolute path")
    }

    @Test
    fun `unknown fields in a variant, entries that are not variants and too many are reported`() {
        val v =
            violations(
                """
            variants:
              - copy
              - {name: a, dataserver: {protobench.data.grpc-payload-mode: copy}, heap: 1x}
        """,
            )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("variants[0]", "variants[1].dataserver", "variants[1].heap")
        assertThat(v.at("variants[1].dataserver").toString())
            .contains("unknown field 'variants[1].dataserver' (did you mean variants.dataServer?)")
        assertThat(v.at("variants[1].dataserver").accepted).contains("name", "gateway", "dataServer", "jvm", "heap", "jdk")
        assertThat(violations("heap: 2g").single().toString()).contains("did you mean variants.heap?")

        val tooMany = (1..17).joinToString("\n", prefix = "variants:\n") { "  - {name: v$it, heap: ${1000 + it}m}" }
        assertThat(violations(tooMany).single().accepted).contains("at most 16 variants")
        assertThat(violations("variants: []").single().accepted).contains("at least one variant")
    }

    @Test
    fun `the heap estimate holds for the variant with the least heap`() {
        val big = "sizes: [8mb]\nload: {vus: [100]}\n"
        val v = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse(
                "name: v\nduration: 1s\n$big" + "variants: [{name: small, heap: 2g}, {name: large, heap: 4g}]",
                "t",
                8 * ServerHeap.GIB,
            )
        }.violations.single()
        assertThat(v.toString()).contains("the servers of variant small have 2 GiB (raise its heap, e.g. heap: 4g, or lower load.vus)")
        val fits = ScenarioParser.parse("name: v\nduration: 1s\n$big" + "variants: [{name: a, heap: 4g}, {name: b, heap: 5g}]", "t")
        assertThat(fits.variants).hasSize(2)
        val runHeap = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse("name: v\nduration: 1s\n$big" + "variants: [{name: a, heap: 4g}, {name: b}]", "t")
        }.violations.single()
        assertThat(runHeap.toString()).contains("the servers have 1 GiB (raise it with --jvm-opt -Xmx4g")
    }

    @Test
    fun `variants survive the file form and the run record, as resume and overrides need`() {
        val scenario = parse(twoVariants)
        assertThat(ScenarioParser.validate(scenario.toFile(), "round trip")).isEqualTo(scenario)
        val json = JsonFiles.mapper.writeValueAsString(scenario.toFile())
        assertThat(JsonFiles.mapper.readValue(json, ScenarioFile::class.java)).isEqualTo(scenario.toFile())
        assertThat(parse("").toFile().variants).isNull()
    }
}
