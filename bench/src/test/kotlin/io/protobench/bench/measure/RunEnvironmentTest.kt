package io.protobench.bench.measure

import io.protobench.bench.json.JsonFiles
import io.protobench.bench.scenario.LoadLevel
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.entry
import org.junit.jupiter.api.Test

/** run.json's environment and a trial's load: typed in the code, the same JSON on disk as before they were. */
class RunEnvironmentTest {
    private val mapper = JsonFiles.mapper

    /** Every key a run writes today, in the order it writes them, with a value of each key's type. */
    private val everyKey = """
        {
          "cpuModel" : "AMD EPYC",
          "cpuCores" : 2,
          "memoryTotalMb" : 24105,
          "kernel" : "6.18.44",
          "os" : "Linux amd64",
          "jdk" : "Debian 17.0.15",
          "serverJvmOptions" : [ "-Xms1g", "-Xmx1g" ],
          "loadGenerator" : "Proto-Bench load driver load-driver.jar",
          "libraries" : {
            "grpc-java" : "1.80.0",
            "netty" : "4.1.135.Final"
          },
          "gitCommit" : "eefe9cfd",
          "gitDirty" : false,
          "processesSharingCpus" : "load-driver, api-server and data-server run on the same machine and compete for its cores",
          "placement" : "not pinned",
          "schedAutogroup" : true,
          "cpuIdle" : "haltpoll, polls 0 ns before halting",
          "childEnvironment" : [ "PATH", "HOME" ],
          "serverJava" : "/usr/bin/java",
          "serverJdk" : "openjdk version \"17.0.15\"",
          "serverJdk · zgc" : "openjdk version \"21.0.5\"",
          "network" : {
            "profile" : "region",
            "asked" : "RTT 10 ms, 1 Gbit/s",
            "applied" : [ "tbf rate 1000 mbit/s" ],
            "measuredRttMs" : 9.872021,
            "relayOneWayMs" : 4.686225,
            "measuredBandwidthMbit" : 929.1207325132851,
            "measuredAnswerMs" : 8.879503999999999,
            "answerAtRateMs" : 8.77096167955801,
            "holds" : true,
            "relayCpu" : "the delay relay runs in the bench process: its CPU is not in the servers' figures"
          },
          "network · lan" : {
            "profile" : "lan",
            "refused" : "network lan is not applied as asked on this machine"
          },
          "postgresql" : {
            "version" : "15",
            "jdbcUrl" : "jdbc:postgresql://127.0.0.1:44169/protobench",
            "dataDir" : "/tmp/run/postgres/pgdata",
            "serverAccount" : "postgres",
            "settings" : {
              "fsync" : "on"
            }
          },
          "remote" : {
            "dataServer" : "10.0.0.2:8081:9091",
            "restartedPerFork" : true
          },
          "serverCommands" : {
            "api-server · zgc" : [ "java", "-jar", "api-server.jar" ]
          },
          "resumedAt" : [ "2026-01-01T00:00:00Z" ]
        }
    """.trimIndent()

    private fun read(json: String): RunEnvironment = mapper.readValue(json, RunEnvironment::class.java)

    private fun written(environment: RunEnvironment): String = mapper.writeValueAsString(environment)

    @Test
    fun `every key a run writes reads into its field and is written back byte for byte, per-variant keys included`() {
        val env = read(everyKey)

        assertThat(env.serverJdkByVariant).containsExactly(entry("zgc", "openjdk version \"21.0.5\""))
        assertThat(env.network?.relayOneWayMs).isEqualTo(4.686225)
        assertThat(env.networkByVariant.getValue("lan").refused).startsWith("network lan")
        assertThat(env.postgresql?.settings).containsEntry("fsync", "on")
        assertThat(env.remote).isEqualTo(RemoteServersRecord(dataServer = "10.0.0.2:8081:9091", restartedPerFork = true))
        assertThat(env.serverCommands?.keys).containsExactly("api-server · zgc")
        assertThat(env.resumedAt).containsExactly("2026-01-01T00:00:00Z")
        assertThat(env.schedAutogroup).isTrue()
        assertThat(env.cpuIdle).isEqualTo("haltpoll, polls 0 ns before halting")
        assertThat(env.other).isEmpty()
        assertThat(written(env)).isEqualTo(everyKey)
    }

    @Test
    fun `the k6 key of older records names the load generator and is written back under its own name`() {
        val env = read("""{ "cpuCores" : 2, "k6" : "v0.49.0", "gitDirty" : true }""")
        assertThat(env.loadGenerator).isEqualTo("k6 v0.49.0")
        assertThat(read("""{ "k6" : "k6 v1.8.1 (go1.26.8, linux/amd64)" }""").loadGenerator).isEqualTo("k6 v1.8.1 (go1.26.8, linux/amd64)")

        assertThat(mapper.readTree(written(env))).isEqualTo(mapper.readTree("""{ "cpuCores" : 2, "k6" : "v0.49.0", "gitDirty" : true }"""))
    }

