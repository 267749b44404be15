package io.protobench.bench.crossover

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.CrossoverCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.measure.Figure
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Probes
import io.protobench.contract.Protocol
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

/** What `protobench crossover` accepts, the scenario each point runs, and every kind of bad input: exit 2 before anything exists. */
class CrossoverPlanTest {
    @TempDir
    lateinit var tmp: Path

    private fun request(vararg changes: Pair<String, String>): CrossoverRequest {
        val m = mapOf("pair" to "gRPC/Unary,HTTP/Binary", "axis" to "size", "from" to "10kb", "to" to "2mb") + changes
        return CrossoverRequest(m.getValue("pair"), m.getValue("axis"), m.getValue("from"), m.getValue("to"))
    }

    @Test
    fun `each point is one condition with the pair and the null hop, the other axes fixed`() {
        val plan = CrossoverPlan.of(request())
        val s = plan.scenario(3, 143 * 1024L)
        assertThat(s.name).isEqualTo("crossover-3-143kb")
        assertThat(s.protocols).containsExactly(Protocol.GRPC_UNARY, Protocol.HTTP_BINARY)
        assertThat(s.arms).containsExactly(Arm.Of(Protocol.GRPC_UNARY), Arm.Of(Protocol.HTTP_BINARY), Arm.NullHop)
        assertThat(s.conditions.map { it.label }).containsExactly("size=143kb vus=10")
        assertThat(s.mode).isEqualTo(Mode.COST)
        assertThat(s.probes).isEqualTo(Probes.FIRST_FORK)
        assertThat(s.forks to s.maxForks).describedAs("a fixed design: one look at the full alpha").isEqualTo(5 to 5)
        assertThat(s.duration.seconds).isEqualTo(5)
        assertThat(plan.figure).isEqualTo(Figure.HOP_CPU_US)

        val rate = CrossoverPlan.of(CrossoverRequest("grpc,http/json", "rate", "100", "2000", size = "10kb", vus = 40))
        assertThat(rate.scenario(1, 100).conditions.single().load).isEqualTo(LoadLevel.Rate(100, 80))
        assertThat(rate.scenario(1, 100).conditions.single().label).isEqualTo("size=10kb rate=100/s")
        val vus = CrossoverPlan.of(CrossoverRequest("grpc,http/json", "vus", "10", "500", mode = "capacity", forks = 8))
        assertThat(vus.scenario(1, 71).conditions.single().label).isEqualTo("size=1kb vus=71")
        assertThat(vus.figure).isEqualTo(Figure.THROUGHPUT)
        // The hop's latency instead of its CPU: each point is decided on it, and the search's record says so.
        val latency = CrossoverPlan.of(CrossoverRequest("grpc,http/binary", "size", "100kb", "500kb", figure = "hop-p50"))
        assertThat(latency.figure).isEqualTo(Figure.HOP_P50)
        assertThat(latency.verdict.figure).isEqualTo(Figure.HOP_P50)
        assertThat(vus.scenario(1, 71).maxForks).isEqualTo(8) // fixed at the forks asked for
        val looks = CrossoverPlan.of(CrossoverRequest("grpc,http/json", "vus", "10", "500", forks = 3, maxForks = 6))
        assertThat(looks.scenario(1, 71).let { it.forks to it.maxForks }).isEqualTo(3 to 6)
        assertThat(looks.fixed).endsWith("5s per arm, 3–6 forks per point")
        assertThat(plan.fixed).endsWith("5s per arm, 5 forks per point")
        val levels = CrossoverPlan.of(CrossoverRequest("grpc,http/json", "complexity", "simple", "extreme"))
        assertThat(levels.from to levels.to).isEqualTo(0L to 4L)
        assertThat(levels.scenario(3, 2).conditions.single().label).isEqualTo("complexity=complex vus=10")
        assertThat(levels.maxPoints).isEqualTo(5)
    }

