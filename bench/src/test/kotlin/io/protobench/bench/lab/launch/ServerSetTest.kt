package io.protobench.bench.lab.launch

import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.InetSocketAddress
import java.nio.file.Path
import java.util.concurrent.TimeUnit

@Tag(PROCESS)
class ServerSetTest {
    @TempDir
    lateinit var dir: Path

    private fun set(vararg processes: Process) = ServerSet(
        null,
        mapOf("data-server-http" to 1),
        emptyMap(),
        processes.toList(),
        ChildProcesses(dir.resolve("children.pid")),
        logs = mapOf("data-server" to dir.resolve("data-server.log")),
    )

    @Test
    fun `a server that died says why, in the last words of its log`() {
        val log = dir.resolve("data-server.log").toFile()
        val process = ProcessBuilder(
            "sh",
            "-c",
            "echo started; echo 'Terminating due to java.lang.OutOfMemoryError: Java heap space'; echo bye; exit 3",
        ).redirectErrorStream(true).redirectOutput(log).start()
        assertThat(process.waitFor(10, TimeUnit.SECONDS)).isTrue()
        assertThat(set(process).deathNotice())
            .startsWith("data-server exited with code 3: Terminating due to java.lang.OutOfMemoryError: Java heap space")
            .contains(log.toString())
    }

    @Test
    fun `the data-server is reached across its link when one is in between, else on loopback`() {
        val children = ChildProcesses(dir.resolve("children.pid"))
        val ports = mapOf("data-server-http" to 8081, "data-server-grpc" to 9091)
        val onLoopback = ServerSet(null, ports, emptyMap(), emptyList(), children)
        assertThat(onLoopback.dataServerUrl).isEqualTo("http://127.0.0.1:8081")
        assertThat(onLoopback.dataServerGrpc).isEqualTo("127.0.0.1:9091")
        // Through the delay relay: two loopback ports of this process, neither the server's own.
        val relayed = ServerSet(
            null,
            ports,
            emptyMap(),
            emptyList(),
            children,
            dataServerHttp = InetSocketAddress("127.0.0.1", 40001),
            dataServerGrpcRoute = InetSocketAddress("127.0.0.1", 40002),
        )
        assertThat(relayed.dataServerUrl).isEqualTo("http://127.0.0.1:40001")
        assertThat(relayed.dataServerGrpc).isEqualTo("127.0.0.1:40002")
        // Without a relay: the far address of the namespace.
        val far = ServerSet(
            null,
            ports,
            emptyMap(),
            emptyList(),
            children,
            dataServerHttp = InetSocketAddress("10.201.0.2", 8081),
            dataServerGrpcRoute = InetSocketAddress("10.201.0.2", 9091),
        )
        assertThat(far.dataServerGrpc).isEqualTo("10.201.0.2:9091")
    }

    @Test
    fun `no notice while every server runs`() {
        val process = ProcessBuilder("sleep", "30").start()
        try {
            assertThat(set(process).deathNotice()).isNull()
        } finally {
            process.destroyForcibly()
        }
    }
}
