package io.protobench.bench.export

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.CliktCommandTestResult
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.ExportCommand
import io.protobench.bench.cli.K6OperatorExportCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** `protobench export k6-operator` on the command line: what it prints, its exit codes, and bad input named without a stack trace. */
class ExportCommandTest {
    @TempDir
    lateinit var tmp: Path

    private fun protobench(vararg argv: String): CliktCommandTestResult =
        Protobench().subcommands(ExportCommand().subcommands(K6OperatorExportCommand())).test(argv.toList())

    private fun export(vararg more: String, out: Path = tmp.resolve("out")) =
        protobench("export", "k6-operator", "--out", out.toString(), *more)

    /** Exit 2, the message on stderr, nothing written, no stack trace. */
    private fun assertRefused(result: CliktCommandTestResult, vararg message: String, out: Path = tmp.resolve("out")) {
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(2)
        assertThat(result.stderr).contains("cannot export", *message).doesNotContain("Exception", "\tat ")
        assertThat(out.resolve("README.md")).doesNotExist()
    }

    @Test
    fun `a valid export exits 0, says where the commands are and that the images are the user's to build`() {
        val result = export("--scenario", "quick", "--parallelism", "3")
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(0)
        assertThat(result.stdout).contains("10 TestRuns with parallelism 3", "README.md", "images are not built by this command",
            "protobench/data-server:${ProjectVersion.current}", "Give --rate")
        assertThat(tmp.resolve("out/testruns/10-null-hop.yaml")).exists()
        assertThat(tmp.resolve("out/data-server.Dockerfile")).exists()
    }

    @Test
    fun `an unknown scenario exits 2 naming the accepted ones`() {
        assertRefused(export("--scenario", "quik", "--parallelism", "2"), "quik", *ScenarioCatalog.builtInNames.take(3).toTypedArray())
    }

    @Test
    fun `parallelism outside 1 to the maximum exits 2`() {
        assertRefused(export("--scenario", "quick", "--parallelism", "0"), "--parallelism", "'0'", "from 1 to ${ExportDefaults.MAX_PARALLELISM}")
        assertRefused(export("--scenario", "quick", "--parallelism", "101"), "'101'")
    }

    @Test
    fun `more runners than the smallest load has virtual users exits 2`() {
        assertRefused(export("--scenario", "quick", "--parallelism", "11"), "at most 10 for scenario quick", "some would get none")
        // At a fixed rate the runners share the rate's VU pool (here 50): 11 runners are fine.
        assertThat(export("--scenario", "quick", "--parallelism", "11", "--rate", "400").statusCode).isEqualTo(0)
    }

    @Test
    fun `a folder that is not empty exits 2 unless --force`() {
        val out = Files.createDirectories(tmp.resolve("busy"))
        Files.writeString(out.resolve("notes.txt"), "mine")
        val refused = export("--scenario", "quick", "--parallelism", "2", out = out)
        assertThat(refused.statusCode).isEqualTo(2)
        assertThat(refused.stderr).contains("is not empty", "--force").doesNotContain("Exception")
        val forced = export("--scenario", "quick", "--parallelism", "2", "--force", out = out)
        assertThat(forced.statusCode).describedAs(forced.stderr).isEqualTo(0)
        assertThat(out.resolve("notes.txt")).hasContent("mine")
        assertThat(out.resolve("README.md")).exists()
    }

    @Test
    fun `every bad value is named at once`() {
        val result = export(
            "--scenario", "quick", "--parallelism", "2", "--namespace", "Bench_NS", "--duration", "5s", "--rate", "0",
            "--gateway-image", "not an image", "--server-cpu", "0", "--server-memory", "1Gi", "--runner-memory", "lots",
        )
        assertRefused(result, "--namespace", "--duration", "--rate", "--gateway-image", "--server-cpu", "--server-memory", "--runner-memory")
        assertThat(result.stderr).contains("1g heap")
    }

    @Test
    fun `a scenario with variants exits 2 since the export deploys one server pair`() {
        assertRefused(export("--scenario", "grpc-executor", "--parallelism", "2"), "variants", "one server pair")
        assertRefused(export("--scenario", "direct", "--parallelism", "2"), "topology direct", "drives the gateway only")
        assertRefused(export("--scenario", "writes", "--parallelism", "2"), "creates members", "covers reads only")
    }

    @Test
    fun `a scenario file is exported like a built-in one`() {
        val file = tmp.resolve("mine.yaml")
        Files.writeString(file, "name: mine\ndescription: two sizes\nsizes: [2kb, 3kb]\nprotocols: [gRPC/Unary]\nduration: 5s\nload: {model: open, rates: [100], maxVus: 20}\n")
        val result = export("--scenario", file.toString(), "--parallelism", "4")
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(0)
        assertThat(result.stdout).contains("4 TestRuns").doesNotContain("Give --rate")
        assertThat(Files.readString(tmp.resolve("out/testruns/01-grpc-unary.yaml")))
            .contains("value: \"100\"", "name: MAX_VUS")
    }

    @Test
    fun `export without an engine prints the engines it knows`() {
        val result = protobench("export", "--help")
        assertThat(result.stdout).contains("k6-operator")
    }
}
