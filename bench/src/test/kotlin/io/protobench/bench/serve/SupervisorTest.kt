package io.protobench.bench.serve

import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit

@Tag(PROCESS)
class SupervisorTest {
    private val launched = mutableListOf<Process>()

    /** A stand-in server: a process that runs until it is stopped. */
    private fun sleeper(): Process = ProcessBuilder("sleep", "300").start().also { launched += it }

    @AfterEach
    fun stopAll() = launched.forEach { it.destroyForcibly() }

    @Test
    fun `a restart stops the running server and leaves a fresh one that answers its health check`() {
        val supervisor = Supervisor(::sleeper, healthy = { true })
        val first = supervisor.start()

        val restarted = supervisor.restart()

        assertThat(first.isAlive).isFalse()
        assertThat(restarted.pid).isNotEqualTo(first.pid()).isEqualTo(launched.last().pid())
        assertThat(launched.last().isAlive).isTrue()
        assertThat(restarted.starts).isEqualTo(2)
        assertThat(supervisor.starts).isEqualTo(2)
    }

    @Test
    fun `serve ends with the server's own exit, not with a restart's stop`() {
        val supervisor = Supervisor(::sleeper, healthy = { true })
        supervisor.start()
        val exit = CompletableFuture.supplyAsync { supervisor.awaitExit() }

        supervisor.restart()
        supervisor.restart()
        Thread.sleep(300)
        assertThat(exit).describedAs("two restarts stopped two servers; serve goes on").isNotDone()

        launched.last().destroy()
        assertThat(exit.get(10, TimeUnit.SECONDS)).isEqualTo(143)
    }

    @Test
    fun `a fresh server that exits while starting fails the restart with its exit code`() {
        var attempts = 0
        val supervisor = Supervisor({
            attempts++
            if (attempts == 1) sleeper() else ProcessBuilder("sh", "-c", "exit 3").start().also { launched += it }
        }, healthy = { false })
        supervisor.start()

        assertThatThrownBy { supervisor.restart() }.isInstanceOf(RestartFailed::class.java)
            .hasMessageContaining("exited with code 3 while starting")
        // serve then ends with that server's exit.
        assertThat(supervisor.awaitExit()).isEqualTo(3)
    }

    @Test
    fun `a fresh server that never answers its health check is stopped and the restart fails within the timeout`() {
        val supervisor = Supervisor(::sleeper, healthy = { false }, startTimeout = Duration.ofSeconds(1))
        supervisor.start()

        assertThatThrownBy { supervisor.restart() }.isInstanceOf(RestartFailed::class.java)
            .hasMessageContaining("did not answer its health check within 1 s")
        assertThat(launched.last().waitFor(10, TimeUnit.SECONDS)).describedAs("the unhealthy server was stopped").isTrue()
    }

    @Test
    fun `what restarts first is named with the restart`() {
        val supervisor = Supervisor(::sleeper, healthy = { true }, beforeRestart = { listOf("data-server") })
        supervisor.start()
        supervisor.restart()
        assertThat(supervisor.alsoRestarted).containsExactly("data-server")
    }
}