    @Test
    fun `keys this version does not know, and values not of their key's type, are kept as read`() {
        val json = """{ "cpuModel" : "X", "futureKey" : { "a" : [ 1, 2 ] }, "cpuCores" : "several", "unknownNull" : null }"""
        val env = read(json)

        assertThat(env.cpuModel).isEqualTo("X")
        assertThat(env.cpuCores).isNull()
        assertThat(env.other.keys).containsExactlyInAnyOrder("futureKey", "cpuCores", "unknownNull")
        assertThat(mapper.readTree(written(env))).isEqualTo(mapper.readTree(json))
    }

    @Test
    fun `a fact not learnt is left out, and a known key written as null reads as not learnt`() {
        assertThat(written(RunEnvironment(cpuCores = 2, kernel = null))).isEqualTo("{\n  \"cpuCores\" : 2\n}")
        assertThat(read("""{ "kernel" : null, "cpuCores" : 2 }""")).isEqualTo(RunEnvironment(cpuCores = 2))
        assertThat(written(RunEnvironment.NONE)).isEqualTo("{ }")
    }

    @Test
    fun `a crossover keeps the machine and the build of its first point`() {
        val machine = read(everyKey).machine()
        assertThat(machine).isEqualTo(
            RunEnvironment(
                cpuModel = "AMD EPYC", cpuCores = 2, memoryTotalMb = 24105, kernel = "6.18.44", serverJdk = "openjdk version \"17.0.15\"",
                loadGenerator = "Proto-Bench load driver load-driver.jar", gitCommit = "eefe9cfd", gitDirty = false,
                placement = "not pinned",
                schedAutogroup = true, cpuIdle = "haltpoll, polls 0 ns before halting",
            ),
        )
    }

    @Test
    fun `how idle cores wait is read from cpuidle, with haltpoll's polling time where it is the driver`(
        @org.junit.jupiter.api.io.TempDir dir: java.nio.file.Path,
    ) {
        val cpuidle = java.nio.file.Files.createDirectories(dir.resolve("cpuidle"))
        val haltpoll = java.nio.file.Files.createDirectories(dir.resolve("haltpoll"))
        fun idle() = io.protobench.bench.lab.Environment.cpuIdle(cpuidle, haltpoll)

        assertThat(idle()).isNull()
        java.nio.file.Files.writeString(cpuidle.resolve("current_driver"), "none\n")
        assertThat(idle()).isNull()
        java.nio.file.Files.writeString(cpuidle.resolve("current_driver"), "haltpoll\n")
        assertThat(idle()).isEqualTo("haltpoll")
        java.nio.file.Files.writeString(haltpoll.resolve("guest_halt_poll_ns"), "0\n")
        assertThat(idle()).isEqualTo("haltpoll, polls 0 ns before halting")
        java.nio.file.Files.writeString(cpuidle.resolve("current_driver"), "intel_idle\n")
        assertThat(idle()).isEqualTo("intel_idle")
    }

    @Test
    fun `the kernel's autogroup setting is read as on, off, or not there`(@org.junit.jupiter.api.io.TempDir dir: java.nio.file.Path) {
        val setting = dir.resolve("sched_autogroup_enabled")
        java.nio.file.Files.writeString(setting, "1\n")
        assertThat(io.protobench.bench.lab.Environment.schedAutogroup(setting)).isTrue()
        java.nio.file.Files.writeString(setting, "0\n")
        assertThat(io.protobench.bench.lab.Environment.schedAutogroup(setting)).isFalse()
        assertThat(io.protobench.bench.lab.Environment.schedAutogroup(dir.resolve("absent"))).isNull()
    }

    @Test
    fun `a trial's load is written as its label and read back from it`() {
        assertThat(TrialLoad.parse("vus=10")).isEqualTo(TrialLoad.vus(10))
        assertThat(TrialLoad.parse("rate=1500/s")).isEqualTo(TrialLoad.rate(1500))
        assertThat(TrialLoad.of(LoadLevel.Rate(1500, 80)).label).isEqualTo(LoadLevel.Rate(1500, 80).label).isEqualTo("rate=1500/s")
        assertThat(TrialLoad.of(LoadLevel.Vus(10)).label).isEqualTo("vus=10")
        assertThat(mapper.writeValueAsString(TrialLoad.rate(1500))).isEqualTo("\"rate=1500/s\"")
        assertThat(mapper.readValue("\"vus=50\"", TrialLoad::class.java)).isEqualTo(TrialLoad.vus(50))
        assertThat("${TrialLoad.rate(7)}").isEqualTo("rate=7/s")
        assertThatThrownBy { TrialLoad.parse("rate=fast") }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("vus=N or rate=N/s")
    }
}
