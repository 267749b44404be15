package io.protobench.bench.lab.remote

import com.sun.net.httpserver.HttpServer
import io.protobench.bench.run.InvalidRemote
import io.protobench.bench.run.Remote
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.remoteFlag
import io.protobench.bench.run.remoteOfFlag
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.ScenarioParser
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.ServerSocket
import java.nio.file.Path
import java.time.Duration

/** The `remote` topology's addresses, its pre-run check and what it refuses, without starting a server. */
class RemoteServersTest {

    @Test
    fun `a data-server address is host, HTTP port and gRPC port, an IPv6 host in brackets`() {
        val v4 = Remote.dataServer("10.0.0.2:8081:9091")
        assertThat(v4).isEqualTo(Remote.DataServer("10.0.0.2", 8081, 9091))
        assertThat(v4.httpUrl).isEqualTo("http://10.0.0.2:8081")
        assertThat(v4.grpcAddress).isEqualTo("10.0.0.2:9091")
        val v6 = Remote.dataServer("[fd00::2]:8081:9091")
        assertThat(v6.host).isEqualTo("fd00::2")
        assertThat(v6.httpUrl).isEqualTo("http://[fd00::2]:8081")
        assertThat(v6.text).isEqualTo("[fd00::2]:8081:9091")
        assertThat(Remote.dataServer("db-host.lan:1:2").host).isEqualTo("db-host.lan")
    }

    @Test
    fun `serve's control is looked for beside the server's HTTP port`() {
        assertThat(Remote.dataServer("10.0.0.2:8081:9091").controlUrl).isEqualTo("http://10.0.0.2:8091")
        assertThat(Remote.dataServer("[fd00::2]:8081:9091").controlUrl).isEqualTo("http://[fd00::2]:8091")
        assertThat(Remote.gateway("http://10.0.0.3:8080/").controlUrl).isEqualTo("http://10.0.0.3:8090")
        assertThat(Remote.gateway("http://[fd00::3]:8080").controlUrl).isEqualTo("http://[fd00::3]:8090")
    }

    @Test
    fun `a malformed data-server address says what is wrong and what is accepted`() {
        val cases = mapOf(
            "10.0.0.2:8081" to "not three parts",
            ":8081:9091" to "no host",
            "fd00::2:8081:9091" to "IPv6 address goes in brackets",
            "host:http:9091" to "port 'http' is not a number",
            "host:0:9091" to "port '0'",
            "host:8081:70000" to "port '70000'",
            "host:8081:8081" to "two different ports",
        )
        for ((text, why) in cases) {
            val e = catchThrowableOfType(InvalidRemote::class.java) { Remote.dataServer(text) }
            assertThat(e).describedAs(text).isNotNull()
            assertThat(e.message).contains("--data-server $text", why, Remote.DATA_SERVER_FORM)
        }
    }

    @Test
    fun `a gateway address is an http URL with host and port and nothing after`() {
        assertThat(Remote.gateway("http://10.0.0.3:8080/").url).isEqualTo("http://10.0.0.3:8080")
        for (bad in listOf("https://10.0.0.3:8080", "http://10.0.0.3", "http://10.0.0.3:8080/api", "http//x:1")) {
            assertThat(catchThrowableOfType(InvalidRemote::class.java) { Remote.gateway(bad) }.message)
                .describedAs(bad).contains(bad, Remote.GATEWAY_FORM)
        }
    }

    @Test
    fun `addresses are told from Spring properties by their shape`() {
        assertThat(Remote.isDataServerAddress("10.0.0.2:8081:9091")).isTrue()
        assertThat(Remote.isDataServerAddress("protobench.data.grpc-payload-mode=copy")).isFalse()
        assertThat(Remote.isDataServerAddress("spring.url=http://x:1")).isFalse()
        assertThat(Remote.isGatewayAddress("http://10.0.0.3:8080")).isTrue()
        assertThat(Remote.isGatewayAddress("protobench.gateway.http.version=H2C")).isFalse()
    }

    @Test
    fun `resume reads back the flag a run recorded`() {
        for (remote in listOf(Remote.DataServer("fd00::2", 1, 2), Remote.Gateway("http://10.0.0.3:8080"))) {
            assertThat(remoteOfFlag(remoteFlag(remote))).isEqualTo(remote)
        }
    }

