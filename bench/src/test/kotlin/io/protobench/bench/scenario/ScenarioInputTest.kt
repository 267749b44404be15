package io.protobench.bench.scenario

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.ListCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.cli.ReportCommand
import io.protobench.bench.cli.RunCommand
import io.protobench.bench.cli.ServeCommand
import io.protobench.bench.design.Lab
import io.protobench.bench.measure.Calibration
import io.protobench.bench.scenario.InvalidScenario
import io.protobench.bench.scenario.LoadFile
import io.protobench.bench.scenario.MembersFile
import io.protobench.bench.scenario.ScenarioCatalog
import io.protobench.bench.scenario.ScenarioFields
import io.protobench.bench.scenario.ScenarioFile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.SoakFile
import io.protobench.bench.scenario.VariantFile
import io.protobench.bench.scenario.Violation
import io.protobench.bench.testkit.Fixtures
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import kotlin.reflect.full.primaryConstructor

/** Every class of bad input: reported whole, with field, value and what is accepted, and exit 2 from the CLI. */
class ScenarioInputTest {
    @TempDir
    lateinit var tmp: Path

    private fun violations(yaml: String): List<Violation> =
        catchThrowableOfType(InvalidScenario::class.java) { ScenarioParser.parse(yaml.trimIndent(), "test.yaml") }.violations

    private fun List<Violation>.at(field: String) = single { it.field == field }

    @Test
    fun `unknown, misplaced and retired fields are all reported with a suggestion`() {
        val v = violations(
            """
            name: x
            duration: 5s
            sizes: [1kb]
            vus: [10]
            maxVus: 20
            window: 3s
            repetitions: 3
            warmup: 10s
            warmupRounds: 2
            protocol: [grpc]
            load: {model: closed, vus: [10], windw: 1s}
            soak: {min: 5s, rates: [3]}
        """,
        )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder(
            "vus", "maxVus", "window", "repetitions", "warmup", "warmupRounds", "protocol", "load.windw", "soak.rates",
        )
        assertThat(v.at("vus").toString()).contains("unknown field 'vus' (did you mean load.vus?)")
        assertThat(v.at("maxVus").toString()).contains("did you mean load.maxVus?")
        assertThat(v.at("window").toString()).contains("did you mean soak.window?")
        assertThat(v.at("repetitions").toString()).contains("field 'repetitions' was renamed: use forks")
        assertThat(v.at("warmup").toString()).contains("replaced by soak: {window, min, max}")
        assertThat(v.at("warmupRounds").toString()).contains("replaced by soak: {window, min, max}")
        assertThat(v.at("repetitions").accepted).startsWith("forks:")
        assertThat(v.at("protocol").toString()).contains("did you mean protocols?")
        assertThat(v.at("load.windw").toString()).contains("did you mean soak.window?")
        assertThat(v.at("soak.rates").toString()).contains("did you mean load.rates?")
        assertThat(v.at("load.windw").accepted).contains("model", "vus", "rates", "maxVus")
        assertThat(v).allSatisfy { assertThat(it.source).isEqualTo("test.yaml") }
    }

    @Test
    fun `wrong types are all reported, and not again as missing`() {
        val v = violations(
            """
            name: x
            duration: [5s]
            sizes: 1kb
            protocols: {a: b}
            forks: [3]
            load: {vus: 10, maxVus: 2.5}
            noiseControl: maybe
            soak: 5s
        """,
        )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder(
            "duration",
            "sizes",
            "protocols",
            "forks",
            "load.vus",
            "load.maxVus",
            "noiseControl",
            "soak",
        )
        assertThat(v.at("sizes").value).isEqualTo("1kb")
        assertThat(v.at("sizes").accepted).contains("list of payload sizes")
        assertThat(v.at("forks").value).isEqualTo("[3]")
        assertThat(v.at("forks").accepted).contains("whole number")
        assertThat(v.at("load.vus").accepted).contains("list of virtual-user counts")
        assertThat(v.at("noiseControl").accepted).isEqualTo("true or false")
        assertThat(v.at("soak").accepted).contains("mapping")
    }

    @Test
    fun `a document that is not a mapping, or has a key twice, is one violation`() {
        assertThat(violations("- a\n- b").single().field).isEqualTo("(document)")
        val twice = violations("name: x\nname: y").single()
        assertThat(twice.field).isEqualTo("(document)")
        assertThat(twice.accepted).contains("line 2", "name")
    }

