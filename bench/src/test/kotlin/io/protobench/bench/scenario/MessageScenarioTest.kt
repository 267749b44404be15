package io.protobench.bench.scenario

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.Protobench
import io.protobench.bench.cli.RunCommand
import io.protobench.bench.testkit.PROCESS
import io.protobench.contract.message.ItemCount
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** A scenario that carries the user's own message: `message: {proto, type, sample, counts}`. */
class MessageScenarioTest {
    @TempDir
    lateinit var dir: Path

    private fun scenarioFile(message: String, extra: String = ""): Path {
        Files.writeString(dir.resolve("shop.proto"), "syntax = \"proto3\";\npackage shop;\nmessage Order { string id = 1; }\n")
        Files.writeString(dir.resolve("order.json"), "{\"id\": \"A-1\"}")
        return Files.writeString(dir.resolve("mine.yaml"), "name: mine\nduration: 3s\n$extra" + "message: $message\n")
    }

    private fun violations(file: Path) = catchThrowableOfType(InvalidScenario::class.java) {
        ScenarioCatalog.load(file.toString())
    }.violations

    @Test
    fun `a message scenario measures one condition per count, its files taken from the scenario's folder`() {
        val scenario = ScenarioCatalog.load(
            scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json, counts: [1, 10, 250]}").toString(),
        )
        assertThat(scenario.conditions.map { it.label }).containsExactly("count=1 vus=10", "count=10 vus=10", "count=250 vus=10")
        assertThat(scenario.message).isEqualTo(
            MessageSpec(dir.resolve("shop.proto").toString(), "shop.Order", dir.resolve("order.json").toString()),
        )
        assertThat(scenario.conditions.first().target.gatewayPath(Arm.Of(io.protobench.contract.Protocol.GRPC_STREAM)))
            .isEqualTo("/api/message/grpc/stream?count=1")
        // Written back (run.json, overrides) and read again: the same scenario.
        assertThat(ScenarioParser.validate(scenario.toFile(), "(again)")).isEqualTo(scenario)
    }

    @Test
    fun `without counts a message is measured at one item and at a hundred`() {
        val scenario = ScenarioCatalog.load(scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json}").toString())
        assertThat(scenario.conditions.map { (it.target as Target.Items).count }).containsExactlyElementsOf(ScenarioParser.DEFAULT_COUNTS)
    }

    @Test
    fun `missing files, a malformed type and counts out of range are each named with what is accepted`() {
        val v = violations(scenarioFile("{proto: nope.proto, type: 'shop Order', sample: order.json, counts: [0, 5, 5, 100001]}"))
        assertThat(v.map { it.field }).contains("message.proto", "message.type", "message.counts[0]", "message.counts[3]", "message.counts")
        assertThat(v.first { it.field == "message.proto" }.accepted).contains("nothing usable at", "nope.proto")
        assertThat(v.first { it.field == "message.counts[0]" }.accepted).isEqualTo(ItemCount.ACCEPTED)
    }

    @Test
    fun `a message stands alone, and needs the gateway`() {
        val withSizes = violations(scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json}", extra = "sizes: [1kb]\n"))
        assertThat(withSizes.map { it.field }).containsExactly(ScenarioParser.WORKLOAD_FIELDS)
        val direct = violations(scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json}", extra = "topology: direct\n"))
        assertThat(direct.map { it.field }).contains("topology")
        assertThat(direct.first { it.field == "topology" }.accepted).contains("your own message")
    }

    private fun run(vararg flags: String) =
        Protobench().subcommands(RunCommand()).test(listOf("run", "quick", "--results", dir.resolve("results").toString()) + flags)

    @Test
    fun `message flags that do not fit are refused by the flag the user typed, before anything starts`() {
        scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json}")
        val proto = dir.resolve("shop.proto").toString()
        val sample = dir.resolve("order.json").toString()
        val cases = mapOf(
            listOf("--proto", proto) to "--proto with --message",
            listOf("--message", "shop.Order", "--proto", dir.resolve("nope.proto").toString(), "--sample", sample) to "--proto",
            listOf("--message", "shop.Order", "--proto", proto, "--sample", sample, "--counts", "1,x") to "--counts",
            listOf("--message", "shop.Order", "--proto", proto, "--sample", sample, "--counts", "0") to "--counts[0]",
            listOf("--message", "shop.Order", "--sample", sample) to "--proto",
        )
        for ((flags, named) in cases) {
            val result = run(*flags.toTypedArray())
            assertThat(result.statusCode).`as`(flags.toString()).isEqualTo(2)
            assertThat(result.stderr).`as`(flags.toString()).contains(named).doesNotContain("Exception")
        }
        assertThat(dir.resolve("results")).doesNotExist()
    }

    @Test
    @Tag(PROCESS)
    fun `a type the proto does not define is refused by the check before a run starts`() {
        scenarioFile("{proto: shop.proto, type: shop.Order, sample: order.json}")
        val result =
            run("--message", "shop.Nope", "--proto", dir.resolve("shop.proto").toString(), "--sample", dir.resolve("order.json").toString())
        assertThat(result.statusCode).isEqualTo(2)
        assertThat(result.stderr).contains("message", "shop.Nope").doesNotContain("Exception")
        assertThat(dir.resolve("results")).doesNotExist()
    }
}
