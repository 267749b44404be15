package io.protobench.contract.window

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.node.ObjectNode
import io.protobench.contract.Json
import io.protobench.contract.metrics.GcTotals
import io.protobench.contract.metrics.GcUsage
import io.protobench.contract.metrics.JvmFacts
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.metrics.ProcessUsage
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.time.Instant

class WindowReportJsonTest {
    private val mapper = Json.newMapper()

    private val usage = ProcessUsage(
        cpuTimeMs = 1.5, cpuUsPerRequest = 15.0, allocatedBytes = 4096, allocatedBytesPerRequest = 40.96, gcCount = 1,
        gcTimeMs = 2, startHeapMb = 10.0, endHeapMb = 12.5, peakHeapMb = 20.0, avgCoreUsagePercent = 37.5,
    )

    private val report = WindowReport(
        protocol = "gRPC/Unary",
        testName = "phase1",
        startedAt = Instant.parse("2026-01-02T03:04:05.123456Z"),
        endedAt = Instant.parse("2026-01-02T03:04:35.123456Z"),
        durationMs = 30_000,
        totalRequests = 100,
        successRequests = 98,
        failedRequests = 2,
        throughputRps = 3.3333333333333335,
        latency = LatencyStats(1.25, 0.5, 9.0, 1.0, 2.0, 3.0, 4.0, 8.5),
        serverMetrics = ServerMetrics(10.0, 12.0, 30.5, 3, 7, 40.0, 80.0, 20.0, 45.5),
        dataTransfer = DataTransfer(totalBytes = 98_000, avgResponseBytes = 1_000.0),
        processes = Processes(apiServer = usage, dataServer = null, dataServerError = "at end: connection refused"),
        clientSettings = mapper.readTree("""{"http":{"version":"HTTP_1_1","poolSize":500},"grpc":{"channels":1}}"""),
        dataServerSettings = mapper.readTree("""{"grpcPayloadMode":"shared","chunkSizeBytes":65536}"""),
        timeline = TimelineReport(intervalMs = 1000, completed = listOf(3, 4, 5)),
    )

    @Test
    fun `a report survives JSON and back equal`() {
        val json = mapper.writeValueAsString(report)

        assertThat(mapper.readValue(json, WindowReport::class.java)).isEqualTo(report)
    }

    @Test
    fun `a report without data-server figures or settings survives too`() {
        val bare = report.copy(processes = Processes(usage, null), dataServerSettings = null)

        assertThat(mapper.readValue(mapper.writeValueAsBytes(bare), WindowReport::class.java)).isEqualTo(bare)
    }

    @Test
    fun `the JSON has every field the seed API requires, with instants as ISO text`() {
        val json: JsonNode = mapper.valueToTree(report)
        val required = listOf(
            "protocol", "testName", "durationMs", "totalRequests", "successRequests", "failedRequests", "throughputRps",
            "latency/avgMs", "latency/minMs", "latency/maxMs", "latency/p50Ms", "latency/p95Ms", "latency/p99Ms",
            "serverMetrics/startHeapMb", "serverMetrics/endHeapMb", "serverMetrics/peakHeapMb", "serverMetrics/gcCount",
            "serverMetrics/gcTimeMs", "serverMetrics/avgCpuUsagePercent", "serverMetrics/peakCpuUsagePercent",
            "serverMetrics/avgProcessCpuPercent", "serverMetrics/peakProcessCpuPercent",
            "dataTransfer/totalBytes", "dataTransfer/avgResponseBytes",
        )
        for (path in required) {
            val node = json.at("/$path")
            assertThat(node.isMissingNode || node.isNull).`as`(path).isFalse()
        }
        assertThat(json["latency"]["p50Ms"].isNumber).isTrue()
        assertThat(json["startedAt"].asText()).isEqualTo("2026-01-02T03:04:05.123456Z")
        assertThat(json["processes"]["dataServer"].isNull).isTrue()
        assertThat(json["timeline"]["completed"].map { it.asLong() }).containsExactly(3, 4, 5)
    }

    @Test
    fun `a usage with the collector's figures survives JSON, and one written before them reads without`() {
        val withGc = usage.copy(
            jvm = JvmFacts("25.0.3", listOf("ZGC Minor Cycles", "ZGC Minor Pauses"), 512L shl 20, collector = "ZGC generational"),
            gc = GcUsage(pauses = 12, pauseTimeMs = 1, cycles = 4, concurrentCpuMs = 83.5, heapAfterGcMb = 41.0),
        )
        val full = report.copy(processes = Processes(withGc, withGc))

        assertThat(mapper.readValue(mapper.writeValueAsString(full), WindowReport::class.java)).isEqualTo(full)

        val older = mapper.valueToTree<ObjectNode>(withGc).apply {
            remove("gc")
            (get("jvm") as ObjectNode).remove("collector")
        }
        val read = mapper.treeToValue(older, ProcessUsage::class.java)
        assertThat(read.gc).isNull()
        assertThat(read.jvm?.collector).isNull()
        assertThat(read.gcCount).isEqualTo(withGc.gcCount)
    }

    @Test
    fun `a snapshot written before the collector's totals reads with none`() {
        val snapshot = ProcessSnapshot(1, 2, 3, 4, 5, 6, 7, 8, 2, gc = GcTotals(3, 4, 1, 5_000, 6_000))
        val older = mapper.valueToTree<ObjectNode>(snapshot).apply { remove("gc") }

        assertThat(mapper.readValue(mapper.writeValueAsString(snapshot), ProcessSnapshot::class.java)).isEqualTo(snapshot)
        assertThat(mapper.treeToValue(older, ProcessSnapshot::class.java)).isEqualTo(snapshot.copy(gc = null))
    }

    @Test
    fun `window started survives JSON and back equal`() {
        val started = WindowStarted("started", "HTTP/JSON", null, Instant.parse("2026-01-02T03:04:05Z"))

        assertThat(mapper.readValue(mapper.writeValueAsBytes(started), WindowStarted::class.java)).isEqualTo(started)
    }
}
