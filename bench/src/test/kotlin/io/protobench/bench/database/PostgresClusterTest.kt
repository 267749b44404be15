package io.protobench.bench.database

import com.github.ajalt.clikt.core.subcommands
import com.github.ajalt.clikt.testing.test
import io.protobench.bench.cli.DatabaseCommand
import io.protobench.bench.cli.DatabaseStartCommand
import io.protobench.bench.cli.DatabaseStatusCommand
import io.protobench.bench.cli.DatabaseStopCommand
import io.protobench.bench.cli.Protobench
import io.protobench.bench.lab.clients.DataServerClient
import io.protobench.bench.lab.launch.Toolchain
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.BeforeEach
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.net.Socket
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions
import java.sql.DriverManager
import java.util.concurrent.TimeUnit

/**
 * Real throw-away clusters made with the installed PostgreSQL (skipped where it is not
 * installed): reached over JDBC, stopped with nothing left, stopped by the watchdog when
 * their owner dies, and driven through `protobench db`. Under root (here and in CI) the
 * server runs as an unprivileged account, so the folder is opened to other users.
 */
@Tag(PROCESS)
class PostgresClusterTest {
    @TempDir lateinit var tmp: Path

    /** Surefire runs in bench/; the project root holds the server modules. */
    private val projectDir: Path = Path.of("").toAbsolutePath().parent

    private lateinit var binaries: PostgresBinaries
    private val started = mutableListOf<RunningCluster>()

    @BeforeEach
    fun installed() {
        val found = runCatching { PostgresBinaries.find() }
        assumeTrue(found.isSuccess, "PostgreSQL's server programs are not installed: ${found.exceptionOrNull()?.message}")
        binaries = found.getOrThrow()
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"))
    }

    @AfterEach
    fun stopAll() = started.forEach { it.stop() }

    private fun start(dir: Path = tmp.resolve("db")) = PostgresCluster(binaries).start(dir).also(started::add)

    @Test
    fun `a started cluster takes writes over JDBC, and after stop its port is closed and no postgres of it is left`() {
        val cluster = start()
        val processes = serverProcesses(cluster)

        DriverManager.getConnection(cluster.jdbcUrl, cluster.user, cluster.password).use { connection ->
            connection.createStatement().use { it.execute("CREATE TABLE notes (id INT PRIMARY KEY, text TEXT NOT NULL)") }
            connection.prepareStatement("INSERT INTO notes VALUES (1, 'kept')").use { assertThat(it.executeUpdate()).isEqualTo(1) }
            connection.createStatement().use { statement ->
                val rows = statement.executeQuery("SELECT text, current_database(), current_setting('fsync') FROM notes")
                assertThat(rows.next()).isTrue()
                assertThat(listOf(rows.getString(1), rows.getString(2), rows.getString(3))).containsExactly("kept", "protobench", "on")
            }
        }
        assertThat(ClusterState.read(tmp.resolve("db/cluster.json"))).isEqualTo(cluster.state)
        assertThatThrownBy { start() }.isInstanceOf(ClusterProblem::class.java)
            .hasMessageContaining("already running in ${tmp.resolve("db")}")

        cluster.stop()
        cluster.stop() // idempotent

        assertThat(portOpen(cluster.port)).describedAs("port ${cluster.port} after stop").isFalse()
        assertThat(stillAlive(processes, seconds = 5)).describedAs("postgres processes of the cluster after stop").isEmpty()
        assertThat(
            ProcessHandle.allProcesses().filter { it.info().commandLine().orElse("").contains(cluster.dataDir.toString()) }.toList(),
        ).isEmpty()
    }

    @Test
    fun `a cluster tied to a process is stopped by its watchdog when that process is killed`() {
        val owner = ProcessBuilder("sleep", "60").start()
        val cluster = start().stopWith(owner.toHandle())
        val processes = serverProcesses(cluster)

        owner.destroyForcibly().waitFor(5, TimeUnit.SECONDS)

        assertThat(stillAlive(processes, seconds = 20)).describedAs("postgres processes after the owner was killed").isEmpty()
        assertThat(portOpen(cluster.port)).isFalse()
    }

