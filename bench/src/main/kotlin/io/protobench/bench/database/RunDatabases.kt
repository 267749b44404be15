package io.protobench.bench.database

import io.protobench.bench.measure.ExternalDatabaseRecord
import io.protobench.bench.measure.PostgresClusterRecord
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
 * kept as `logs/postgres.log`. With an [external] database (`run --db-url`) no cluster is
 * started: every pair that does not ask for H2 by name writes there, and its members table
 * is emptied when the run ends.
 */
class RunDatabases private constructor(
    private val cluster: RunningCluster?,
    /** The cluster's folder, removed once the cluster has stopped: data thrown away, its log kept in [runDir]'s logs. */
    private val clusterDir: Path? = null,
    private val runDir: Path? = null,
    private val external: ExternalDatabase? = null,
    /** The external database's server version, as [ExternalDatabase.check] found it. */
    private val externalVersion: String? = null,
    private val progress: (String) -> Unit = {},
) : AutoCloseable {
    /** The data-server settings that point [variant]'s write path at its database; none for H2. */
    fun dataServerArguments(variant: Variant?): List<String> = when {
        external != null && writesExternally(variant) -> external.dataServerArguments()

        cluster != null && variant?.store == Database.POSTGRESQL ->
            listOf("--protobench.data.db.url=${cluster.jdbcUrl}", "--protobench.data.db.user=${cluster.user}")

        else -> emptyList()
    }

    /**
     * The password goes by environment, so that it stays out of the command lines run.json
     * records (Spring Boot binds `PROTOBENCH_DATA_DB_PASSWORD` to `protobench.data.db.password`).
     */
    fun dataServerEnvironment(variant: Variant?): Map<String, String> = when {
        external != null && writesExternally(variant) -> mapOf(PASSWORD_VARIABLE to external.password)
        cluster != null && variant?.store == Database.POSTGRESQL -> mapOf(PASSWORD_VARIABLE to cluster.password)
        else -> emptyMap()
    }

    /**
     * The postmaster of [variant]'s database when it runs apart from the data-server on this
     * machine (the throw-away cluster); null for H2, and for an external database, whose
     * processes are not the run's to count.
     */
    fun postmasterPid(variant: Variant?): Long? = if (cluster != null && variant?.store == Database.POSTGRESQL) cluster.state.pid else null

    /** For run.json: the external database the run wrote to, and which variants wrote there; null without one. */
    fun externalRecord(scenario: Scenario): ExternalDatabaseRecord? = external?.let { db ->
        ExternalDatabaseRecord(
            db.jdbcUrl,
            db.user,
            db.schema,
            externalVersion.orEmpty(),
            scenario.variants.filter(::writesExternally).map { it.name },
        )
    }

    /** For run.json: the cluster's version, address and settings; null without one. */
    fun clusterRecord(): PostgresClusterRecord? = cluster?.let { c ->
        PostgresClusterRecord(
            c.state.version,
            c.jdbcUrl,
            c.dataDir.toString(),
            c.state.serverAccount,
            BenchmarkSettings.ALL.associate { it.name to it.value },
        )
    }

    override fun close() {
        external?.let { db -> db.emptyMembers()?.let(progress) ?: progress("emptied ${db.schema}.members in ${db.jdbcUrl}") }
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

        /**
         * PostgreSQL's programs when [scenario] needs a throw-away cluster (not when an [external]
         * database takes its place); [PostgresMissing] (bad input, before any folder exists) when absent.
         */
        fun programs(scenario: Scenario, external: ExternalDatabase? = null): PostgresBinaries? = if (external == null &&
            needsPostgres(scenario)
        ) {
            PostgresBinaries.find()
        } else {
            null
        }

        /**
         * Whether [variant]'s data-server writes to the run's external database: every one but
         * a variant that names H2 (`database: h2`), which keeps its database in its own JVM.
         */
        fun writesExternally(variant: Variant?): Boolean = variant?.database == null || variant.store == Database.POSTGRESQL

        /**
         * The [external] database, already [ExternalDatabase.check]ed (it found [version]): nothing
         * to start, its members table emptied on [close].
         */
        fun external(external: ExternalDatabase, version: String, progress: (String) -> Unit): RunDatabases {
            progress("postgresql $version at ${external.jdbcUrl}: an external database, schema ${external.schema} (its CPU is not counted)")
            return RunDatabases(null, external = external, externalVersion = version, progress = progress)
        }

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
