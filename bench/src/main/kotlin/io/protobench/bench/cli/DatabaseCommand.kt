package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import io.protobench.bench.database.ClusterDir
import io.protobench.bench.database.ClusterFailed
import io.protobench.bench.database.ClusterProblem
import io.protobench.bench.database.ClusterState
import io.protobench.bench.database.PostgresBinaries
import io.protobench.bench.database.PostgresCluster
import java.nio.file.InvalidPathException
import java.nio.file.Path

/**
 * `protobench db`: a throw-away PostgreSQL cluster on loopback for the data-server's write
 * path (issue 13), made with the installed server programs. Exit codes: 0 done (also `stop`
 * of a cluster already stopped: stopping is idempotent); 2 nothing done — programs missing
 * (the message names the apt package), a folder that cannot serve, a cluster already running
 * there, no cluster in the folder, or `status` of a cluster that is not running; 3
 * PostgreSQL itself failed (initdb, start or stop; the message quotes it and names the log).
 */
class DatabaseCommand : CliktCommand(name = "db") {
    override fun help(context: Context) =
        "A throw-away PostgreSQL cluster in a folder, on a free loopback port, for the data-server's write path " +
            "(--protobench.data.db.url): start, stop, status. Needs the installed server programs (apt-get install postgresql)."

    override fun run() = Unit
}

/** [findBinaries]: where the server programs are (tests give a search that finds none). */
class DatabaseStartCommand(private val findBinaries: () -> PostgresBinaries = { PostgresBinaries.find() }) : CliktCommand(name = "start") {
    override fun help(context: Context) =
        "Initialise a cluster in DIR (or start its stopped one again) and leave it running; prints the JDBC URL, user, password " +
            "and the data-server's settings for it."

    private val dir by dirOption()

    override fun run() {
        val cluster = guarded { PostgresCluster(findBinaries()).start(folder(dir)) }
        describe(cluster.state)
        echo("It keeps running: stop it with `protobench db stop --dir $dir`")
    }
}

class DatabaseStopCommand(private val findBinaries: () -> PostgresBinaries = { PostgresBinaries.find() }) : CliktCommand(name = "stop") {
    override fun help(context: Context) =
        "Stop the cluster in DIR (fast shutdown: sessions ended, committed data kept). A cluster already stopped is not an error."

    private val dir by dirOption()

    override fun run() {
        val stopped = guarded { PostgresCluster(findBinaries()).stop(folder(dir)) }
        echo(if (stopped) "stopped the cluster in $dir" else "the cluster in $dir was not running: nothing to stop")
    }
}

class DatabaseStatusCommand : CliktCommand(name = "status") {
    override fun help(context: Context) = "Whether the cluster in DIR is running, and how to reach it. Exit 0 when it runs, 2 when not."

    private val dir by dirOption()

    override fun run() {
        val files = ClusterDir(folder(dir))
        if (!files.initialised) failWith(2, "${PostgresCluster.noCluster(files)}: start one with `protobench db start --dir $dir`")
        val postmaster = files.runningPostmaster()
            ?: failWith(
                2,
                "the cluster in $dir (PostgreSQL ${files.version}) is not running: start it with `protobench db start --dir $dir`",
            )
        val state = guarded { ClusterState.read(files.state) }
            ?: failWith(
                2,
                "a server runs in ${files.data} (pid ${postmaster.pid()}), but ${files.state} is missing: how to reach it is unknown",
            )
        describe(state)
    }
}

/** `--dir`: the folder of the cluster. */
private fun CliktCommand.dirOption() =
    option("--dir", help = "Folder of the cluster: pgdata/, postgres.log and cluster.json go there").required()

/** How to reach a running cluster, in the lines `db start` and `db status` print. */
private fun CliktCommand.describe(state: ClusterState) {
    echo(
        "PostgreSQL ${state.version} running in ${state.dataDir} on 127.0.0.1:${state.port} " +
            "(pid ${state.pid}, as user ${state.serverAccount})",
    )
    echo("JDBC URL:    ${state.jdbcUrl}")
    echo("user:        ${state.user}")
    echo("password:    ${state.password}")
    echo("data-server: ${state.dataServerArguments().joinToString(" ")} --protobench.data.members.enabled=true")
    echo("log:         ${Path.of(state.dataDir).resolveSibling("postgres.log")}")
}

/** The folder `--dir` names, or exit 2 when it is not a path. */
private fun CliktCommand.folder(dir: String): Path = try {
    Path.of(dir).toAbsolutePath()
} catch (e: InvalidPathException) {
    failWith(2, "--dir $dir: not a path: ${e.message}")
}

/** [action], whose [ClusterProblem] ends the command with its message on stderr: exit 3 when PostgreSQL failed, else 2. */
private fun <T> CliktCommand.guarded(action: () -> T): T = try {
    action()
} catch (e: ClusterFailed) {
    failWith(3, e.message)
} catch (e: ClusterProblem) {
    failWith(2, e.message)
}

private fun CliktCommand.failWith(exitCode: Int, message: String?): Nothing {
    echo(message, err = true)
    throw ProgramResult(exitCode)
}
