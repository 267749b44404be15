package io.protobench.bench.database

/** One server setting and why a benchmark cluster has it: both go into postgresql.conf. */
data class Setting(val name: String, val value: String, val why: String) {
    val lines: List<String> get() = listOf("# $why", "$name = $value")
}

/**
 * The server settings of a throw-away cluster that measures the data-server's write path
 * on a small machine (2 cores, shared with both server JVMs and the load driver), appended to the
 * postgresql.conf initdb wrote. Everything not named keeps PostgreSQL's defaults, which
 * is what a production-like option should measure.
 */
object BenchmarkSettings {
    val ALL = listOf(
        Setting("listen_addresses", "'127.0.0.1'", "loopback only: nothing outside this machine can reach the cluster"),
        Setting(
            "unix_socket_directories",
            "''",
            "TCP only: a socket in a deep run folder would pass the 107-byte limit of a socket path, and every client uses TCP",
        ),
        Setting(
            "fsync",
            "on",
            "PostgreSQL's default, written out because it is a choice: a write benchmark whose commits never reach the disk " +
                "measures a database nobody runs (synchronous_commit stays on too)",
        ),
        Setting(
            "max_connections",
            "210",
            "the data-server's largest pool (protobench.data.db.pool-size up to 200) and room for a psql session",
        ),
        Setting("shared_buffers", "128MB", "modest: the two server JVMs and the load driver share the machine's memory"),
        Setting(
            "max_parallel_workers_per_gather",
            "0",
            "short statements on 2 cores: a parallel worker would take a core from the servers being measured",
        ),
        Setting("jit", "off", "a JIT compile of a short statement costs more than it saves, and it takes a core"),
        Setting("logging_collector", "off", "the log goes to postgres.log beside the data directory (pg_ctl -l)"),
    )

    /** The block appended to postgresql.conf. */
    fun conf(): String = (
        listOf("", "# protobench: a throw-away cluster for benchmarks") + ALL.flatMap {
            it.lines
        }
        ).joinToString("\n", postfix = "\n")
}
