package io.protobench.bench.database

import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions

/** A cluster folder's state file, its postmaster, the account the programs run as and the settings, without PostgreSQL. */
class ClusterFilesTest {
    @TempDir lateinit var tmp: Path

    private val state = ClusterState(
        "jdbc:postgresql://127.0.0.1:54321/protobench",
        "protobench",
        "s3cret",
        54321,
        "/runs/db/pgdata",
        4242,
        "postgres",
        "15",
    )

    @Test
    fun `the state survives a round trip through cluster json, readable by its owner alone`() {
        val file = tmp.resolve("cluster.json")
        state.write(file)

        assertThat(ClusterState.read(file)).isEqualTo(state)
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------")
        assertThat(Files.readString(file)).contains("\"jdbcUrl\"", "\"pid\" : 4242")
    }

    @Test
    fun `no state file is no state, and a file that is not one is named`() {
        assertThat(ClusterState.read(tmp.resolve("cluster.json"))).isNull()

        val broken = Files.writeString(tmp.resolve("cluster.json"), "{\"port\": 1}")
        assertThatThrownBy { ClusterState.read(broken) }.isInstanceOf(ClusterProblem::class.java)
            .hasMessageContaining("$broken is not a cluster's state")
    }

    @Test
    fun `the data-server is pointed at the cluster by three settings`() {
        assertThat(state.dataServerArguments()).containsExactly(
            "--protobench.data.db.url=jdbc:postgresql://127.0.0.1:54321/protobench",
            "--protobench.data.db.user=protobench",
            "--protobench.data.db.password=s3cret",
        )
    }

    @Test
    @Tag(PROCESS)
    fun `the postmaster is the live process postmaster pid names, started when it says`() {
        val files = ClusterDir(tmp)
        Files.createDirectories(files.data)
        assertThat(files.runningPostmaster()).isNull()

        val me = ProcessHandle.current()
        val started = me.info().startInstant().get().epochSecond
        postmasterPid(files, me.pid(), started)
        assertThat(files.runningPostmaster()?.pid()).isEqualTo(me.pid())

        postmasterPid(files, me.pid(), started - 3_600) // the pid was recycled: another process has it now
        assertThat(files.runningPostmaster()).isNull()

        val gone = ProcessBuilder("true").start().also { it.waitFor() }
        postmasterPid(files, gone.pid(), started)
        assertThat(files.runningPostmaster()).isNull()
    }

    private fun postmasterPid(files: ClusterDir, pid: Long, startSecond: Long) =
        Files.write(files.data.resolve("postmaster.pid"), listOf("$pid", "${files.data}", "$startSecond", "54321", "", "127.0.0.1"))

    @Test
    fun `as root the programs run as postgres, else nobody, and without either nothing starts`() {
        val data = tmp.resolve("pgdata")
        val postgres = ServerAccount.Switched("postgres", 101, 104)
        val nobody = ServerAccount.Switched("nobody", 65534, 65534)

        assertThat(ServerAccount.forCluster(data, root = false) { postgres }).isEqualTo(ServerAccount.CurrentUser)
        assertThat(ServerAccount.forCluster(data, root = true) { postgres }).isEqualTo(postgres)
        assertThat(ServerAccount.forCluster(data, root = true) { name -> nobody.takeIf { name == "nobody" } }).isEqualTo(nobody)
        assertThatThrownBy { ServerAccount.forCluster(data, root = true) { null } }.isInstanceOf(ClusterProblem::class.java)
            .hasMessageContaining("refuses to run as root").hasMessageContaining("postgres, nobody")
    }

    @Test
    fun `a switched account runs the programs through setpriv with its ids`() {
        assertThat(ServerAccount.Switched("postgres", 101, 104).wrap(listOf("/bin/pg_ctl", "status")))
            .containsExactly("setpriv", "--reuid=101", "--regid=104", "--init-groups", "--", "/bin/pg_ctl", "status")
    }

    @Test
    fun `an existing data directory keeps the account that owns it`() {
        val data = Files.createDirectories(tmp.resolve("pgdata"))
        val owner = Files.getAttribute(data, "unix:uid") as Int

        val account = ServerAccount.forCluster(data, root = true) { error("no lookup for an existing cluster") }

        assertThat((account as ServerAccount.Switched).uid).isEqualTo(owner)
    }

    @Test
    fun `the settings keep fsync on and say why in postgresql conf`() {
        val conf = BenchmarkSettings.conf()

        assertThat(conf).contains("fsync = on", "listen_addresses = '127.0.0.1'", "unix_socket_directories = ''")
        assertThat(conf.lines().dropWhile { !it.startsWith("# PostgreSQL's default") }.drop(1).first()).isEqualTo("fsync = on")
        assertThat(BenchmarkSettings.ALL.map { it.name }).doesNotHaveDuplicates()
    }
}