    @Test
    fun `protobench db starts, reports and stops a cluster, and starts a stopped one again`() {
        val dir = tmp.resolve("cli db").toString()
        fun db(vararg argv: String) =
            Protobench().subcommands(DatabaseCommand().subcommands(DatabaseStartCommand(), DatabaseStopCommand(), DatabaseStatusCommand()))
                .test(listOf("db") + argv.toList())

        try {
            val start = db("start", "--dir", dir)
            assertThat(start.statusCode).describedAs(start.output).isEqualTo(0)
            assertThat(start.stdout).contains(
                "JDBC URL:    jdbc:postgresql://127.0.0.1:",
                "user:        protobench",
                "--protobench.data.db.url=",
                "protobench db stop --dir $dir",
            )
            assertThat(db("start", "--dir", dir).let { it.statusCode to it.stderr }).satisfies({ (code, stderr) ->
                assertThat(code).isEqualTo(2)
                assertThat(stderr).contains("already running")
            })
            assertThat(db("status", "--dir", dir).stdout).contains("running in", "127.0.0.1:")

            assertThat(db("stop", "--dir", dir).stdout).contains("stopped the cluster in $dir")
            assertThat(db("stop", "--dir", dir).let { it.statusCode to it.stdout })
                .isEqualTo(0 to "the cluster in $dir was not running: nothing to stop\n")
            assertThat(db("status", "--dir", dir).let { it.statusCode to it.stderr }).satisfies({ (code, stderr) ->
                assertThat(code).isEqualTo(2)
                assertThat(stderr).contains("is not running")
            })

            val again = db("start", "--dir", dir)
            assertThat(again.statusCode).describedAs(again.output).isEqualTo(0)
            val state = ClusterState.read(Path.of(dir, "cluster.json"))!!
            DriverManager.getConnection(state.jdbcUrl, state.user, state.password).use { assertThat(it.isValid(5)).isTrue() }
        } finally {
            runCatching { PostgresCluster(binaries).stop(Path.of(dir)) }
        }
    }

    @Test
    fun `the data-server's write path runs on the cluster - Flyway makes the schema and a member lands in PostgreSQL`() {
        val jar = runCatching { Toolchain(projectDir).serverJar("data-server") }
        assumeTrue(jar.isSuccess, "no data-server jar: the reactor's package phase builds it (./protobench test does)")
        val cluster = start()
        val (http, grpc) = freePort() to freePort()
        val log = tmp.resolve("data-server.log")
        val server = ProcessBuilder(
            listOf(
                Toolchain(projectDir).java.toString(),
                "-Xmx256m",
                "-jar",
                jar.getOrThrow().toString(),
                "--server.port=$http",
                "--protobench.data.grpc.port=$grpc",
                "--protobench.parent-pid=${ProcessHandle.current().pid()}",
                "--protobench.data.members.enabled=true",
            ) + cluster.state.dataServerArguments(),
        ).redirectErrorStream(true).redirectOutput(log.toFile()).start()
        try {
            awaitHealthy(server, DataServerClient("http://127.0.0.1:$http"), log)
            val member = """{"email":"pg@example.com","password":"test123!","name":"P","profileImage":"AAEC","etcInfo":"on postgres"}"""
            // HTTP/1.1: Tomcat refuses an h2c upgrade that carries a body (413).
            val answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI("http://127.0.0.1:$http/api/members")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(member)).build(),
                HttpResponse.BodyHandlers.ofString(),
            )
            assertThat(answer.statusCode()).describedAs(answer.body()).isEqualTo(201)
            DriverManager.getConnection(cluster.jdbcUrl, cluster.user, cluster.password).use { connection ->
                connection.createStatement().use { statement ->
                    val rows = statement.executeQuery("SELECT name, etc_info FROM members WHERE email = 'pg@example.com'")
                    assertThat(rows.next()).isTrue()
                    assertThat(rows.getString(1) to rows.getString(2)).isEqualTo("P" to "on postgres")
                }
            }
        } finally {
            server.destroy()
            if (!server.waitFor(15, TimeUnit.SECONDS)) server.destroyForcibly()
        }
    }

    private fun awaitHealthy(server: Process, client: DataServerClient, log: Path) {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90)
        while (!client.isHealthy()) {
            check(server.isAlive && System.nanoTime() < deadline) {
                "the data-server did not start: ${Files.readString(log).takeLast(2_000)}"
            }
            Thread.sleep(250)
        }
    }

    private fun freePort() = ServerSocket(0, 1, InetAddress.getByName("127.0.0.1")).use { it.localPort }

    @Test
    fun `under root a folder closed to other users is refused with the reason`() {
        assumeTrue(ServerAccount.runsAsRoot(), "only root switches to another account")
        val closed = Files.createDirectories(
            tmp.resolve("closed"),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")),
        )

        assertThatThrownBy { start(closed.resolve("db")) }.isInstanceOf(ClusterProblem::class.java)
            .hasMessageContaining("cannot enter ${closed.resolve("db")}").hasMessageContaining("PostgreSQL refuses to run as root")
    }

    /** The postmaster and every backend process it has now. */
    private fun serverProcesses(cluster: RunningCluster): List<ProcessHandle> {
        val postmaster = ProcessHandle.of(cluster.state.pid).orElseThrow()
        return listOf(postmaster) + postmaster.descendants().toList()
    }

    /**
     * Those of [processes] still alive after up to [seconds]. A server process that has exited
     * counts as alive until it is reaped, and its parent, the postmaster, may be gone first.
     */
    private fun stillAlive(processes: List<ProcessHandle>, seconds: Long): List<ProcessHandle> {
        val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds)
        while (processes.any { it.isAlive } && System.nanoTime() < deadline) Thread.sleep(100)
        return processes.filter { it.isAlive }
    }

    private fun portOpen(port: Int): Boolean = runCatching {
        Socket().use { it.connect(InetSocketAddress("127.0.0.1", port), 500) }
    }.isSuccess
}
