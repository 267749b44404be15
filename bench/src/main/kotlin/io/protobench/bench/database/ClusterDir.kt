package io.protobench.bench.database

import java.nio.file.Files
import java.nio.file.Path
import kotlin.math.abs

/**
 * The files of one throw-away cluster in its folder: `pgdata/` (the data directory),
 * `postgres.log` (the server's log), `cluster.json` (what `db stop` and `db status` read)
 * and `watchdog.log` (the watchdog of a cluster a process owns).
 */
class ClusterDir(dir: Path) {
    val root: Path = dir.toAbsolutePath().normalize()
    val data: Path = root.resolve("pgdata")
    val log: Path = root.resolve("postgres.log")
    val state: Path = root.resolve("cluster.json")
    val watchdogLog: Path = root.resolve("watchdog.log")

    /** The password initdb reads, present only while it runs. */
    val passwordFile: Path = root.resolve("initdb.password")

    /** Whether [data] holds a cluster initdb finished. */
    val initialised: Boolean get() = Files.isRegularFile(data.resolve("PG_VERSION"))

    /** The major version the cluster was made by, as PG_VERSION says. */
    val version: String get() = Files.readString(data.resolve("PG_VERSION")).trim()

    /**
     * The postmaster serving [data], or null. Read from `postmaster.pid` as `pg_ctl status`
     * reads it, so a server whose `cluster.json` was never written is still found; the
     * process must also have started when that file says (within a few seconds), so a
     * pid recycled after a crash is not taken for the server.
     */
    fun runningPostmaster(): ProcessHandle? {
        val lines = runCatching { Files.readAllLines(data.resolve("postmaster.pid")) }.getOrNull() ?: return null
        val pid = lines.getOrNull(PID_LINE)?.trim()?.toLongOrNull() ?: return null
        val startedSecond = lines.getOrNull(START_LINE)?.trim()?.toLongOrNull()
        val handle = ProcessHandle.of(pid).filter { it.isAlive }.orElse(null) ?: return null
        val actualSecond = handle.info().startInstant().map { it.epochSecond }.orElse(null)
        val sameProcess = startedSecond == null || actualSecond == null || abs(actualSecond - startedSecond) <= START_TOLERANCE_SECONDS
        return handle.takeIf { sameProcess }
    }

    private companion object {
        // postmaster.pid: pid, data directory, start time (epoch seconds), port, …
        const val PID_LINE = 0
        const val START_LINE = 2
        const val START_TOLERANCE_SECONDS = 5
    }
}
