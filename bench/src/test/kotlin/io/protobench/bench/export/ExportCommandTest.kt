package io.protobench.bench.export

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.CliktCommandTestResult
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.ExportCommand
import io.protobench.bench.cli.KubernetesExportCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** `protobench export kubernetes` on the command line: what it prints, its exit codes, and bad input named without a stack trace. */
class ExportCommandTest {
    @TempDir
    lateinit var tmp: Path

    private fun protobench(vararg argv: String): CliktCommandTestResult =
        Protobench().subcommands(ExportCommand().subcommands(KubernetesExportCommand())).test(argv.toList())

    private fun export(vararg more: String, out: Path = tmp.resolve("out")) =
        protobench("export", "kubernetes", "--out", out.toString(), *more)

    /** Exit 2, the message on stderr, nothing written, no stack trace. */
    private fun assertRefused(result: CliktCommandTestResult, vararg message: String, out: Path = tmp.resolve("out")) {
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(2)
        assertThat(result.stderr).contains("cannot export", *message).doesNotContain("Exception", "\tat ")
        assertThat(out.resolve("README.md")).doesNotExist()
    }

    @Test
    fun `a valid export exits 0, says where the commands are and that the images are the user's to build`() {
        val result = export("--scenario", "quick", "--pods", "3")
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(0)
        assertThat(result.stdout).contains(
            "12 Jobs of 3 driver pods",
            "README.md",
            "images are not built by this command",
            "protobench/data-server:${ProjectVersion.current}",
            "protobench/load-driver:${ProjectVersion.current}",
            "Give --rate",
        )
        assertThat(tmp.resolve("out/jobs/quick-12-http-json-a-a.yaml")).exists()
        assertThat(tmp.resolve("out/load-driver.Dockerfile")).exists()
    }

    @Test
    fun `an unknown scenario exits 2 naming the accepted ones`() {
        assertRefused(export("--scenario", "quik", "--pods", "2"), "quik", *ScenarioCatalog.builtInNames.take(3).toTypedArray())
    }

    @Test
    fun `pods outside 1 to the maximum exits 2`() {
        assertRefused(export("--scenario", "quick", "--pods", "0"), "--pods", "'0'", "from 1 to ${ExportDefaults.MAX_PODS}")
        assertRefused(export("--scenario", "quick", "--pods", "101"), "'101'")
    }

    @Test
    fun `more pods than the smallest load has users or connections exits 2, in the driver's own words`() {
        assertRefused(
            export("--scenario", "quick", "--pods", "11"),
            "--pods 11: scenario quick: part 10/11 would get no user",
            "at most 10 parts",
        )
        // At a fixed rate the pods share the rate's connection pool (here 50): 11 pods are fine, 51 are not.
        assertThat(export("--scenario", "quick", "--pods", "11", "--rate", "400").statusCode).isEqualTo(0)
        assertRefused(
            export("--scenario", "quick", "--pods", "51", "--rate", "400", out = tmp.resolve("out51")),
            "would get no connection",
            out = tmp.resolve("out51"),
        )
        // A rate one driver cannot send, per pod: 120,000/s over 2 pods.
        assertRefused(
            export("--scenario", "quick", "--pods", "2", "--rate", "120000", out = tmp.resolve("fast")),
            "part 1/2: an open load needs a rate",
            "60000.0",
            out = tmp.resolve("fast"),
        )
    }

    @Test
    fun `a folder that is not empty exits 2 unless --force`() {
        val out = Files.createDirectories(tmp.resolve("busy"))
        Files.writeString(out.resolve("notes.txt"), "mine")
        val refused = export("--scenario", "quick", "--pods", "2", out = out)
        assertThat(refused.statusCode).isEqualTo(2)
        assertThat(refused.stderr).contains("is not empty", "--force").doesNotContain("Exception")
        val forced = export("--scenario", "quick", "--pods", "2", "--force", out = out)
        assertThat(forced.statusCode).describedAs(forced.stderr).isEqualTo(0)
        assertThat(out.resolve("notes.txt")).hasContent("mine")
        assertThat(out.resolve("README.md")).exists()
    }

    @Test
    fun `every bad value is named at once`() {
        val result = export(
            "--scenario", "quick", "--pods", "2", "--namespace", "Bench_NS", "--duration", "5s", "--warm-up", "11m", "--rate", "0",
            "--gateway-image", "not an image", "--driver-image", "Driver!", "--server-cpu", "0",
            "--server-memory", "1Gi", "--driver-memory", "lots",
        )
        assertRefused(
            result,
            "--namespace", "--duration", "--warm-up", "--rate", "--gateway-image",
            "--driver-image", "--server-cpu", "--server-memory", "--driver-memory",
        )
        assertThat(result.stderr).contains("1g heap")
    }

    @Test
    fun `a scenario with variants exits 2 since the export deploys one server pair`() {
        assertRefused(export("--scenario", "grpc-executor", "--pods", "2"), "variants", "one server pair")
        assertRefused(export("--scenario", "direct", "--pods", "2"), "topology direct", "calls the gateway only")
        assertRefused(export("--scenario", "writes", "--pods", "2"), "creates members", "covers reads only")
    }

    @Test
    fun `a scenario file is exported like a built-in one`() {
        val file = tmp.resolve("mine.yaml")
        Files.writeString(
            file,
            "name: mine\ndescription: two sizes\nsizes: [2kb, 3kb]\nprotocols: [gRPC/Unary]\nduration: 5s\n" +
                "load: {model: open, rates: [100], maxVus: 20}\n",
        )
        val result = export("--scenario", file.toString(), "--pods", "4")
        assertThat(result.statusCode).describedAs(result.stderr).isEqualTo(0)
        assertThat(result.stdout).contains("4 Jobs").doesNotContain("Give --rate")
        assertThat(Files.readString(tmp.resolve("out/plans-configmap.yaml"))).contains("\"rate\" : 100.0", "\"maxConnections\" : 20")
    }

    @Test
    fun `export without a platform prints the platforms it knows`() {
        val result = protobench("export", "--help")
        assertThat(result.stdout).contains("kubernetes").doesNotContain("k6-operator")
    }
}
