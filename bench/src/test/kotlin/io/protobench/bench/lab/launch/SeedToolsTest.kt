package io.protobench.bench.lab.launch

import io.protobench.bench.design.ToolRun
import io.protobench.bench.measure.Figure
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.scenario.SeedTool
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import java.nio.file.Path

/** Seed 003's tools: their command lines and their printed summaries read back. */
class SeedToolsTest {
    /** hey v0.1.4's text summary of a run with two answers that were not a creation and one connection error. */
    private val heyOutput = """

        Summary:
          Total:	1.0598 secs
          Slowest:	0.0512 secs
          Fastest:	0.0003 secs
          Average:	0.0101 secs
          Requests/sec:	9435.7331

          Total data:	123 bytes
          Size/request:	12 bytes

        Response time histogram:
          0.000 [1]	|
          0.005 [9996]	|■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■■

        Latency distribution:
          10%% in 0.0010 secs
          50%% in 0.0045 secs
          95%% in 0.0210 secs
          99%% in 0.0400 secs

        Details (average, fastest, slowest):
          DNS+dialup:	0.0001 secs, 0.0003 secs, 0.0512 secs

        Status code distribution:
          [201]	9997 responses
          [409]	2 responses

        Error distribution:
          [1]	Post "http://127.0.0.1:8090/api/members": dial tcp 127.0.0.1:8090: connect: connection refused
    """.trimIndent()

    /** ghz's JSON report (`-O json`), trimmed to the fields read. */
    private val ghzOutput = """
        {"count":100,"total":687000000,"average":6040000,"fastest":900000,"slowest":20000000,"rps":14583.2,
         "latencyDistribution":[{"percentage":10,"latency":2000000},{"percentage":50,"latency":5500000},
           {"percentage":95,"latency":12000000},{"percentage":99,"latency":18000000}],
         "statusCodeDistribution":{"OK":98,"Unavailable":2},"errorDistribution":{"rpc error: code = Unavailable desc = db down":2}}
    """.trimIndent()

    @Test
    fun `hey's summary gives its own requests per second, latencies in ms, creations and the rest by status or error`() {
        val report = ToolOutput.hey(heyOutput)
        assertThat(report.requestsPerSecond).isEqualTo(9435.7331)
        assertThat(report.seconds).isEqualTo(1.0598)
        assertThat(report.averageMs).isCloseTo(10.1, within(1e-9))
        assertThat(report.p50Ms).isCloseTo(4.5, within(1e-9))
        assertThat(report.p95Ms).isCloseTo(21.0, within(1e-9))
        assertThat(report.p99Ms).isCloseTo(40.0, within(1e-9))
        assertThat(report.ok).isEqualTo(9997)
        assertThat(report.requests).isEqualTo(10_000)
        assertThat(report.failures).containsEntry("409", 2L).hasSize(2)
        assertThat(report.failures.keys).anyMatch { it.contains("connection refused") }
        assertThat(report.figures()[Figure.ERROR_RATE]).isCloseTo(3e-4, within(1e-12))
    }

    @Test
    fun `ghz's JSON report gives its rps, nanoseconds as ms, OK as creations and the other codes and errors`() {
        val report = ToolOutput.ghz(ghzOutput)
        assertThat(report.requestsPerSecond).isEqualTo(14583.2)
        assertThat(report.seconds).isCloseTo(0.687, within(1e-12))
        assertThat(report.averageMs).isCloseTo(6.04, within(1e-9))
        assertThat(report.p99Ms).isCloseTo(18.0, within(1e-9))
        assertThat(report.ok).isEqualTo(98)
        assertThat(report.requests).isEqualTo(100)
        assertThat(report.failures).containsEntry("Unavailable", 2L).containsKey("rpc error: code = Unavailable desc = db down")
    }

    @Test
    fun `a summary that is not there says which tool printed nothing usable`() {
        assertThatThrownBy { ToolOutput.hey("Error: dial tcp: connection refused") }.hasMessageContaining("hey printed no summary")
        assertThatThrownBy { ToolOutput.ghz("rpc error: unknown service") }.hasMessageContaining("ghz printed no JSON report")
    }

    @Test
    fun `the commands are the seed's - count-based, one body file, hey posting JSON and ghz calling CreateMember by reflection`() {
        val runner = SeedToolRunner(
            mapOf(SeedTool.HEY to Path.of("/t/hey"), SeedTool.GHZ to Path.of("/t/ghz")),
            Path.of("/logs"),
            ChildProcesses(Path.of("/tmp/none.pid")),
        )
        val body = Path.of("/b/member.json")
        assertThat(runner.command(ToolRun(SeedTool.HEY, 10, 100), "http://127.0.0.1:8090", "127.0.0.1:9091", body)).containsExactly(
            "/t/hey", "-n", "100", "-c", "10", "-m", "POST", "-T", "application/json", "-D", "/b/member.json",
            "http://127.0.0.1:8090/api/members",
        )
        val ghz = runner.command(ToolRun(SeedTool.GHZ, 100, 10_000), "http://127.0.0.1:8090", "127.0.0.1:9091", body)
        assertThat(ghz.first()).isEqualTo("/t/ghz")
        assertThat(ghz.last()).isEqualTo("127.0.0.1:9091")
        assertThat(ghz.joinToString(" ")).contains(
            "--call protobench.MemberService/CreateMember",
            "--data-file /b/member.json",
            "--disable-template-data",
            "-n 10000 -c 100",
            "-O json",
        )
        assertThat(ghz).doesNotContain("--proto")
    }
}
