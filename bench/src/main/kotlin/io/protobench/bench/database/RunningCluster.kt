package io.protobench.bench.database

import java.nio.file.Path

/**
 * A cluster [PostgresCluster.start] left running: how to reach it, and [stop]. It keeps
 * running after this process unless [stopWith] ties it to a process.
 */
class RunningCluster internal constructor(
    val state: ClusterState,
    private val postmaster: ProcessHandle,
    private val stopCommand: List<String>,
    private val watchdogLog: Path,
    private val stopServer: () -> Unit,
) {
    val jdbcUrl: String get() = state.jdbcUrl
    val user: String get() = state.user
    val password: String get() = state.password
    val port: Int get() = state.port
    val dataDir: Path get() = Path.of(state.dataDir)

    private var stopped = false
    private var watchdog: Process? = null
    private var hook: Thread? = null

    /**
     * Stops the server (`pg_ctl stop -m fast`: open sessions are ended, what was committed
     * is kept) and waits until it is gone; once that succeeded, a second call does nothing.
     */
    @Synchronized
    fun stop() {
        if (stopped) return
        watchdog?.destroy()
        hook?.let { runCatching { Runtime.getRuntime().removeShutdownHook(it) } } // refused while the JVM is already shutting down
        stopServer()
        stopped = true
    }

    /**
     * Has the server stopped when [owner] ends, on every path: by a shutdown hook when the
     * owner is this JVM (an orderly exit, Ctrl-C, SIGTERM), and by [ClusterWatchdog] when it
     * dies without one (SIGKILL, the OOM killer).
     */
    @Synchronized
    fun stopWith(owner: ProcessHandle = ProcessHandle.current()): RunningCluster {
        check(watchdog == null) { "the cluster is already tied to a process" }
        watchdog = ClusterWatchdog.start(owner, postmaster, stopCommand, watchdogLog)
        if (owner.pid() == ProcessHandle.current().pid()) {
            hook = Thread({ runCatching(::stop).onFailure { System.err.println("protobench: ${it.message}") } }, "protobench-db-stop")
                .also(Runtime.getRuntime()::addShutdownHook)
        }
        return this
    }
}
