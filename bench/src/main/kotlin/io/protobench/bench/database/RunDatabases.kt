package io.protobench.bench.database

import io.protobench.bench.scenario.Database
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.Variant
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.nio.file.attribute.PosixFilePermissions

/**
 * The databases a run's data-servers write to. H2 needs nothing (in memory, in each
 * data-server's JVM, fresh at every start). PostgreSQL is one throw-away cluster in the
 * run's folder, started before the first fork, shared by every fork of the variants that
 * ask for it (the runner empties the members table before each trial) and stopped with the
 * run on every exit path ([RunningCluster.stopWith]); its data is then deleted and its log
 * kept as `logs/postgres.log`.
 */
class RunDatabases private constructor(
    private val cluster: RunningCluster?,
    /** The cluster's folder, removed once the cluster has stopped: data thrown away, its log kept in [runDir]'s logs. */
    private val clusterDir: Path? = null,
    private val runDir: Path? = null,
) : AutoCloseable {
    /** The data-server settings that point [variant]'s write path at its database; none for H2. */
    fun dataServerArguments(variant: Variant?): List<String> {
        if (cluster == null || variant?.store != Database.POSTGRESQL) return emptyList()
        return listOf("--protobench.data.db.url=${cluster.jdbcUrl}", "--protobench.data.db.user=${cluster.user}")
    }

    /**
     * The password goes by environment, so that it stays out of the command lines run.json
     * records (Spring Boot binds `PROTOBENCH_DATA_DB_PASSWORD` to `protobench.data.db.password`).
     */
    fun dataServerEnvironment(variant: Variant?): Map<String, String> {
        if (cluster == null || variant?.store != Database.POSTGRESQL) return emptyMap()
        return mapOf(PASSWORD_VARIABLE to cluster.password)
    }

    /** The postmaster of [variant]'s database when it runs apart from the data-server (PostgreSQL); null for H2. */
    fun postmasterPid(variant: Variant?): Long? = if (cluster != null && variant?.store == Database.POSTGRESQL) cluster.state.pid else null

    /** For run.json: the cluster's version, address and settings. */
    fun records(): Map<String, Any> = cluster?.let { c ->
        mapOf("postgresql" to mapOf(
            "version" to c.state.version, "jdbcUrl" to c.jdbcUrl, "dataDir" to c.dataDir.toString(), "serverAccount" to c.state.serverAccount,
            "settings" to BenchmarkSettings.ALL.associate { it.name to it.value },
        ))
    } ?: emptyMap()

    override fun close() {
        cluster?.stop() ?: return
        val dir = clusterDir ?: return
        runCatching {
            Files.createDirectories(runDir!!.resolve("logs"))
            Files.copy(ClusterDir(dir).log, runDir.resolve("logs/postgres.log"), StandardCopyOption.REPLACE_EXISTING)
        }
        dir.toFile().deleteRecursively()
    }

    companion object {
        const val PASSWORD_VARIABLE = "PROTOBENCH_DATA_DB_PASSWORD"
        val NONE = RunDatabases(null)

        private fun needsPostgres(scenario: Scenario) = scenario.writes && scenario.variants.any { it.store == Database.POSTGRESQL }

        /** PostgreSQL's programs when [scenario] needs them; [PostgresMissing] (bad input, before any folder exists) when absent. */
        fun programs(scenario: Scenario): PostgresBinaries? = if (needsPostgres(scenario)) PostgresBinaries.find() else null

        /**
         * The cluster when [binaries] were needed, tied to this process: in [runDir]/postgres,
         * or, when the account PostgreSQL runs as under root cannot enter the run's folder (a
         * private temporary folder), in a folder of its own under the system's temporary one.
         */
        fun open(binaries: PostgresBinaries?, runDir: Path, progress: (String) -> Unit): RunDatabases {
            if (binaries == null) return NONE
            val dir = clusterDir(runDir)
            val cluster = PostgresCluster(binaries).start(dir).stopWith()
            progress("postgresql ${cluster.state.version}: a throw-away cluster on 127.0.0.1:${cluster.port} (${cluster.dataDir})")
            return RunDatabases(cluster, dir, runDir)
        }

        private fun clusterDir(runDir: Path): Path {
            val inRun = runDir.resolve("postgres")
            if (ServerAccount.forCluster(ClusterDir(inRun).data).canEnter(runDir)) return inRun
            val own = Files.createTempDirectory("protobench-postgres-")
            Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwxr-xr-x"))
            return own
        }
    }
}
