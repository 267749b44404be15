package io.protobench.bench.database

import io.protobench.bench.process.ChildEnvironment
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.TimeUnit

/** A PostgreSQL program's exit code and what it printed (stdout and stderr together). */
data class ProgramOutcome(val exitCode: Int, val output: String) {
    val succeeded: Boolean get() = exitCode == 0

    /** The last lines of the output, for a message. */
    fun tail(lines: Int = 8): String = output.trim().lines().takeLast(lines).joinToString(" | ")
}

/**
 * The account PostgreSQL's programs run as. `initdb`, `pg_ctl` and `postgres` refuse to
 * run as root (a server with root's rights could be made to overwrite any file through
 * SQL), and protobench, like CI, often runs as root. So under root they run as an
 * unprivileged account ([Switched], through util-linux's `setpriv`, no PAM session), and
 * every file they must write is handed to that account first; as any other user they
 * run as that user ([CurrentUser]).
 */
sealed class ServerAccount {
    /** Who the programs run as, in words. */
    abstract val description: String

    /** The account's login name. */
    abstract val userName: String

    /** [command] as this account runs it. */
    abstract fun wrap(command: List<String>): List<String>

    /** Gives [path] to this account, so the programs may write it. */
    abstract fun handOver(path: Path)

    /** Whether this account can reach [dir] (every folder above it open to it). */
    abstract fun canEnter(dir: Path): Boolean

    object CurrentUser : ServerAccount() {
        override val description = "the current user"
        override val userName: String get() = System.getProperty("user.name")
        override fun wrap(command: List<String>) = command
        override fun handOver(path: Path) = Unit
        override fun canEnter(dir: Path) = true
    }

    data class Switched(val name: String, val uid: Int, val gid: Int) : ServerAccount() {
        override val description get() = "user $name (PostgreSQL refuses to run as root)"
        override val userName get() = name
        override fun wrap(command: List<String>) = listOf("setpriv", "--reuid=$uid", "--regid=$gid", "--init-groups", "--") + command

        override fun handOver(path: Path) {
            Files.setAttribute(path, "unix:uid", uid)
            Files.setAttribute(path, "unix:gid", gid)
        }

        override fun canEnter(dir: Path) = run(listOf("test", "-x", dir.toString()), dir.root, Duration.ofSeconds(10)).succeeded
    }

    /**
     * Runs [command] as this account in [workDir], with the runner's allow-listed
     * environment (so a `PGPORT` or `PGDATA` of the caller's shell changes nothing) and
     * [input] on its standard input; ended after [timeout]. The output goes through a file,
     * never a pipe, so a server the program leaves running cannot hold this call open.
     */
    fun run(command: List<String>, workDir: Path, timeout: Duration, input: String = ""): ProgramOutcome {
        val output = Files.createTempFile("protobench-db", ".out")
        try {
            val builder = ProcessBuilder(wrap(command)).directory(workDir.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile())
            ChildEnvironment.apply(builder)
            val process = builder.start()
            // A program that exits without reading its input closes the pipe: its exit code tells the rest.
            runCatching { process.outputStream.use { it.write(input.toByteArray()) } }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
                return ProgramOutcome(
                    TIMED_OUT,
                    "${command.first()} did not finish within ${timeout.seconds} s: ${Files.readString(output)}",
                )
            }
            return ProgramOutcome(process.exitValue(), Files.readString(output))
        } finally {
            Files.deleteIfExists(output)
        }
    }

    companion object {
        /** The accounts tried under root, in order: Debian's package creates `postgres`; `nobody` is everywhere. */
        val UNPRIVILEGED = listOf("postgres", "nobody")

        private const val TIMED_OUT = 124

        /**
         * The account for the cluster whose data directory is [data]: the current user unless
         * this process is root; under root the owner of an existing [data], else the first
         * of [UNPRIVILEGED] this machine has ([lookup] finds an account by name).
         */
        fun forCluster(data: Path, root: Boolean = runsAsRoot(), lookup: (String) -> Switched? = ::lookup): ServerAccount {
            if (!root) return CurrentUser
            if (Files.isDirectory(data)) return owner(data)
            return UNPRIVILEGED.firstNotNullOfOrNull(lookup) ?: throw ClusterProblem(
                "PostgreSQL refuses to run as root, and this machine has none of the accounts protobench would run it as " +
                    "(${UNPRIVILEGED.joinToString(", ")}): " +
                    "create one (apt-get install ${PostgresBinaries.DEBIAN_PACKAGE} creates postgres) " +
                    "or run protobench as another user",
            )
        }

        /** Whether this process runs as root: `/proc/self` belongs to the process's effective user. */
        fun runsAsRoot(): Boolean = runCatching { Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0 }
            .getOrElse { System.getProperty("user.name") == "root" }

        private fun owner(data: Path): Switched {
            val uid = Files.getAttribute(data, "unix:uid") as Int
            val gid = Files.getAttribute(data, "unix:gid") as Int
            return Switched(Files.getOwner(data).name, uid, gid)
        }

        /** The account [name] as `getent passwd` gives it (name:x:uid:gid:…), or null when there is none. */
        fun lookup(name: String): Switched? {
            val entry = CurrentUser.run(listOf("getent", "passwd", name), Path.of("/"), Duration.ofSeconds(10))
            val fields = entry.output.trim().split(':')
            if (!entry.succeeded || fields.size < 4) return null
            val uid = fields[2].toIntOrNull() ?: return null
            val gid = fields[3].toIntOrNull() ?: return null
            return Switched(name, uid, gid).takeIf { uid != 0 }
        }
    }
}
