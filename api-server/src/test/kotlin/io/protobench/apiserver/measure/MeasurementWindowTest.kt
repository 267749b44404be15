package io.protobench.apiserver.measure

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.node.JsonNodeFactory
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.window.DataTransfer
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.data.Percentage.withPercentage
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import java.io.IOException
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlin.time.TestTimeSource

class MeasurementWindowTest {
    private val time = TestTimeSource()
    private val clientSettings = JsonNodeFactory.instance.objectNode().put("setting", 1)
    private val clock = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC)
    private val local = FakeLocal()
    private val remote = FakeDataServer()
    private val window = MeasurementWindow(local, remote, clientSettings, time, clock, 10.milliseconds)

    @AfterEach
    fun close() = window.close()

    @Test
    fun `end without start is refused`() {
        assertThatThrownBy { runBlocking { window.end() } }.isInstanceOf(NoOpenWindow::class.java)
    }

    @Test
    fun `duration, counts, throughput and bytes come from what was recorded`() = runBlocking<Unit> {
        val started = window.start("gRPC/Unary", "phase1")
        val recording = window.current()!!
        repeat(10) { recording.recordSuccess((it + 1).milliseconds, wireBytes = 1_000) }
        repeat(2) { recording.recordFailure("data-server timeout") }
        recording.recordFailure("invalid request")
        time += 2.seconds

        val report = window.end()

        assertThat(started.status).isEqualTo("started")
        assertThat(started.startedAt).isEqualTo(clock.instant())
        assertThat(report.protocol).isEqualTo("gRPC/Unary")
        assertThat(report.testName).isEqualTo("phase1")
        assertThat(report.durationMs).isEqualTo(2_000)
        assertThat(report.totalRequests).isEqualTo(13)
        assertThat(report.successRequests).isEqualTo(10)
        assertThat(report.failedRequests).isEqualTo(3)
        assertThat(report.failuresByKind).containsExactlyEntriesOf(mapOf("data-server timeout" to 2L, "invalid request" to 1L))
        assertThat(report.throughputRps).isEqualTo(6.5)
        assertThat(report.latency.minMs).isEqualTo(1.0)
        assertThat(report.latency.maxMs).isCloseTo(10.0, withPercentage(0.1))
        assertThat(report.latency.p50Ms).isCloseTo(5.0, withPercentage(0.1))
        assertThat(report.dataTransfer).isEqualTo(DataTransfer(totalBytes = 10_000, avgResponseBytes = 1_000.0))
        assertThat(report.clientSettings).isEqualTo(clientSettings)
    }

    @Test
    fun `requests outside the window are not counted`() = runBlocking<Unit> {
        assertThat(window.current()).isNull()
        window.start(null, null)
        val recording = window.current()!!
        recording.recordSuccess(1.milliseconds, 10)
        time += 1.seconds
        val report = window.end()

        assertThat(window.current()).isNull()
        assertThat(report.totalRequests).isEqualTo(1)
    }

    @Test
    fun `a start while a window is open is refused and the open window goes on`() = runBlocking<Unit> {
        window.start("first", "one")
        window.current()!!.recordFailure("data-server timeout")

        assertThatThrownBy { runBlocking { window.start("second", "two") } }
            .isInstanceOfSatisfying(WindowAlreadyOpen::class.java) {
                assertThat(it.protocol).isEqualTo("first")
                assertThat(it.testName).isEqualTo("one")
            }
            .hasMessageContaining("replace=true")
        time += 1.seconds

        val report = window.end()
        assertThat(report.protocol).isEqualTo("first")
        assertThat(report.failedRequests).isEqualTo(1)
    }

    @Test
    fun `a start asking to replace drops the open window`() = runBlocking<Unit> {
        window.start("first", null)
        window.current()!!.recordFailure("data-server timeout")
        window.start("second", "again", replace = true)
        window.current()!!.recordSuccess(3.milliseconds, 5)
        time += 1.seconds

        val report = window.end()

        assertThat(report.protocol).isEqualTo("second")
        assertThat(report.totalRequests).isEqualTo(1)
        assertThat(report.failedRequests).isZero()
    }

    @Test
    fun `both processes are measured between start and end snapshots`() = runBlocking<Unit> {
        window.start(null, null)
        repeat(4) { window.current()!!.recordSuccess(1.milliseconds, 1) }
        local.advance(cpuNs = 8_000_000, gcs = 3, gcMs = 7)
        remote.advance(cpuNs = 2_000_000)
        time += 1.seconds

        val report = window.end()

        assertThat(local.peakResets).isEqualTo(1)
        assertThat(remote.peakResets).isEqualTo(1)
        assertThat(report.processes.apiServer.cpuUsPerRequest).isEqualTo(2_000.0)
        assertThat(report.processes.dataServer!!.cpuUsPerRequest).isEqualTo(500.0)
        assertThat(report.processes.dataServerError).isNull()
        assertThat(report.serverMetrics.gcCount).isEqualTo(3)
        assertThat(report.serverMetrics.gcTimeMs).isEqualTo(7)
        assertThat(report.serverMetrics.avgProcessCpuPercent).isEqualTo(25.0)
        assertThat(report.serverMetrics.peakCpuUsagePercent).isEqualTo(50.0)
        assertThat(report.dataServerSettings!!["chunkSizeBytes"].asInt()).isEqualTo(65536)
    }

    @Test
    fun `an unreachable data-server leaves its usage null with the reason, and the report is still made`() = runBlocking {
        window.start(null, null)
        remote.down = true
        time += 1.seconds

        val report = window.end()

        assertThat(report.processes.dataServer).isNull()
        assertThat(report.processes.dataServerError).isEqualTo("at end: connection refused")
        assertThat(report.dataServerSettings).isNull()
    }

    private class FakeLocal : LocalProbe {
        private var snapshot: ProcessSnapshot = initialSnapshot()
        var peakResets = 0

        fun advance(cpuNs: Long, gcs: Long, gcMs: Long) {
            snapshot = snapshot.copy(
                cpuTimeNs = snapshot.cpuTimeNs + cpuNs,
                gcCount = snapshot.gcCount + gcs,
                gcTimeMs = snapshot.gcTimeMs + gcMs,
                monotonicNs = snapshot.monotonicNs + 1_000_000_000,
            )
        }

        override fun snapshot() = snapshot

        override fun resetPeakHeap() {
            peakResets++
        }

        override fun sample() = ResourceSample(systemCpuPercent = 50.0, processCpuPercent = 25.0, heapUsedBytes = 1 shl 20)
    }

    private class FakeDataServer : DataServerProbe {
        private var snapshot: ProcessSnapshot = initialSnapshot()
        var peakResets = 0
        var down = false

        fun advance(cpuNs: Long) {
            snapshot = snapshot.copy(cpuTimeNs = snapshot.cpuTimeNs + cpuNs, monotonicNs = snapshot.monotonicNs + 1_000_000_000)
        }

        override suspend fun snapshot(): ProcessSnapshot = if (down) throw IOException("connection refused") else snapshot

        override suspend fun resetPeakHeap() {
            peakResets++
        }

        override suspend fun settings(): JsonNode =
            if (down) throw IOException("connection refused") else JsonNodeFactory.instance.objectNode().put("chunkSizeBytes", 65536)

        override suspend fun collectGarbage() = io.protobench.contract.metrics.HeapCollected(1 shl 20, 1)
    }

    private companion object {
        fun initialSnapshot() = ProcessSnapshot(
            epochMs = 0, monotonicNs = 0, cpuTimeNs = 0, allocatedBytes = 0, gcCount = 0, gcTimeMs = 0,
            heapUsedBytes = 1 shl 20, peakHeapUsedBytes = 1 shl 20, availableProcessors = 2,
        )
    }
}
