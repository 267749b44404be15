package io.protobench.bench.database

import java.io.IOException
import java.net.InetAddress
import java.net.ServerSocket
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption
import java.nio.file.attribute.PosixFilePermissions
import java.security.SecureRandom
import java.time.Duration

/**
 * A throw-away PostgreSQL cluster in a folder ([ClusterDir]), made and run with the
 * installed server programs on a free loopback port, for the data-server's write path
 * (`protobench.data.db.url`). Clients log in as [USER] with a random password (SCRAM)
 * to the database [DATABASE]; the server listens on 127.0.0.1 only. [start] leaves the
 * server running (`protobench db start`) unless the caller ties it to a process with
 * [RunningCluster.stopWith]; [stop] stops the cluster of a folder from any process.
 */
class PostgresCluster(private val binaries: PostgresBinaries, private val timeout: Duration = Duration.ofSeconds(90)) {
    /**
     * Starts the cluster of [dir], initialising one first when [dir] has none (a stopped
     * cluster is started again, on a new port). Throws [ClusterProblem] when one is already
     * running there or [dir] cannot serve, [ClusterFailed] when PostgreSQL fails.
     */
    fun start(dir: Path): RunningCluster {
        val files = ClusterDir(dir)
        files.runningPostmaster()?.let { throw ClusterProblem(alreadyRunning(files, it)) }
        try {
            val account = ServerAccount.forCluster(files.data)
            prepare(files, account)
            val password = if (files.initialised) knownPassword(files) else initialise(files, account)
            val port = freeLoopbackPort()
            startServer(files, account, port)
            return described(files, account, port, password)
        } catch (e: IOException) {
            throw ClusterProblem("cannot use ${files.root} for a cluster: ${e.javaClass.simpleName}: ${e.message}")
        }
    }

    /** The started server with its state written; a server whose state cannot be written is stopped again. */
    private fun described(files: ClusterDir, account: ServerAccount, port: Int, password: String): RunningCluster {
        val postmaster = files.runningPostmaster()
            ?: throw ClusterFailed("pg_ctl started PostgreSQL, but no server runs in ${files.data}; see ${files.log}")
        val state = ClusterState(
            "jdbc:postgresql://$HOST:$port/$DATABASE",
            USER,
            password,
            port,
            files.data.toString(),
            postmaster.pid(),
            account.userName,
            files.version,
        )
        try {
            state.write(files.state)
        } catch (e: IOException) {
            stop(files.root)
            throw e
        }
        return RunningCluster(state, postmaster, account.wrap(stopCommand(files)), files.watchdogLog) { stop(files.root) }
    }

    /**
     * Stops the cluster of [dir] and waits until it is gone: true when it was running,
     * false when it was already stopped. A folder without a cluster is a [ClusterProblem].
     */
    fun stop(dir: Path): Boolean {
        val files = ClusterDir(dir)
        if (!files.initialised) throw ClusterProblem(noCluster(files))
        if (files.runningPostmaster() == null) return false
        val account = ServerAccount.forCluster(files.data)
        val outcome = account.run(stopCommand(files), files.root, timeout)
        if (!outcome.succeeded && files.runningPostmaster() != null) {
            throw ClusterFailed("pg_ctl could not stop the cluster in ${files.data} (exit ${outcome.exitCode}): ${outcome.tail()}")
        }
        return true
    }

    private fun stopCommand(files: ClusterDir) =
        listOf(binaries.pgCtl.toString(), "-D", files.data.toString(), "-m", "fast", "-w", "-t", WAIT_SECONDS, "stop")

    /** The folder, the empty data directory and the log, each given to the server's account. */
    private fun prepare(files: ClusterDir, account: ServerAccount) {
        Files.createDirectories(files.root)
        if (!account.canEnter(files.root)) throw ClusterProblem(unreachable(files, account))
        if (!Files.exists(files.data)) Files.createDirectory(files.data, PosixFilePermissions.asFileAttribute(PRIVATE_FOLDER))
        if (!Files.exists(files.log)) Files.createFile(files.log)
        account.handOver(files.data)
        account.handOver(files.log)
    }