    @Test
    fun `null entries and null fields are reported where they are, once`() {
        val v = violations(
            """
            name: x
            duration: ~
            sizes: [~, 9gb]
            protocols: [~]
            load: {vus: [~]}
        """,
        )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("duration", "sizes[0]", "sizes[1]", "protocols[0]", "load.vus[0]")
        assertThat(v.at("protocols[0]").toString()).contains("field 'protocols[0]' is empty (null)")
        assertThat(v.at("duration").toString()).contains("is empty (null)").doesNotContain("is missing")
        // The entry after a null keeps its own index.
        assertThat(v.at("sizes[1]").value).isEqualTo("9gb")
        assertThat(v.at("sizes[1]").accepted).contains("up to 8mb")

        assertThat(violations("name: x\nduration: 1s\ncomplexities: [~]").map { it.field }).containsExactly("complexities[0]")
    }

    @Test
    fun `repeated sizes, levels, virtual users and rates are rejected`() {
        val sizes = violations("name: x\nduration: 1s\nsizes: [1kb, 1024, 2kb]").single()
        assertThat(sizes.field).isEqualTo("sizes")
        assertThat(sizes.accepted).contains("at most once", "1kb and 1024")
        assertThat(violations("name: x\nduration: 1s\ncomplexities: [simple, SIMPLE]").single().field).isEqualTo("complexities")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nload: {vus: [10, 20, 10]}").single().accepted)
            .contains("at most once", "10 (2 times)")
        assertThat(violations("name: x\nduration: 1s\nsizes: [1kb]\nload: {model: open, rates: [100, 100]}").single().field)
            .isEqualTo("load.rates")
        assertThat(ScenarioParser.parse("name: x\nduration: 1s\nsizes: [1kb, 1mb]\nload: {vus: [10, 20]}", "t").conditions).hasSize(4)
    }

    @Test
    fun `payloads that cannot fit the servers' heap are refused with the estimate`() {
        val yaml = "name: big\nduration: 1s\nsizes: [1kb, 8mb]\nload: {vus: [10, 500]}"
        val v = violations(yaml).single()
        assertThat(v.field).isEqualTo("load.vus")
        assertThat(v.toString()).contains(
            "8mb × 500 VUs needs about 16 GiB of heap in flight; the servers have 1 GiB",
            "--jvm-opt -Xmx16g",
            "or lower load.vus",
        )
        val fits = ScenarioParser.parse(yaml, "t", serverHeapBytes = 16 * ServerHeap.GIB)
        assertThat(ServerHeap.inFlightBytes(fits)).isEqualTo(8L * 1024 * 1024 * 500 * ServerHeap.COPIES_IN_FLIGHT)

        val open = catchThrowableOfType(InvalidScenario::class.java) {
            ScenarioParser.parse("name: o\nduration: 1s\nsizes: [1mb]\nload: {model: open, rates: [10], maxVus: 500}", "t")
        }.violations.single()
        assertThat(open.field).isEqualTo("load.maxVus")
        assertThat(open.toString()).contains("1mb × 500 VUs", "the servers have 1 GiB")
        assertThat(ScenarioCatalog.all())
            .allSatisfy { assertThat(ServerHeap.inFlightBytes(it)).isLessThanOrEqualTo(ServerHeap.DEFAULT_BYTES) }
    }

    @Test
    fun `heap sizes are read as the JVM reads them`() {
        assertThat(ServerHeap.parseSize("512m")).isEqualTo(512L shl 20)
        assertThat(ServerHeap.parseSize("4g")).isEqualTo(4L shl 30)
        assertThat(ServerHeap.parseSize("4G")).isEqualTo(4L shl 30)
        assertThat(ServerHeap.parseSize("1073741824")).isEqualTo(1L shl 30)
        assertThat(listOf("lots", "0", "", "4gb", "-1g")).allSatisfy { assertThat(ServerHeap.parseSize(it)).isNull() }
        assertThat(ServerHeap.maxHeapBytes(listOf("-Xmx1g", "-XX:+UseZGC", "-Xmx4g"))).isEqualTo(4L shl 30)
        assertThat(ServerHeap.maxHeapBytes(listOf("-XX:MaxHeapSize=2g"))).isEqualTo(2L shl 30)
        assertThat(ServerHeap.maxHeapBytes(ServerHeap.DEFAULT_JVM_OPTIONS)).isEqualTo(ServerHeap.GIB)
        val bad = catchThrowableOfType(InvalidScenario::class.java) { ServerHeap.maxHeapBytes(listOf("-Xmxlots")) }.violations.single()
        assertThat(bad.field).isEqualTo("--jvm-opt")
        assertThat(bad.accepted).contains("512m", "4g")
    }

