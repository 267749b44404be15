package io.protobench.bench.process

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.concurrent.TimeUnit

/**
 * The processes a run started (server JVMs, the load driver), written to `children.pid` in the run
 * folder whenever the set changes, so that a later run can reap what a CLI that died
 * (SIGKILL, OOM kill, crash) left behind. A pid is only ever killed when the process
 * behind it still has the start time recorded for it, so a recycled pid is left alone.
 */
class ChildProcesses(private val file: Path) {
    private val live = linkedMapOf<Long, Process>()

    @Synchronized
    fun track(process: Process) {
        live[process.pid()] = process
        write()
    }

    @Synchronized
    fun forget(process: Process) {
        live.remove(process.pid())
        write()
    }

    /** Stops every child still running (the shutdown hook's last resort). */
    @Synchronized
    fun killAll() {
        live.values.forEach { it.destroy() }
        live.values.forEach { if (!it.waitFor(5, TimeUnit.SECONDS)) it.destroyForcibly() }
        live.clear()
        write()
    }

    private fun write() {
        val owner = ProcessHandle.current()
        val lines = listOf(line(owner.pid(), owner)) + live.values.map { line(it.pid(), it.toHandle()) }
        runCatching {
            Files.createDirectories(file.parent)
            val temporary = file.resolveSibling(file.fileName.toString() + ".tmp")
            Files.write(temporary, lines)
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
        }
    }

    private fun line(pid: Long, handle: ProcessHandle) = "$pid ${handle.info().startInstant().map { it.toEpochMilli() }.orElse(0)}"

    companion object {
        const val FILE_NAME = "children.pid"

        /**
         * Kills the children recorded by runs under [resultsRoot] (run folders, and the run
         * folders one level deeper that a crossover search makes) whose CLI (the first line
         * of each file) is no longer running. Returns what was reaped, in words.
         */
        fun reapStale(resultsRoot: Path): List<String> {
            if (!Files.isDirectory(resultsRoot)) return emptyList()
            val files = Files.find(
                resultsRoot,
                3,
                { path, attributes -> attributes.isRegularFile && path.fileName.toString() == FILE_NAME },
            ).use { it.toList() }
            return files.flatMap { file ->
                val recorded = runCatching { Files.readAllLines(file) }.getOrDefault(emptyList()).mapNotNull(::parse)
                val owner = recorded.firstOrNull() ?: return@flatMap emptyList()
                if (owner.isRunning()) return@flatMap emptyList()
                val reaped = recorded.drop(1).filter { it.isRunning() }.map { child ->
                    ProcessHandle.of(child.pid).ifPresent { it.destroyForcibly() }
                    "killed pid ${child.pid} left running by ${file.parent.fileName}"
                }
                runCatching { Files.delete(file) }
                reaped
            }
        }

        private data class Recorded(val pid: Long, val startMillis: Long) {
            fun isRunning(): Boolean = ProcessHandle.of(pid).map { handle ->
                handle.isAlive && handle.info().startInstant().map { it.toEpochMilli() == startMillis }.orElse(false)
            }.orElse(false)
        }

        private fun parse(line: String): Recorded? {
            val parts = line.trim().split(" ")
            return if (parts.size == 2) parts[0].toLongOrNull()?.let { pid -> parts[1].toLongOrNull()?.let { Recorded(pid, it) } } else null
        }
    }
}
