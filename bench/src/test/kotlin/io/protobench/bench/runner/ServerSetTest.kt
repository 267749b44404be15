package io.protobench.bench.runner

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import java.util.concurrent.TimeUnit

class ServerSetTest {
    @TempDir
    lateinit var dir: Path

    private fun set(vararg processes: Process) = ServerSet(
        null, mapOf("data-server-http" to 1), emptyMap(), processes.toList(), ChildProcesses(dir.resolve("children.pid")),
        logs = mapOf("data-server" to dir.resolve("data-server.log")),
    )

    @Test
    fun `a server that died says why, in the last words of its log`() {
        val log = dir.resolve("data-server.log").toFile()
        val process = ProcessBuilder("sh", "-c", "echo started; echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; echo bye; exit 3")
            .redirectErrorStream(true).redirectOutput(log).start()
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue()
        assertThat(set(process).deathNotice())
            .startsWith("data-server exited with code 3: Terminating due to java.lang.OutOfMemoryError: Java heap space")
            .contains(log.toString())
    }

    @Test
    fun `no notice while every server runs`() {
        val process = ProcessBuilder("sleep", "30").start()
        try {
            assertThat(set(process).deathNotice()).isNull()
        } finally {
            process.destroyForcibly()
        }
    }
}