    @Test
    fun `files that are not readable UTF-8 YAML of at most 1 MiB are one violation each`() {
        fun problem(path: Path) = catchThrowableOfType(InvalidScenario::class.java) { ScenarioCatalog.load(path.toString()) }
            .violations.single().toString()

        val latin1 = tmp.resolve("latin1.yaml").also { Files.write(it, "name: caf\u00e9".toByteArray(Charsets.ISO_8859_1)) }
        assertThat(problem(latin1)).contains("is not UTF-8 text")
        assertThat(problem(tmp)).contains("is a folder")
        val empty = tmp.resolve("empty.yaml").also { Files.writeString(it, "") }
        assertThat(problem(empty)).contains("the scenario is empty")
        val comments = tmp.resolve("comments.yaml").also { Files.writeString(it, "# nothing here\n") }
        assertThat(problem(comments)).contains("the scenario is empty")
        val huge = tmp.resolve("huge.yaml").also { Files.writeString(it, "# " + "x".repeat(ScenarioCatalog.MAX_FILE_BYTES.toInt())) }
        assertThat(problem(huge)).contains("larger than 1 MiB")
        assertThat(problem(tmp.resolve("absent.yaml"))).contains("a built-in scenario", "the path of a YAML file")
    }

    @Test
    fun `an unreadable file is one violation`() {
        val locked = tmp.resolve("locked.yaml").also { Files.writeString(it, "name: x") }
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"))
        // Root reads any file it may open; reading this process's memory from offset 0 fails for everyone.
        val unreadable = if (Files.isReadable(locked)) Path.of("/proc/self/mem") else locked
        val v = catchThrowableOfType(InvalidScenario::class.java) { ScenarioCatalog.load(unreadable.toString()) }.violations.single()
        assertThat(v.toString()).contains("cannot read")
    }

    @Test
    fun `the field lists the reader knows are exactly the fields of the file form`() {
        fun fields(type: kotlin.reflect.KClass<*>) = type.primaryConstructor!!.parameters.map { it.name }
        assertThat(ScenarioFields.byMapping.getValue("")).containsExactlyElementsOf(fields(ScenarioFile::class))
        assertThat(ScenarioFields.byMapping.getValue("members")).containsExactlyElementsOf(fields(MembersFile::class))
        assertThat(ScenarioFields.byMapping.getValue("message")).containsExactlyElementsOf(fields(MessageFile::class))
        assertThat(ScenarioFields.byMapping.getValue("load")).containsExactlyElementsOf(fields(LoadFile::class))
        assertThat(ScenarioFields.byMapping.getValue("soak")).containsExactlyElementsOf(fields(SoakFile::class))
        assertThat(ScenarioFields.byMapping.getValue("variants")).containsExactlyElementsOf(fields(VariantFile::class))
    }

    private fun protobench(vararg argv: String) = Protobench().subcommands(RunCommand(), ListCommand(), ReportCommand()).test(argv.toList())

    @Test
    fun `bad flag values and scenarios exit 2 with the message, before any results folder exists`() {
        val results = tmp.resolve("results")
        val big = tmp.resolve("big.yaml").also { Files.writeString(it, "name: big\nduration: 1s\nsizes: [8mb]\nload: {vus: [500]}") }
        val cases = mapOf(
            listOf("--forks", "0") to "flag '--forks/--repetitions/-r' = '0'",
            listOf("--margin", "abc") to "flag '--margin' = 'abc'",
            listOf("--budget", "9999h") to "at most 24h",
            listOf("--mode", "turbo") to "cost or capacity",
            listOf("--protocols", "grpc,,json") to "flag '--protocols[1]' = ''",
            listOf("--jvm-opt=-Xmxlots") to "flag '--jvm-opt' = '-Xmxlots'",
            listOf("--gateway", "protobench.gateway.http.version") to "name=value",
            listOf("--server-java", "42") to "no JDK 42 is installed; give a feature release or a path to a JDK; installed: ",
            listOf("--server-java", tmp.resolve("no-jdk").toString()) to "is not a JDK",
        )
        for ((flags, message) in cases) {
            val result = protobench("run", "quick", "--results", results.toString(), *flags.toTypedArray())
            assertThat(result.statusCode).describedAs("exit of %s", flags).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", flags).contains(message).doesNotContain("Exception")
        }
        val heap = protobench("run", big.toString(), "--jvm-opt=-Xmx4g", "--results", results.toString())
        assertThat(heap.statusCode).isEqualTo(2)
        assertThat(heap.stderr).contains("needs about 16 GiB of heap in flight; the servers have 4 GiB")
        val file = protobench("run", tmp.resolve("nothing.yaml").toString(), "--results", results.toString())
        assertThat(file.statusCode).isEqualTo(2)
        assertThat(results).doesNotExist()
    }

