package io.protobench.dataserver.members

import io.protobench.contract.members.DbTimeStats
import org.HdrHistogram.Histogram
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test

class DbTimesTest {
    @Test
    fun `a histogram of microseconds converts to milliseconds`() {
        val histogram = Histogram(3)
        (1L..100L).forEach { histogram.recordValue(it * 1_000) }
        val stats = histogram.toDbTimeStats()
        assertThat(stats.count).isEqualTo(100)
        assertThat(stats.meanMs).isCloseTo(50.5, within(0.05))
        assertThat(stats.p50Ms).isCloseTo(50.0, within(0.05))
        assertThat(stats.p99Ms).isCloseTo(99.0, within(0.1))
        assertThat(stats.maxMs).isCloseTo(100.0, within(0.1))
    }

    @Test
    fun `an empty histogram is all zero`() {
        assertThat(Histogram(3).toDbTimeStats()).isEqualTo(DbTimeStats.EMPTY)
    }

    @Test
    fun `each interval holds the calls that returned since the previous one`() {
        val times = DbTimes()
        repeat(3) { times.timed { it } }
        assertThatThrownBy { times.timed { throw IllegalStateException("rolled back") } }.hasMessage("rolled back")
        assertThat(times.interval().count).isEqualTo(3)
        assertThat(times.interval().count).isZero()
        assertThat(times.timed { "answer" }).isEqualTo("answer")
        assertThat(times.interval().count).isEqualTo(1)
    }
}
