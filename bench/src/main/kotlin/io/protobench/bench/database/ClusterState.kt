package io.protobench.bench.database

import com.fasterxml.jackson.module.kotlin.readValue
import io.protobench.bench.json.JsonFiles
import java.nio.file.Files
import java.nio.file.Path

/**
 * `cluster.json`: how to reach a cluster and who runs it, for `db stop`, `db status` and
 * a restart (the password is only known here). Readable by its owner alone.
 */
data class ClusterState(
    val jdbcUrl: String,
    val user: String,
    val password: String,
    val port: Int,
    val dataDir: String,
    /** The postmaster's pid when the cluster was started. */
    val pid: Long,
    /** The operating-system account the server runs as. */
    val serverAccount: String,
    /** PostgreSQL's major version. */
    val version: String,
) {
    /** The data-server's settings that point its write path at this cluster. */
    fun dataServerArguments(): List<String> =
        listOf("--protobench.data.db.url=$jdbcUrl", "--protobench.data.db.user=$user", "--protobench.data.db.password=$password")

    fun write(file: Path) = JsonFiles.writeAtomically(file, JsonFiles.mapper.writeValueAsBytes(this), ownerOnly = true)

    companion object {
        /** The state in [file], null when there is none; a file that is not a cluster's state is a [ClusterProblem]. */
        fun read(file: Path): ClusterState? {
            if (!Files.isRegularFile(file)) return null
            return runCatching { JsonFiles.mapper.readValue<ClusterState>(file.toFile()) }
                .getOrElse { throw ClusterProblem("$file is not a cluster's state (${it.message?.lineSequence()?.first()})") }
        }
    }
}
