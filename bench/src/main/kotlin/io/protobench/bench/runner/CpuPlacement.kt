package io.protobench.bench.runner

import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/**
 * Where k6, api-server and data-server may run. With enough cores each gets a
 * disjoint CPU set (via `taskset`), so they stop competing for the same cores;
 * with fewer than three cores, or without taskset, or when turned off, they share
 * all cores and [note] says so for the report.
 */
data class CpuPlacement(val sets: Map<String, String>, val note: String) {
    /** The command prefixed with taskset for [process], or unchanged when not pinned. */
    fun wrap(process: String, command: List<String>): List<String> =
        sets[process]?.let { listOf("taskset", "-c", it) + command } ?: command

    companion object {
        val PROCESSES = listOf("k6", "api-server", "data-server")

        fun plan(cores: Int, enabled: Boolean, tasksetAvailable: Boolean = onPath("taskset")): CpuPlacement = when {
            !enabled -> shared("pinning turned off (--no-pinning): k6, api-server and data-server share all $cores cores")
            cores < PROCESSES.size -> shared("not pinned: $cores cores cannot give k6, api-server and data-server " +
                "disjoint CPU sets, so the three compete for the same cores (see the saturation flags)")
            !tasksetAvailable -> shared("not pinned: taskset is not installed (Debian: util-linux); the three processes share all $cores cores")
            else -> split(cores)
        }

        /** k6 gets a third of the cores (at least one); the servers split the rest, the data-server getting any odd core. */
        private fun split(cores: Int): CpuPlacement {
            val k6 = maxOf(1, cores / 3)
            val api = (cores - k6) / 2
            val ranges = mapOf(
                "k6" to (0 until k6),
                "api-server" to (k6 until k6 + api),
                "data-server" to (k6 + api until cores),
            )
            val sets = ranges.mapValues { (_, r) -> if (r.first == r.last) "${r.first}" else "${r.first}-${r.last}" }
            return CpuPlacement(sets, "pinned with taskset: " + sets.entries.joinToString { "${it.key} on CPUs ${it.value}" })
        }

        private fun shared(note: String) = CpuPlacement(emptyMap(), note)

        private fun onPath(name: String) = System.getenv("PATH").orEmpty().split(File.pathSeparator)
            .any { Files.isExecutable(Path.of(it, name)) }
    }
}
