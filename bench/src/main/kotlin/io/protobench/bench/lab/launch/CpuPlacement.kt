package io.protobench.bench.lab.launch

import io.protobench.bench.text.Texts
import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/**
 * Where the load driver, api-server and data-server (or, in a direct run, the driver and the data-server)
 * may run. With enough cores each gets a disjoint CPU set (via `taskset`), so they stop
 * competing for the same cores; with fewer than three cores, or without taskset, or when
 * turned off, they share all cores and [note] says so for the report.
 */
data class CpuPlacement(val sets: Map<String, String>, val note: String) {
    /** The command prefixed with taskset for [process], or unchanged when not pinned. */
    fun wrap(process: String, command: List<String>): List<String> = sets[process]?.let { listOf("taskset", "-c", it) + command } ?: command

    companion object {
        /** The load generator's name: the lab's driver, through the gateway or direct. */
        const val LOAD = io.protobench.bench.measure.CpuAccounting.DRIVER

        val PROCESSES = listOf(LOAD, "api-server", "data-server")

        /** The processes of a run without a gateway (`topology: direct`). */
        val DIRECT_PROCESSES = listOf(LOAD, "data-server")

        /**
         * Fewest cores to pin on: one each for the driver and two servers. A direct run keeps the same
         * bar, so that its data-server's JIT and GC threads are not squeezed onto one core.
         */
        private const val MIN_CORES = 3

        fun plan(
            cores: Int,
            enabled: Boolean,
            tasksetAvailable: Boolean = onPath("taskset"),
            processes: List<String> = PROCESSES,
        ): CpuPlacement {
            val names = names(processes)
            return when {
                processes.size == 1 -> shared(Texts.EN("placement.alone", names))
                !enabled -> shared(Texts.EN("placement.off", names, cores))
                cores < MIN_CORES -> shared(Texts.EN("placement.few-cores", cores, names))
                !tasksetAvailable -> shared(Texts.EN("placement.no-taskset", names, cores))
                else -> split(cores, processes)
            }
        }

        /** One sentence for the report, in English as run.json keeps it: who shares the machine. */
        fun sharing(processes: List<String>) = if (processes.size == 1) {
            Texts.EN("placement.sharing.one", processes.single())
        } else {
            Texts.EN("placement.sharing", names(processes))
        }

        /** "driver, api-server and data-server". */
        private fun names(processes: List<String>) = if (processes.size == 1) {
            processes.single()
        } else {
            Texts.EN("placement.names", processes.dropLast(1).joinToString(", "), processes.last())
        }

        /** The driver gets a third of the cores (at least one); the servers split the rest, the data-server getting any odd core. */
        private fun split(cores: Int, processes: List<String>): CpuPlacement {
            val load = maxOf(1, cores / 3)
            val api = when {
                "api-server" !in processes -> 0

                "data-server" !in processes -> cores - load

                // the data-server runs on another host
                else -> (cores - load) / 2
            }
            val ranges = mapOf(
                LOAD to (0 until load),
                "api-server" to (load until load + api),
                "data-server" to (load + api until cores),
            ).filterKeys { it in processes }
            val sets = ranges.mapValues { (_, r) -> if (r.first == r.last) "${r.first}" else "${r.first}-${r.last}" }
            return CpuPlacement(
                sets,
                Texts.EN("placement.pinned", sets.entries.joinToString { Texts.EN("placement.cpus", it.key, it.value) }),
            )
        }

        private fun shared(note: String) = CpuPlacement(emptyMap(), note)

        private fun onPath(name: String) = System.getenv("PATH").orEmpty().split(File.pathSeparator)
            .any { Files.isExecutable(Path.of(it, name)) }
    }
}
