package io.protobench.driver

import java.nio.file.Files
import java.nio.file.Path

/** What the kernel counts for this process's threads, read from /proc/self. */
internal object OwnThreads {
    private val TASKS: Path = Path.of("/proc/self/task")

    /**
     * Context switches of every thread alive now, voluntary (it slept: an event loop waiting
     * for its next arrival or answer) and not (the scheduler took its core), summed over
     * `/proc/self/task/<tid>/status`; null where there is no /proc.
     */
    fun contextSwitches(tasks: Path = TASKS): Long? = runCatching {
        Files.list(tasks).use { threads ->
            threads.toList().sumOf { thread ->
                runCatching { Files.readAllLines(thread.resolve("status")) }.getOrDefault(emptyList())
                    .filter { it.startsWith("voluntary_ctxt_switches:") || it.startsWith("nonvoluntary_ctxt_switches:") }
                    .sumOf { it.substringAfter(':').trim().toLongOrNull() ?: 0L }
            }
        }
    }.getOrNull()
}