    @Test
    fun `a malformed or second remote server exits 2 with the accepted forms, before any results folder exists`() {
        val results = tmp.resolve("results")
        val cases = mapOf(
            listOf("--data-server", "10.0.0.2:8081") to "not three parts; accepted: HOST:HTTP_PORT:GRPC_PORT",
            listOf("--gateway", "https://10.0.0.3:8080") to "not a gateway address; accepted: an http:// URL",
            listOf("--data-server", "10.0.0.2:8081:9091", "--gateway", "http://10.0.0.3:8080") to "give one remote server",
            listOf("--data-server", "protobench.data.grpc-payload-mode") to "or a remote server's address, HOST:HTTP_PORT:GRPC_PORT",
        )
        for ((flags, message) in cases) {
            val result = protobench("run", "quick", "--results", results.toString(), *flags.toTypedArray())
            assertThat(result.statusCode).describedAs("exit of %s", flags).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", flags).contains(message).doesNotContain("Exception")
        }
        assertThat(results).doesNotExist()
    }

    @Test
    fun `list gives each scenario's time from its minimum forks to its most, or its budget`() {
        val listed = protobench("list")
        assertThat(listed.statusCode).isZero()
        val direct = ScenarioCatalog.load("direct")
        val (least, most) = listOf(false, true).map { direct.estimatedSeconds(atMost = it) / 60 + 1 }
        assertThat(most).describedAs("5 forks take longer than 3").isGreaterThan(least)
        assertThat(listed.stdout.lines().single { it.startsWith("direct ") }).contains("$least-$most m")
        // A fixed design (quick: 5 forks, 4 at 1mb) has one figure.
        val quick = ScenarioCatalog.load("quick")
        assertThat(listed.stdout.lines().single { it.startsWith("quick ") }).contains(" ${quick.estimatedSeconds() / 60 + 1} m")
        assertThat(listed.stdout.lines().single { it.startsWith("decision-map ") }).contains("≤130 m")
    }

    @Test
    fun `rates of an earlier run the run cannot keep exit 2 naming why, before any results folder exists`() {
        val results = tmp.resolve("results")
        val empty = Files.createDirectories(tmp.resolve("empty"))
        val other = io.protobench.bench.run.RunStore.create(tmp.resolve("earlier"), "20261201-120000-map").also {
            it.save(
                Fixtures.record(listOf("size=1mb vus=50"), listOf("HTTP/JSON"), 1) { _, _, _, _ -> null }.copy(
                    runId = "20261201-120000-map",
                    calibrations = listOf(Calibration("size=1mb vus=50", 1, 90.0, "HTTP/JSON", 40, 60)),
                ),
            )
        }.dir
        val cases = mapOf(
            listOf("quick", "--rates-of", empty.toString()) to "--rates-of $empty: no run.json in $empty",
            listOf("quick", "--mode", "capacity", "--rates-of", other.toString()) to
                "scenario quick runs in capacity mode, which has no rates to keep; it needs cost mode",
            listOf("quick", "--rates-of", other.toString()) to
                "run 20261201-120000-map chose no rate for a condition of this run (it chose rates for: size=1mb vus=50; " +
                "this run measures: size=1kb vus=10, size=1mb vus=10)",
        )
        assertRefused(cases, results)
        assertThat(results).doesNotExist()
    }

