package io.protobench.contract.metrics

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.lang.management.ManagementFactory

class GcNotificationsTest {
    @Test
    fun `a collection asked for in this JVM counts as pauses, with the heap after it`() {
        GcNotifications.listen()
        val before = GcNotifications.totals()

        System.gc()
        val deadline = System.nanoTime() + 10_000_000_000
        var after = GcNotifications.totals()
        while (after.pauses == before.pauses && System.nanoTime() < deadline) {
            Thread.sleep(10)
            after = GcNotifications.totals()
        }

        assertThat(after.pauses).isGreaterThan(before.pauses)
        assertThat(after.pauseTimeMs).isGreaterThanOrEqualTo(before.pauseTimeMs)
        assertThat(after.heapAfterGcBytes).isNotNull().isPositive()
            .isLessThanOrEqualTo(ManagementFactory.getMemoryMXBean().heapMemoryUsage.max)
    }

    @Test
    fun `a snapshot carries the totals and the collector's name`() {
        val snapshot = ProcessMetrics.snapshot()

        assertThat(snapshot.gc).isNotNull()
        assertThat(snapshot.jvm?.collector).isIn("Serial", "Parallel", "G1", "ZGC", "ZGC generational", "Shenandoah")
    }
}
