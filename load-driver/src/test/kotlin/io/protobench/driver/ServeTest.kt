package io.protobench.driver

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.util.concurrent.TimeUnit

/** The driver as the runner starts it: `serve`, commands on stdin, answers on stdout. */
@Tag("process")
class ServeTest {
    private val process: Process = ProcessBuilder(
        ProcessHandle.current().info().command().orElse("java"),
        "-cp",
        System.getProperty("java.class.path"),
        "io.protobench.driver.MainKt",
        "serve",
    ).redirectError(ProcessBuilder.Redirect.DISCARD).start()
    private val answers = process.inputStream.bufferedReader()

    @AfterEach
    fun kill() {
        process.destroyForcibly()
    }

    private fun send(line: String) {
        process.outputStream.write((line + "\n").toByteArray())
        process.outputStream.flush()
    }

    @Test
    fun `a plan that cannot run is answered with every reason, and the driver keeps serving`() {
        send("""{"run":{"baseUrl":"nowhere","targets":[],"load":{"model":"open","rate":0,"maxConnections":1},"durationMs":1000}}""")
        val refused = json.readValue(answers.readLine(), Answer::class.java)
        assertThat(refused.summary).isNull()
        assertThat(refused.error).contains("baseUrl 'nowhere' is not http://host:port", "no targets", "rate above 0")
        send("not json")
        assertThat(json.readValue(answers.readLine(), Answer::class.java).error).startsWith("not a command")
        assertThat(process.isAlive).isTrue()
    }

    @Test
    fun `the end of its input ends the driver at once`() {
        process.outputStream.close()
        assertThat(process.waitFor(3, TimeUnit.SECONDS)).isTrue()
        assertThat(process.exitValue()).isZero()
    }
}