    @Test
    fun `the most points follow the resolution, so a coarser search is told it ends sooner`() {
        fun most(from: String, to: String, resolution: Double, axis: String = "size") =
            CrossoverPlan.of(CrossoverRequest("grpc,http/binary", axis, from, to, resolution = resolution)).maxPoints
        // 100 -> 500 KB at 1.5: 224 KB, then 150 and 335 KB at worst (all three brackets under 1.5 after that).
        assertThat(most("100kb", "500kb", 1.5)).isEqualTo(5)
        assertThat(most("100kb", "500kb", 2.5)).isEqualTo(3)
        assertThat(most("100kb", "500kb", 5.0)).isEqualTo(2)
        // The default resolution over a wide range spends the whole budget of 6 midpoints.
        assertThat(most("10kb", "2mb", CrossoverPlan.DEFAULT_RESOLUTION)).isEqualTo(8)
        // Whole numbers run out before the resolution: 10 -> 14 VUs splits at 12, then 11 and 13, then nothing lies between.
        assertThat(most("10", "14", 1.01, axis = "vus")).isEqualTo(5)
    }

    @Test
    fun `the count axis batches the user's message, and needs one`() {
        val proto = java.nio.file.Files.writeString(tmp.resolve("shop.proto"), "syntax = \"proto3\";\nmessage Order { string id = 1; }\n")
        val sample = java.nio.file.Files.writeString(tmp.resolve("order.json"), "{\"id\": \"A-1\"}")
        val message = io.protobench.bench.scenario.MessageFile(proto.toString(), "Order", sample.toString())
        val plan = CrossoverPlan.of(CrossoverRequest("grpc,http/json", "count", "1", "1000", message = message))
        val point = plan.scenario(2, 32)
        assertThat(point.conditions.map { it.label }).containsExactly("count=32 vus=10")
        assertThat(point.message!!.type).isEqualTo("Order")
        assertThat(plan.axis.midpoint(1, 1000)).isEqualTo(32)
        assertThat(plan.axis.slug(32)).isEqualTo("32items")

        val without =
            catchThrowableOfType(InvalidCrossover::class.java) { CrossoverPlan.of(CrossoverRequest("grpc,http/json", "count", "1", "100")) }
        assertThat(without.violations.map { it.field }).containsExactly("--message")
        val stray = catchThrowableOfType(InvalidCrossover::class.java) {
            CrossoverPlan.of(CrossoverRequest("grpc,http/json", "size", "1kb", "1mb", message = message))
        }
        assertThat(stray.violations.map { it.field }).containsExactly("--axis")
        val range = catchThrowableOfType(InvalidCrossover::class.java) {
            CrossoverPlan.of(CrossoverRequest("grpc,http/json", "count", "0", "100001", message = message))
        }
        assertThat(range.violations.map { it.field }).containsExactly("--from", "--to")
    }

    @Test
    fun `the estimate counts every point the search may measure at the scenario's own estimate`() {
        val plan = CrossoverPlan.of(request())
        val point = plan.pointSeconds()
        assertThat(point).isEqualTo(plan.scenario(1, 10 * 1024L).estimatedSeconds()).isBetween(120L, 900L)
        assertThat(plan.estimate()).isEqualTo(
            "at most 8 points (both ends and up to 6 midpoints), about ${(point + 59) / 60} min each at 5 forks: " +
                "about ${(8 * point + 59) / 60} min in all",
        )
        val looks = CrossoverPlan.of(request().copy(forks = 3, maxForks = 6))
        val least = looks.pointSeconds()
        assertThat(looks.estimate()).startsWith(
            "at most 8 points (both ends and up to 6 midpoints), about ${(least + 59) / 60} min each at 3 forks: " +
                "about ${(8 * least + 59) / 60} min in all, up to ${(16 * least + 59) / 60} min",
        )
    }

    private fun violations(r: CrossoverRequest) = catchThrowableOfType(InvalidCrossover::class.java) { CrossoverPlan.of(r) }.violations

