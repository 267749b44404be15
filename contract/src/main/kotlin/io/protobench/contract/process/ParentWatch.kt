package io.protobench.contract.process

import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import kotlin.system.exitProcess

/**
 * Makes a server die with the process that started it: polls whether [parentPid] is
 * alive every [period] on a daemon thread and, the first time it is not, runs
 * [onParentGone] once and stops polling. A bench run that is killed (even with
 * SIGKILL, when no shutdown hook of its runs) thus leaves no orphan server holding
 * ports and CPU. The liveness check and the action are injectable for tests.
 */
class ParentWatch(
    val parentPid: Long,
    private val onParentGone: () -> Unit,
    private val period: Duration = PERIOD,
    private val isAlive: (Long) -> Boolean = ::isProcessAlive,
) : AutoCloseable {
    @Volatile
    private var thread: Thread? = null

    /** Starts watching; the first check is immediate (the parent may already be gone). */
    fun start(): ParentWatch {
        thread = Thread(::watch, "parent-watch-$parentPid").apply {
            isDaemon = true
            start()
        }
        return this
    }

    private fun watch() {
        try {
            while (isAlive(parentPid)) Thread.sleep(period.toMillis())
            onParentGone()
        } catch (e: InterruptedException) {
            // closed: stop watching
        }
    }

    /** Stops watching (the server is shutting down anyway). */
    override fun close() {
        thread?.interrupt()
    }

    companion object {
        /**
         * How often the parent is looked for: a look is one read of /proc, four a second are
         * nothing beside a trial's thousands of requests, and the server is gone within about
         * [HALT_AFTER] and a quarter second of its parent.
         */
        val PERIOD: Duration = Duration.ofMillis(250)

        /**
         * How long an orderly shutdown may take before the JVM is halted: a parent that is gone
         * waits for nothing, so the server is gone within about a second and a quarter of it
         * (this and one [PERIOD]), not after a graceful drain of connections nobody will read.
         */
        val HALT_AFTER: Duration = Duration.ofSeconds(1)

        private val log = System.getLogger(ParentWatch::class.java.name)

        /**
         * Whether [pid] still runs. A process that has exited but whose own parent has not reaped
         * it yet (a zombie: the wrapper script `exec`s java, so whoever started the CLI reaps it)
         * is gone for a server: it holds nothing and will never come back, though the JVM's
         * process handle still calls it alive. /proc is read first: a zombie reaped between the two
         * reads then leaves no handle to call it alive.
         */
        fun isProcessAlive(pid: Long): Boolean = !hasExited(pid) && ProcessHandle.of(pid).map { it.isAlive }.orElse(false)

        /** True when /proc says [pid] has exited and waits to be reaped (state Z or X); false when it cannot tell. */
        fun hasExited(pid: Long, proc: Path = Path.of("/proc")): Boolean {
            val stat = runCatching { Files.readString(proc.resolve("$pid/stat")) }.getOrNull() ?: return false
            return stateOf(stat) in EXITED_STATES
        }

        /** The state letter of a /proc/<pid>/stat line: the first field after the command, which may hold spaces and parentheses. */
        fun stateOf(stat: String): Char? = stat.substringAfterLast(')', "").trim().firstOrNull()

        private val EXITED_STATES = setOf('Z', 'X')

        /**
         * The action of a server whose parent is gone: logs one line, runs [closeApplication]
         * (the Spring context's close) and exits the JVM with status 0, all on a thread of
         * its own; a daemon thread halts the JVM if that takes longer than [HALT_AFTER]
         * (a stuck shutdown must not leave the orphan running).
         */
        fun exitJvm(parentPid: Long, closeApplication: () -> Unit) {
            log.log(System.Logger.Level.WARNING, "parent process $parentPid is gone: shutting down")
            daemon("parent-watch-halt") {
                Thread.sleep(HALT_AFTER.toMillis())
                Runtime.getRuntime().halt(EXIT_STATUS)
            }
            Thread({
                try {
                    closeApplication()
                } finally {
                    exitProcess(EXIT_STATUS)
                }
            }, "parent-watch-exit").start()
        }

        /** An orderly end: the server did what it must when its parent left. */
        const val EXIT_STATUS = 0

        private fun daemon(name: String, body: () -> Unit) = Thread({ runCatching(body) }, name).apply { isDaemon = true }.start()
    }
}
