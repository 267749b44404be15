package io.protobench.apiserver.e2e

import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.apiserver.support.postJson
import io.protobench.contract.Json
import io.protobench.contract.window.WindowReport
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient

/** A full window, start → requests → end, against the real data-server. */
@GatewayTest
class MeasurementWindowEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    companion object {
        /** Every field `/benchmark/end` must carry (the seed scripts' and the bench runner's). */
        val REQUIRED = listOf(
            "protocol", "testName", "durationMs", "totalRequests", "successRequests", "failedRequests", "failuresByKind", "throughputRps",
            "latency.avgMs", "latency.minMs", "latency.maxMs", "latency.p50Ms", "latency.p90Ms", "latency.p95Ms",
            "latency.p99Ms", "latency.p999Ms",
            "serverMetrics.startHeapMb", "serverMetrics.endHeapMb", "serverMetrics.peakHeapMb", "serverMetrics.gcCount",
            "serverMetrics.gcTimeMs", "serverMetrics.avgCpuUsagePercent", "serverMetrics.peakCpuUsagePercent",
            "serverMetrics.avgProcessCpuPercent", "serverMetrics.peakProcessCpuPercent",
            "dataTransfer.totalBytes", "dataTransfer.avgResponseBytes",
            "processes.apiServer", "processes.dataServer", "clientSettings", "dataServerSettings",
        )

        @JvmStatic
        @DynamicPropertySource
        fun dataServer(registry: DynamicPropertyRegistry) = TestDataServer.shared.register(registry)
    }

    @Test
    fun `gc collects both servers' heaps between windows and answers what each holds`() {
        repeat(20) { assertThat(web.getJson("/api/data/http/json?size=100kb").first).isEqualTo(200) }
        val (status, collected) = web.postJson("/benchmark/gc")
        assertThat(status).isEqualTo(200)
        assertThat(collected["gateway"]["heapUsedBytes"].asLong()).isPositive()
        assertThat(collected["dataServer"]["heapUsedBytes"].asLong()).isPositive()
        assertThat(collected.path("dataServerProblem").asText(null)).isNull()
    }

    @Test
    fun `a window reports every field with sensible values`() {
        web.getJson("/api/data/grpc?size=1kb") // before the window: not counted
        val (startStatus, started) = web.postJson("/benchmark/start?protocol=gRPC/Unary&testName=e2e-window")
        assertThat(startStatus).isEqualTo(200)
        assertThat(started["status"].asText()).isEqualTo("started")
        assertThat(started["protocol"].asText()).isEqualTo("gRPC/Unary")
        assertThat(started["testName"].asText()).isEqualTo("e2e-window")
        assertThat(started["startedAt"].asText()).isNotBlank()

        repeat(40) { assertThat(web.getJson("/api/data/grpc?size=10kb").first).isEqualTo(200) }
        repeat(2) { assertThat(web.getJson("/api/data/grpc?size=lots").first).isEqualTo(400) }
        Thread.sleep(250) // let the 100 ms sampler take readings

        val (status, report) = web.postJson("/benchmark/end")
        assertThat(status).isEqualTo(200)
        for (path in REQUIRED) {
            assertThat(report.at("/" + path.replace('.', '/')).isMissingNode).`as`(path).isFalse()
        }
        assertThat(report["protocol"].asText()).isEqualTo("gRPC/Unary")
        assertThat(report["testName"].asText()).isEqualTo("e2e-window")
        assertThat(report["totalRequests"].asLong()).isEqualTo(42)
        assertThat(report["successRequests"].asLong()).isEqualTo(40)
        assertThat(report["failedRequests"].asLong()).isEqualTo(2)
        assertThat(report["durationMs"].asLong()).isGreaterThanOrEqualTo(250)
        assertThat(report["throughputRps"].asDouble()).isPositive()

        val latency = report["latency"]
        assertThat(latency["minMs"].asDouble()).isPositive()
        assertThat(latency["p50Ms"].asDouble()).isLessThanOrEqualTo(latency["p99Ms"].asDouble())
        assertThat(latency["p99Ms"].asDouble()).isLessThanOrEqualTo(latency["maxMs"].asDouble())

        val server = report["serverMetrics"]
        assertThat(server["peakHeapMb"].asDouble()).isPositive()
        assertThat(server["peakCpuUsagePercent"].asDouble()).isBetween(0.0, 100.0)
        assertThat(report["dataTransfer"]["totalBytes"].asLong()).isGreaterThan(40L * 10 * 1024)

        val dataServer = report["processes"]["dataServer"]
        assertThat(dataServer["cpuUsPerRequest"].asDouble()).isPositive()
        assertThat(report["processes"]["apiServer"]["cpuUsPerRequest"].asDouble()).isPositive()
        assertThat(report["clientSettings"]["http"]["version"].asText()).isEqualTo("HTTP_1_1")
        assertThat(report["dataServerSettings"].isObject).isTrue()

        val mapper = Json.newMapper()
        val typed = mapper.treeToValue(report, WindowReport::class.java)
        assertThat(typed.successRequests).isEqualTo(40)
        assertThat(mapper.readTree(mapper.writeValueAsString(typed))).`as`("the contract type reads and writes the same JSON")
            .isEqualTo(report)

        assertThat(web.postJson("/benchmark/end").first).isEqualTo(409)
    }
}
