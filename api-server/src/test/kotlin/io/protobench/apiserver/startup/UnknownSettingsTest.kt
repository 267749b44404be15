package io.protobench.apiserver.startup

import io.protobench.apiserver.ApiServerApplication
import io.protobench.apiserver.support.TestDataServer
import io.protobench.contract.server.SettingsRejected
import io.protobench.dataserver.DataServerApplication
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import java.util.concurrent.TimeUnit

/** A mistyped protobench.* property stops either server at start-up, naming the nearest known one. */
class UnknownSettingsTest {

    @Test
    fun `the gateway refuses a mistyped setting, suggesting the right one`() {
        val problems = startupProblems {
            startGateway("--protobench.gateway.http.verison=H2C", "--protobench.gateway.grpc.chanels=2")
        }
        // Sorted by name, so the report reads the same whatever order the arguments came in.
        assertThat(problems).containsExactly(
            "unknown setting 'protobench.gateway.grpc.chanels' (did you mean protobench.gateway.grpc.channels?)",
            "unknown setting 'protobench.gateway.http.verison' (did you mean protobench.gateway.http.version?)",
        )
    }

    @Test
    fun `the data-server refuses a mistyped setting, and a gateway setting is unknown to it`() {
        val problems = startupProblems {
            // Neither http.version (near protobench.data.compression) nor http.pool-size (near
            // protobench.data.db.pool-size): within a third of its length of a data-server name, the
            // edit-distance rule would suggest that name instead of listing the server's settings.
            startDataServer("--protobench.data.grpc-paylod-mode=copy", "--protobench.gateway.http.pending-acquire-max=10")
        }
        assertThat(problems).hasSize(2)
        assertThat(problems[0])
            .isEqualTo("unknown setting 'protobench.data.grpc-paylod-mode' (did you mean protobench.data.grpc-payload-mode?)")
        assertThat(problems[1]).startsWith("unknown setting 'protobench.gateway.http.pending-acquire-max' (this server's settings: ")
            .contains("protobench.data.chunk-size-bytes", "protobench.data.grpc.port", "protobench.parent-pid")
    }

    @Test
    fun `known names in any relaxed form and the shared parent pid are accepted by both`() {
        val pid = "--protobench.parent-pid=${ProcessHandle.current().pid()}"
        startGateway(pid, "--protobench.gateway.http.poolSize=10", "--protobench.gateway.timeouts.request_ms=500").close()
        startDataServer(pid, "--protobench.data.chunkSizeBytes=1024").close()
    }

    @Test
    fun `a real gateway process with a mistyped setting exits non-zero with one line and no stack trace`() {
        val java = ProcessHandle.current().info().command().orElse("java")
        val process = ProcessBuilder(
            java,
            "-cp",
            System.getProperty("java.class.path"),
            "io.protobench.apiserver.ApiServerApplicationKt",
            "--server.port=0",
            "--protobench.gateway.http.verison=H2C",
        ).redirectErrorStream(true).start()
        val output = process.inputStream.readAllBytes().decodeToString()
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue()

        assertThat(process.exitValue()).`as`(output).isNotZero()
        assertThat(output).contains(
            "unknown setting 'protobench.gateway.http.verison' (did you mean protobench.gateway.http.version?)",
        )
        assertThat(output.lines().filter { it.trimStart().startsWith("at ") }).`as`(output).isEmpty()
    }

    private fun startGateway(vararg args: String): ConfigurableApplicationContext =
        SpringApplicationBuilder(ApiServerApplication::class.java)
            .properties("spring.config.name=${ApiServerApplication.CONFIG_NAME}")
            .run("--server.port=0", "--spring.jmx.enabled=false", *args)

    private fun startDataServer(vararg args: String): ConfigurableApplicationContext =
        SpringApplicationBuilder(DataServerApplication::class.java, TestDataServer.OwnNettyResources::class.java)
            .run("--server.port=0", "--protobench.data.grpc.port=0", "--spring.jmx.enabled=false", *args)

    private fun startupProblems(start: () -> ConfigurableApplicationContext): List<String> {
        val failure = runCatching { start().close() }.exceptionOrNull()
        val rejected = generateSequence(failure) { it.cause }.filterIsInstance<SettingsRejected>().firstOrNull()
        assertThat(rejected).`as`("start-up failure %s", failure).isNotNull
        return rejected!!.problems
    }
}