    @Test
    fun `every bad flag is reported at once, each with what is accepted`() {
        val v = violations(
            CrossoverRequest("grpc,soap", "size", "2mb", "16mb", resolution = 0.8, steps = -1, vus = -3, mode = "turbo", size = "1kb"),
        )
        assertThat(v.map { it.field }).containsExactlyInAnyOrder("--pair", "--to", "--resolution", "--steps", "--vus", "--mode", "--size")
        // A figure the mode does not compare is refused with those it does.
        val figure = violations(CrossoverRequest("grpc,http/json", "vus", "10", "500", mode = "capacity", figure = "hop-p50")).single()
        assertThat(figure.field to figure.accepted).isEqualTo("--figure" to "in capacity mode: throughput (default throughput)")
        assertThat(violations(CrossoverRequest("grpc,http/json", "size", "10kb", "1mb", figure = "p99")).single().accepted)
            .isEqualTo("in cost mode: hop-cpu or hop-p50 (default hop-cpu)")
        assertThat(v.single { it.field == "--pair" }.toString()).contains("'soap'", "HTTP/JSON, HTTP/Binary, gRPC/Unary, gRPC/Stream")
        assertThat(v.single { it.field == "--to" }.accepted).contains("up to 8mb")
        assertThat(v.single { it.field == "--resolution" }.accepted).contains("above 1")
        assertThat(v.single { it.field == "--steps" }.accepted).contains("from 0 to 30")
        assertThat(v.single { it.field == "--vus" }.accepted).contains("from 1 to 5000")
        assertThat(v.single { it.field == "--size" }.accepted).contains("only with --axis vus or rate")
    }

    private fun protobench(vararg argv: String) = Protobench().subcommands(CrossoverCommand()).test(argv.toList())

    @Test
    fun `bad input exits 2 with a clear message before any results folder exists`() {
        val results = tmp.resolve("results")
        val base = listOf("--pair", "gRPC/Unary,HTTP/Binary", "--axis", "size", "--from", "10kb", "--to", "2mb")
        fun with(vararg flags: String): List<String> {
            val replaced = base.toMutableList()
            flags.toList().chunked(2).forEach { (flag, value) ->
                val at = replaced.indexOf(flag)
                if (at >= 0) replaced[at + 1] = value else replaced += listOf(flag, value)
            }
            return replaced
        }
        val cases = mapOf(
            with("--pair", "grpc,soap") to "accepted a protocol: HTTP/JSON, HTTP/Binary, gRPC/Unary, gRPC/Stream",
            with("--pair", "grpc,gRPC/Unary") to "two different protocols",
            with("--pair", "grpc,json,http/binary") to "two different protocols separated by a comma",
            with("--pair", "grpc") to "two different protocols separated by a comma",
            with("--axis", "latency") to "one of size, complexity, vus, rate",
            with("--from", "2mb", "--to", "10kb") to "a point above --from (2mb) on the size axis",
            with("--to", "16mb") to "up to 8mb",
            with("--from", "-5kb") to "flag '--from' = '-5kb'",
            with("--axis", "complexity", "--from", "trivial", "--to", "ultra") to
                "a complexity level: simple, medium, complex, ultra, extreme",
            with("--axis", "complexity", "--from", "ultra", "--to", "medium") to "above --from (ultra)",
            with("--axis", "vus", "--from", "-5", "--to", "100") to "a whole number of virtual users from 1 to 5000",
            with("--axis", "rate", "--from", "100", "--to", "1000", "--mode", "capacity") to "cost with --axis rate",
            with("--axis", "vus", "--from", "10", "--to", "500", "--size", "8mb") to "needs about 16 GiB of heap in flight",
            base + "--steps=-1" to "a whole number of midpoints from 0 to 30",
            base + "--resolution=-2" to "a ratio above 1",
            base + "--vus=-3" to "a whole number of virtual users from 1 to 5000",
            base + "--forks=-1" to "flag '--forks' = '-1'",
            with("--duration", "forever") to "flag '--duration' = 'forever'",
            with("--mode", "turbo") to "cost or capacity",
            with("--size", "10kb") to "--size only with --axis vus or rate",
        )
        for ((flags, message) in cases) {
            val result = protobench("crossover", "--results", results.toString(), *flags.toTypedArray())
            assertThat(result.statusCode).describedAs("exit of %s", flags).isEqualTo(2)
            assertThat(result.stderr).describedAs("message of %s", flags).contains(message).doesNotContain("Exception")
        }
        assertThat(results).doesNotExist()
    }

    @Test
    fun `a missing flag or a value Clikt cannot convert is a bad command line, exit 1`() {
        assertThat(protobench("crossover", "--axis", "size", "--from", "10kb", "--to", "2mb").statusCode).isEqualTo(1)
        val steps = protobench(
            "crossover", "--pair", "grpc,http/json", "--axis", "size", "--from", "10kb", "--to", "2mb", "--steps", "many",
        )
        assertThat(steps.statusCode).isEqualTo(1)
        assertThat(steps.stderr).contains("--steps")
    }
}