    @Test
    fun `a database the run cannot use exits 2 naming what is wrong, before any results folder exists`() {
        val results = tmp.resolve("results")
        val refused = "jdbc:postgresql://127.0.0.1:1/lab"
        val cases = mapOf(
            listOf("writes", "--db-url", "jdbc:mysql://db/lab") to
                "--db-url 'jdbc:mysql://db/lab' is not a PostgreSQL JDBC URL: give jdbc:postgresql://HOST[:PORT]/DATABASE",
            listOf("writes", "--db-url", "jdbc:postgresql://db/lab?user=u&password=pw") to
                "carries a password, which would end up in run.json: give it in the environment variable PROTOBENCH_DB_PASSWORD",
            listOf("writes", "--db-url", "jdbc:postgresql://db/lab") to "--db-url jdbc:postgresql://db/lab names no user: give --db-user",
            listOf("writes", "--db-url", "jdbc:postgresql://db/lab", "--db-user", "u", "--db-schema", "Lab") to
                "--db-schema 'Lab' is not a plain lower-case name",
            listOf("writes", "--db-schema", "lab") to "--db-user and --db-schema go with --db-url",
            listOf("quick", "--db-url", refused, "--db-user", "u") to "--db-url: scenario quick creates no members, so it uses no database",
            listOf("writes", "--db-url", refused, "--db-user", "u", "--data-server", "10.0.0.2:8081:9091") to
                "the served data-server writes to the database its own host gives it",
            listOf("writes", "--db-url", refused, "--db-user", "u") to "cannot log in to $refused as u: ",
            // Behind a link the data-server is in a namespace of its own: this machine's loopback is not its.
            listOf("writes", "--network", "region", "--db-url", refused, "--db-user", "u") to
                "--network region with --db-url: no network with PostgreSQL",
        )
        assertRefused(cases, results)
        assertThat(results).doesNotExist()
    }

    @Test
    fun `serve refuses bad input with exit 2 before starting anything`() {
        val cases = mapOf(
            listOf("data-server", "--port", "70000") to "--port 70000: accepted: a TCP port from 1 to 65535",
            listOf("data-server", "--port", "65530") to "--port 65530: serve's control listens on the HTTP port + 10, above 65535",
            listOf("api-server", "--grpc-port", "9091") to "only the data-server serves gRPC",
            listOf("data-server", "--data-server", "10.0.0.2:8081:9091") to "only the api-server (the gateway) has a data-server",
            listOf("api-server", "--data-server", "10.0.0.2:8081") to "not three parts",
            listOf("data-server", "--property", "protobench.data.grpc.executor") to "a Spring property as name=value",
            listOf("data-server", "--bind", "no-such-host.invalid") to "--bind no-such-host.invalid: cannot be resolved",
            listOf("data-server", "--bind", "0.0.0.0") to
                "listens on every interface: name the address or host name the load host will use with --reachable-as",
            listOf("data-server", "--reachable-as", "10.0.0.2:8081") to
                "--reachable-as 10.0.0.2:8081: accepted: a host name or address without a port",
            listOf("data-server", "--reachable-as", "[fd00::2]:8081") to
                "--reachable-as [fd00::2]:8081: accepted: a host name or address without a port",
        )
        for ((argv, message) in cases) {
            val result = Protobench().subcommands(ServeCommand()).test(listOf("serve") + argv)
            assertThat(result.statusCode).describedAs("exit of %s", argv).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", argv).contains(message).doesNotContain("Exception")
        }
    }

    /** Each `run` command line of [cases] exits 2 with its message, and no stack trace. */
    private fun assertRefused(cases: Map<List<String>, String>, results: Path) {
        for ((argv, message) in cases) {
            val result = protobench("run", *argv.toTypedArray(), "--results", results.toString())
            assertThat(result.statusCode).describedAs("exit of %s", argv).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", argv).contains(message).doesNotContain("Exception")
        }
    }

    @Test
    fun `values Clikt cannot convert are a bad command line, exit 1`() {
        val result = protobench("run", "quick", "--forks", "abc", "--results", tmp.resolve("results").toString())
        assertThat(result.statusCode).isEqualTo(1)
        assertThat(result.stderr).contains("--forks", "abc")
        assertThat(tmp.resolve("results")).doesNotExist()
    }

    @Test
    fun `report on a folder without a run record, or of another schema, exits 2`() {
        val none = protobench("report", tmp.toString())
        assertThat(none.statusCode).isEqualTo(2)
        assertThat(none.stderr).contains("no run.json")
        Files.writeString(tmp.resolve("run.json"), """{"schemaVersion": 1}""")
        val old = protobench("report", tmp.toString())
        assertThat(old.statusCode).isEqualTo(2)
        assertThat(old.stderr).contains("schema 1").doesNotContain("Exception")
    }
}
