package io.protobench.contract.metrics

import io.protobench.contract.metrics.GcEventKind.CYCLE
import io.protobench.contract.metrics.GcEventKind.PAUSE
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class GcCounterTest {
    @Test
    fun `every action the collectors were seen to send is a pause but the concurrent cycle's`() {
        val pauses = listOf(
            "end of minor GC",
            "end of major GC",
            "end of concurrent GC pause",
            "end of GC pause",
            "Init Mark",
            "Final Mark",
            "Init Update Refs",
            "Final Update Refs",
        )

        assertThat(pauses.map(GcEventKind::of)).containsOnly(PAUSE)
        assertThat(GcEventKind.of("end of GC cycle")).isEqualTo(CYCLE)
    }

    @Test
    fun `pauses and cycles are counted apart, and a cycle's wall time is no pause time`() {
        val counter = GcCounter()
        counter.record(GcEvent(PAUSE, 3, 100))
        counter.record(GcEvent(CYCLE, 250, 80))
        counter.record(GcEvent(PAUSE, 0, 120))
        counter.record(GcEvent(PAUSE, 1, 130))

        val totals = counter.totals(concurrentCpuNs = 42)

        assertThat(totals).isEqualTo(GcTotals(pauses = 3, pauseTimeMs = 4, cycles = 1, concurrentCpuNs = 42, heapAfterGcBytes = 80))
    }

    @Test
    fun `the heap after collection is the latest pause's until a cycle ends, then the latest cycle's`() {
        val counter = GcCounter()
        assertThat(counter.totals(null).heapAfterGcBytes).isNull()

        counter.record(GcEvent(PAUSE, 1, 500))
        assertThat(counter.totals(null).heapAfterGcBytes).isEqualTo(500)

        counter.record(GcEvent(CYCLE, 90, 200))
        counter.record(GcEvent(PAUSE, 0, 700))
        assertThat(counter.totals(null).heapAfterGcBytes).isEqualTo(200)
    }

    @Test
    fun `a window's usage is the difference of two totals, with the heap after collection as it ended`() {
        val start = GcTotals(pauses = 10, pauseTimeMs = 40, cycles = 2, concurrentCpuNs = 5_000_000, heapAfterGcBytes = 1L shl 20)
        val end = GcTotals(pauses = 14, pauseTimeMs = 47, cycles = 3, concurrentCpuNs = 17_500_000, heapAfterGcBytes = 3L shl 20)

        assertThat(GcUsage.between(start, end))
            .isEqualTo(GcUsage(pauses = 4, pauseTimeMs = 7, cycles = 1, concurrentCpuMs = 12.5, heapAfterGcMb = 3.0))
    }

    @Test
    fun `the concurrent CPU of a window is unknown when either end could not read it`() {
        val known = GcTotals(1, 1, 0, 1_000_000, null)
        val unknown = known.copy(concurrentCpuNs = null)

        assertThat(GcUsage.between(known, unknown).concurrentCpuMs).isNull()
        assertThat(GcUsage.between(unknown, known).concurrentCpuMs).isNull()
        assertThat(GcUsage.between(known, known).heapAfterGcMb).isNull()
    }
}
