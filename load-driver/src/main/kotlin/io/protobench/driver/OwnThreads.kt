package io.protobench.driver

import java.nio.file.Files
import java.nio.file.Path

/** What the kernel counts for this process's threads, read from /proc/self. */
internal object OwnThreads {
    private val TASKS: Path = Path.of("/proc/self/task")
    private const val VOLUNTARY = "voluntary_ctxt_switches:"
    private const val NONVOLUNTARY = "nonvoluntary_ctxt_switches:"

    /**
     * Context switches of every thread alive now, voluntary (it slept: an event loop waiting
     * for its next arrival or answer) and not (the scheduler took its core), each summed over
     * `/proc/self/task/<tid>/status`; null where there is no /proc.
     */
    fun contextSwitches(tasks: Path = TASKS): ContextSwitches? = runCatching {
        Files.list(tasks).use { threads ->
            threads.toList().map(::ofThread).fold(ContextSwitches(0, 0), ContextSwitches::plus)
        }
    }.getOrNull()

    /** One thread's counts; a thread gone since it was listed, or a line missing, counts 0. */
    private fun ofThread(thread: Path): ContextSwitches {
        val lines = runCatching { Files.readAllLines(thread.resolve("status")) }.getOrDefault(emptyList())
        fun count(key: String) = lines.firstOrNull { it.startsWith(key) }?.substringAfter(':')?.trim()?.toLongOrNull() ?: 0L
        return ContextSwitches(voluntary = count(VOLUNTARY), nonvoluntary = count(NONVOLUNTARY))
    }
}

/**
 * Context switches as the kernel counts them: [voluntary] when a thread gave up its core
 * (it slept, waiting for work), [nonvoluntary] when the scheduler took it. Kept apart because
 * they tell different stories: the first is the driver waking, the second the machine busy.
 */
data class ContextSwitches(val voluntary: Long, val nonvoluntary: Long) {
    /** Both kinds, the one count the driver's summaries have always had. */
    val total: Long get() = voluntary + nonvoluntary

    operator fun plus(other: ContextSwitches) = ContextSwitches(voluntary + other.voluntary, nonvoluntary + other.nonvoluntary)

    operator fun minus(earlier: ContextSwitches) = ContextSwitches(voluntary - earlier.voluntary, nonvoluntary - earlier.nonvoluntary)
}