    @Test
    fun `a closed port is named with the side it serves`() {
        val closed = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }
        assertThat(RemoteCheck(Duration.ofSeconds(2)).problem(Remote.DataServer("127.0.0.1", closed, closed + 1)))
            .contains("127.0.0.1 port $closed (HTTP) could not be reached", "protobench serve")
    }

    @Test
    fun `a server that accepts but never answers its health check is reported within the deadline`() {
        ServerSocket(0, 50, InetAddress.getLoopbackAddress()).use { silent ->
            val started = System.nanoTime()
            val problem = RemoteCheck(Duration.ofMillis(500)).problem(Remote.Gateway("http://127.0.0.1:${silent.localPort}"))
            assertThat(problem).contains("/api/health did not answer within")
            // Far from the 10 s default: the deadline bounds the whole check.
            assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5))
        }
    }

    @Test
    fun `a healthy data-server passes, an unhealthy one is named with its status`() {
        for ((status, healthy) in listOf(200 to true, 503 to false)) {
            val http = HttpServer.create(InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0)
            http.createContext("/actuator/health") { exchange ->
                exchange.sendResponseHeaders(status, -1)
                exchange.close()
            }
            http.start()
            ServerSocket(0, 50, InetAddress.getLoopbackAddress()).use { grpc ->
                try {
                    val problem = RemoteCheck(Duration.ofSeconds(5))
                        .problem(Remote.DataServer("127.0.0.1", http.address.port, grpc.localPort))
                    if (healthy) assertThat(problem).isNull() else assertThat(problem).contains("answered 503", "not healthy")
                } finally {
                    http.stop(0)
                }
            }
        }
    }

    private fun scenario(extra: String = "", payload: String = "sizes: [1kb]") =
        ScenarioParser.parse("name: r\nduration: 1s\n$payload\nload: {model: closed, vus: [2]}\n$extra", "r.yaml")

    private fun options(network: NetworkProfile? = null, gateway: List<String> = emptyList(), data: List<String> = emptyList()) =
        RunOptions(Path.of("results"), emptyList(), gateway, data, seed = 1, given = emptyMap(), network = network)

    @Test
    fun `what the remote servers cannot serve is refused with what to do instead`() {
        val data = Remote.DataServer("10.0.0.2", 8081, 9091)
        val gateway = Remote.Gateway("http://10.0.0.3:8080")
        assertThat(remoteRefusal(data, scenario(), options())).isNull()
        assertThat(remoteRefusal(gateway, scenario(), options())).isNull()
        assertThat(remoteRefusal(data, scenario(), options(network = NetworkProfile.parse("lan"))))
            .contains("the link is the real network between the hosts")
        assertThat(remoteRefusal(data, scenario("mode: cost\n", payload = "members: {images: [1kb]}"), options()))
            .contains("member creation")
        assertThat(remoteRefusal(data, scenario(), options(data = listOf("protobench.data.grpc-payload-mode=copy"))))
            .contains("give it to `protobench serve`")
        val gatewayVariant = "variants:\n  - {name: h2c, gateway: {protobench.gateway.http.version: h2c}}\n"
        val dataVariant = "variants:\n  - {name: copy, dataServer: {protobench.data.grpc-payload-mode: copy}}\n"
        assertThat(remoteRefusal(data, scenario(gatewayVariant), options())).isNull()
        assertThat(remoteRefusal(data, scenario(dataVariant), options())).contains("variant(s) copy change the data-server")
        assertThat(remoteRefusal(gateway, scenario(gatewayVariant), options())).contains("need a gateway this machine starts")
        assertThat(remoteRefusal(gateway, scenario(), options(gateway = listOf("protobench.gateway.http.version=H2C"))))
            .contains("need a gateway this machine starts")
        assertThat(remoteRefusal(gateway, scenario("topology: direct\n"), options())).contains("give --data-server HOST:HTTP:GRPC")
        assertThat(remoteRefusal(data, scenario("topology: direct\n"), options())).isNull()
        val hopClients = "hopClients:\n  - {name: h2c, gateway: {protobench.gateway.http.version: H2C}, protocols: [HTTP/Binary]}\n"
        assertThat(remoteRefusal(data, scenario(hopClients), options())).isNull()
        assertThat(remoteRefusal(gateway, scenario(hopClients), options())).contains("hopClients are sets of clients the gateway creates")
    }
}
