package io.protobench.driver

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

class PartTest {
    private val target = CallTarget("/api/data/grpc?size=1kb", "payloadSize", 1024)
    private val open = Plan("http://127.0.0.1:8080", listOf(target), Load.open(1000.0, 50, 50), 60_000, warmUpMs = 10_000)
    private val closed = open.copy(load = Load.closed(10))

    @Test
    fun `an open load's parts each send rate over N, on a share of the pool that adds up to the whole`() {
        val parts = (0 until 3).map { Part(it, 3).of(open) }
        parts.forEach { assertThat(it.load.rate).isEqualTo(1000.0 / 3) }
        assertThat(parts.map { it.load.maxConnections }).containsExactly(17, 17, 16)
        assertThat(parts.map { it.load.connections }).containsExactly(17, 17, 16)
        // The rest of the plan is the whole's: the same target, duration and warm-up.
        parts.forEach { assertThat(it.copy(load = open.load, instance = 0)).isEqualTo(open) }
    }

    @Test
    fun `a closed load's users are split as evenly as possible and all of them run`() {
        val users = (0 until 4).map { Part(it, 4).of(closed).load.users!! }
        assertThat(users).containsExactly(3, 3, 2, 2)
        assertThat(users.sum()).isEqualTo(10)
        assertThat(Part(0, 1).of(closed)).isEqualTo(closed)
    }

    @Test
    fun `each part has an instance of its own, so member emails never collide across parts or plans`() {
        assertThat((0 until 4).map { Part(it, 4).of(closed).instance }).containsExactly(0, 1, 2, 3)
        val second = closed.copy(instance = 1)
        assertThat((0 until 4).map { Part(it, 4).of(second).instance }).containsExactly(4, 5, 6, 7)
    }

    @Test
    fun `each part writes a histogram log of its own beside the plan's`() {
        assertThat(Part(1, 4).of(open.copy(histogramLog = "/logs/latency.hlog")).histogramLog).isEqualTo("/logs/latency.part-1-of-4.hlog")
        assertThat(Part(0, 2).ownLog("trials.d/latency")).isEqualTo("trials.d/latency.part-0-of-2")
        assertThat(Part(0, 2).of(open).histogramLog).isNull()
    }

    @Test
    fun `a part left with no user or connection is refused, saying how many parts the plan allows`() {
        assertThatThrownBy { Part(10, 11).of(closed) }.isInstanceOf(PlanRefused::class.java)
            .hasMessage("part 10/11 would get no user: the plan's closed load has 10; run it in at most 10 parts")
        assertThatThrownBy { Part(0, 51).of(open) }.hasMessageContaining("part 0/51 would get no connection", "at most 50 parts")
        // A plan that cannot run at all says so, part or not.
        assertThat(Part(0, 2).problems(closed.copy(load = Load("poisson"))))
            .containsExactly("part 0/2: load model 'poisson' is not 'open' or 'closed'")
        // The share must still be a plan the driver runs: 120,000/s over 2 is above one driver's limit.
        assertThat(Part(0, 2).problems(open.copy(load = Load.open(120_000.0, 4, 4))))
            .containsExactly("part 0/2: an open load needs a rate above 0 and at most 50000.0 per second, not 60000.0")
    }

    @Test
    fun `--part I over N is read from the command line, from 0 to N - 1`() {
        assertThat(Part.fromArgs(listOf("plan.json", "--part", "2/3"), ::noEnvironment)).isEqualTo(Part(2, 3))
        assertThat(Part.fromArgs(listOf("plan.json", "--summary", "out.json"), ::noEnvironment)).isNull()
        mapOf(
            "3/3" to "the part must be 0 to 2 (parts count from 0), not 3",
            "0/0" to "the number of parts must be 1 to 1000, not 0",
            "1/1001" to "the number of parts must be 1 to 1000, not 1001",
            "-1/2" to "is not I/N",
            "1 of 2" to "is not I/N",
            "2" to "is not I/N",
        ).forEach { (text, message) ->
            assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--part", text), ::noEnvironment) }
                .isInstanceOf(PlanRefused::class.java).hasMessageContaining(message)
        }
        assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--part"), ::noEnvironment) }.hasMessage("--part needs a value")
        assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--part", "0/2", "--job-part", "2"), ::noEnvironment) }
            .hasMessageContaining("not both")
    }

    @Test
    fun `--job-part N takes the part from JOB_COMPLETION_INDEX, which an Indexed Job sets, and refuses without it`() {
        val pod = mapOf(Part.JOB_INDEX_VARIABLE to "3")
        assertThat(Part.fromArgs(listOf("plan.json", "--job-part", "4"), pod::get)).isEqualTo(Part(3, 4))
        assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--job-part", "4"), ::noEnvironment) }
            .hasMessageContaining("needs JOB_COMPLETION_INDEX", "give --part I/N")
        assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--job-part", "3"), pod::get) }
            .hasMessage("--job-part 3 with JOB_COMPLETION_INDEX=3: the part must be 0 to 2 (parts count from 0), not 3")
        assertThatThrownBy { Part.fromArgs(listOf("plan.json", "--job-part", "four"), pod::get) }
            .hasMessageContaining("is not a whole number")
    }

    @Test
    @Tag("process")
    fun `the driver refuses a bad part with exit 2 and a message, before any call`(@TempDir dir: Path) {
        val plan = dir.resolve("plan.json").also { Files.writeString(it, json.writeValueAsString(closed)) }
        fun run(vararg args: String): Pair<Int, String> {
            val process = ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                "io.protobench.driver.MainKt",
                "run",
                plan.toString(),
                *args,
            ).redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
            val stderr = process.errorStream.bufferedReader().readText()
            check(process.waitFor(30, TimeUnit.SECONDS)) { "the driver did not end" }
            return process.exitValue() to stderr
        }
        assertThat(run("--part", "4/4")).satisfies({ (code, stderr) ->
            assertThat(code).isEqualTo(2)
            assertThat(stderr).contains("the part must be 0 to 3").doesNotContain("Exception")
        })
        assertThat(run("--part", "0/11")).satisfies({ (code, stderr) ->
            assertThat(code).isEqualTo(2)
            assertThat(stderr).contains("would get no user").doesNotContain("Exception")
        })
    }

    @Suppress("UNUSED_PARAMETER")
    private fun noEnvironment(name: String): String? = null
}