    /**
     * initdb, the benchmark settings ([BenchmarkSettings]) and the database [DATABASE];
     * returns the password. The database is made by the server in single-user mode before
     * it first starts (exit_on_error turns a failure into a non-zero exit), so no client
     * program or JDBC driver is needed here.
     */
    private fun initialise(files: ClusterDir, account: ServerAccount): String {
        val password = newPassword()
        try {
            Files.deleteIfExists(files.passwordFile)
            Files.createFile(files.passwordFile, PosixFilePermissions.asFileAttribute(PRIVATE_FILE))
            Files.writeString(files.passwordFile, password + "\n")
            account.handOver(files.passwordFile)
            // C locale: the same sorting on every machine, and no failure where the caller's LANG is not generated.
            // No sync of initdb's own files: a throw-away cluster lost in a power cut is made again; the server syncs (fsync on).
            step(
                "initdb",
                account,
                files,
                listOf(
                    binaries.initdb.toString(), "-D", files.data.toString(), "-U", USER, "--pwfile=${files.passwordFile}",
                    "--auth=scram-sha-256", "-E", "UTF8", "--locale=C", "--no-sync",
                ),
            )
        } finally {
            Files.deleteIfExists(files.passwordFile)
        }
        Files.writeString(files.data.resolve("postgresql.conf"), BenchmarkSettings.conf(), StandardOpenOption.APPEND)
        step(
            "creating the database $DATABASE",
            account,
            files,
            listOf(binaries.postgres.toString(), "--single", "-D", files.data.toString(), "-c", "exit_on_error=on", "postgres"),
            input = "CREATE DATABASE $DATABASE;\n",
        )
        return password
    }

    private fun startServer(files: ClusterDir, account: ServerAccount, port: Int) {
        val outcome = account.run(
            listOf(
                binaries.pgCtl.toString(), "-D", files.data.toString(), "-l", files.log.toString(),
                "-w", "-t", WAIT_SECONDS, "-o", "-p $port", "start",
            ),
            files.root,
            timeout,
        )
        if (!outcome.succeeded) {
            throw ClusterFailed(
                "PostgreSQL did not start (pg_ctl exit ${outcome.exitCode}): ${outcome.tail()}; " +
                    "postgres.log: ${logTail(files)}; see ${files.log}",
            )
        }
    }

    private fun step(what: String, account: ServerAccount, files: ClusterDir, command: List<String>, input: String = "") {
        val outcome = account.run(command, files.root, timeout, input)
        if (!outcome.succeeded) throw ClusterFailed("$what failed for ${files.data} (exit ${outcome.exitCode}): ${outcome.tail()}")
    }

    private fun knownPassword(files: ClusterDir): String = ClusterState.read(files.state)?.password ?: throw ClusterProblem(
        "${files.data} holds a stopped cluster but ${files.state} is missing, so its password is unknown: " +
            "remove ${files.data} for a fresh cluster, or choose another folder",
    )

    private fun logTail(files: ClusterDir): String = runCatching {
        ProgramOutcome(0, Files.readString(files.log)).tail(LOG_LINES)
    }.getOrDefault("unreadable")

    private fun alreadyRunning(files: ClusterDir, postmaster: ProcessHandle): String {
        val url = runCatching { ClusterState.read(files.state)?.jdbcUrl }.getOrNull()
        return "a cluster is already running in ${files.root} (postmaster pid ${postmaster.pid()}${url?.let { ", $it" } ?: ""}): " +
            "use it, or stop it first"
    }

    private fun unreachable(files: ClusterDir, account: ServerAccount) =
        "PostgreSQL would run as ${account.description}, which cannot enter ${files.root}: a folder above it is closed to other users. " +
            "Choose a folder every user may enter (e.g. under /tmp or /var/tmp)"

    companion object {
        const val USER = "protobench"
        const val DATABASE = "protobench"
        const val HOST = "127.0.0.1"

        /** How long pg_ctl waits for a start or a stop, seconds. */
        private const val WAIT_SECONDS = "60"
        private const val LOG_LINES = 4
        private const val PASSWORD_LENGTH = 24
        private const val PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
        private val PRIVATE_FOLDER = PosixFilePermissions.fromString("rwx------")
        private val PRIVATE_FILE = PosixFilePermissions.fromString("rw-------")
        private val random = SecureRandom()

        fun noCluster(files: ClusterDir) = "no cluster in ${files.root} (no ${files.data.fileName}/PG_VERSION)"

        /** A port the system has free on 127.0.0.1 now (bound, then released for the server). */
        private fun freeLoopbackPort(): Int = ServerSocket(0, 1, InetAddress.getByName(HOST)).use { it.localPort }

        private fun newPassword(): String = (1..PASSWORD_LENGTH).map {
            PASSWORD_ALPHABET[random.nextInt(PASSWORD_ALPHABET.length)]
        }.joinToString("")
    }
}
