package io.protobench.bench.serve

import java.time.Duration
import java.util.concurrent.TimeUnit

/** A restart whose fresh server did not come up: the message says why, in the server's terms. */
class RestartFailed(message: String) : RuntimeException(message)

/** What a restart left running: the fresh JVM's pid, how many JVMs this supervisor has started, and how long it took. */
data class Restarted(val pid: Long, val starts: Int, val seconds: Double)

/**
 * The one server `protobench serve` runs, restarted on request: a run on another host
 * asks for a fresh JVM before each fork ([ControlEndpoint]), as a run on one host starts
 * a fresh pair, so that its intervals over forks hold the JVM-to-JVM variation too.
 *
 * [launch] starts the server; [healthy] says whether it answers its health check;
 * [beforeRestart] runs first on every restart (the gateway's: restart its served
 * data-server) and names what it restarted.
 */
class Supervisor(
    private val launch: () -> Process,
    private val healthy: () -> Boolean,
    private val startTimeout: Duration = Duration.ofSeconds(120),
    private val beforeRestart: () -> List<String> = { emptyList() },
) {
    private val lock = Any()

    @Volatile private var current: Process? = null

    @Volatile private var restarting = false

    /** JVMs started so far: 1 + restarts. */
    @Volatile var starts = 0
        private set

    /** What restarts went through besides this server ([beforeRestart]'s answer), for the control's reply. */
    @Volatile var alsoRestarted: List<String> = emptyList()
        private set

    /** Starts the server; it need not be healthy yet (the runner checks before it measures). */
    fun start(): Process = synchronized(lock) {
        check(current == null) { "the server was already started" }
        launched()
    }

    /**
     * Stops the running server and starts a fresh one, returning once it answers its
     * health check. One restart at a time: a second caller waits for the first.
     */
    fun restart(): Restarted = synchronized(lock) {
        val began = System.nanoTime()
        restarting = true
        try {
            alsoRestarted = beforeRestart()
            current?.let(::stop)
            val fresh = launched()
            awaitHealthy(fresh)
            Restarted(fresh.pid(), starts, (System.nanoTime() - began) / 1e9)
        } finally {
            restarting = false
        }
    }

    /**
     * Waits until the server exits on its own (a restart's stop does not count) and gives
     * its exit code; the serve command ends with it.
     */
    fun awaitExit(): Int {
        while (true) {
            val process = current ?: error("the server was not started")
            val code = process.waitFor()
            synchronized(lock) {
                if (process === current && !restarting) return code
            }
        }
    }

    /** Stops the server for good (serve is ending). */
    fun stop() {
        current?.let(::stop)
    }

    private fun launched(): Process = launch().also {
        current = it
        starts++
    }

    private fun stop(process: Process) {
        process.destroy()
        if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS)
    }

    private fun awaitHealthy(process: Process) {
        val until = System.nanoTime() + startTimeout.toNanos()
        while (System.nanoTime() < until) {
            if (!process.isAlive) {
                throw RestartFailed(
                    "the fresh server exited with code ${process.exitValue()} while starting (see serve's output)",
                )
            }
            if (runCatching(healthy).getOrDefault(false)) return
            Thread.sleep(POLL_MS)
        }
        stop(process)
        throw RestartFailed("the fresh server did not answer its health check within ${startTimeout.seconds} s, and was stopped")
    }

    private companion object {
        const val STOP_SECONDS = 10L
        const val POLL_MS = 200L
    }
}
