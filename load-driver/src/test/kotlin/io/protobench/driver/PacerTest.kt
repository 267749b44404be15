package io.protobench.driver

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import java.util.function.LongSupplier

/**
 * The open model's schedule and lateness by numbers: times are given, never read, so there
 * is no server, no sleep and no real clock. Expected values are worked out by hand from
 * due(i) = start + floor(i * 10^9 / rate) ns.
 */
class PacerTest {
    /** Any nanoTime will do as a start, negative included: only differences from it count. */
    private val start = 7_000_000_000L
    private val hour = 3_600_000_000_000L

    /** An end after any arrival these tests name: 400 days on. */
    private val farEnd = start + 400L * 86_400 * 1_000_000_000

    private fun pacer(rate: Double, startNs: Long = start, endNs: Long = farEnd, timedStartNs: Long = startNs) =
        Pacer(startNs, rate, endNs, timedStartNs)

    @ParameterizedTest(name = "{0}/s from {1}: arrival {2} due {3} ns after the start")
    @CsvSource(
        "200, 7000000000, 0, 0",
        "200, 7000000000, 1, 5000000",
        "200, -5000000000, 2, 10000000",
        "3, 7000000000, 0, 0",
        "3, 7000000000, 1, 333333333",
        "3, 7000000000, 2, 666666666",
        "3, 0, 3, 1000000000",
        "3, 7000000000, 4, 1333333333",
        "1500, 7000000000, 1, 666666",
        "1500, 7000000000, 2, 1333333",
        "1500, -5000000000, 3, 2000000",
        "1500, 7000000000, 1500, 1000000000",
        "7, 7000000000, 1, 142857142",
        "7, 7000000000, 2, 285714285",
        "7, 7000000000, 6, 857142857",
        "7, 7000000000, 7, 1000000000",
        "7, 7000000000, 8, 1142857142",
        "0.5, 7000000000, 1, 2000000000",
    )
    fun `arrival i is due at the start plus i over the rate, cut to the nanosecond`(
        rate: Double,
        startNs: Long,
        i: Long,
        afterStartNs: Long,
    ) {
        assertThat(pacer(rate, startNs).due(i) - startNs).isEqualTo(afterStartNs)
    }

    @ParameterizedTest(name = "{0}/s, {1} ns after the start: {2} due")
    @CsvSource(
        "200, -1, 0",
        "200, 0, 1",
        "200, 4999999, 1",
        "200, 5000000, 2",
        "200, 1000000000, 201",
        "3, 333333332, 1",
        "3, 333333333, 2",
        "3, 999999999, 3",
        "3, 1000000000, 4",
        "1500, 666665, 1",
        "1500, 666666, 2",
        "1500, 1000000000, 1501",
        "7, 142857141, 1",
        "7, 142857142, 2",
        "7, 1000000000, 8",
        "7, 3600000000000, 25201",
        "50000, 3600000000000, 180000001",
    )
    fun `the arrivals due at a time are those due at or before it, the first at the start`(rate: Double, elapsedNs: Long, due: Long) {
        assertThat(pacer(rate).dueAt(start + elapsedNs)).isEqualTo(due)
    }

    @ParameterizedTest(name = "{0}/s for {1} ns: {2} arrivals")
    @CsvSource(
        "200, 1000000000, 200",
        "3, 1000000000, 3",
        "3, 1000000001, 4",
        "7, 1000000000, 7",
        "1500, 1000000000, 1500",
        "1500, 1, 1",
        "1500, 0, 0",
    )
    fun `the schedule holds the arrivals due before its end, however late it is asked`(rate: Double, durationNs: Long, arrivals: Long) {
        val pacer = pacer(rate, endNs = start + durationNs)
        assertThat(pacer.arrivals).isEqualTo(arrivals)
        assertThat(pacer.dueAt(start + durationNs - 1)).isEqualTo(arrivals)
        assertThat(pacer.dueAt(start + hour)).isEqualTo(arrivals)
        repeat(arrivals.toInt()) { pacer.send(start + hour) }
        assertThat(pacer.waitNs(start + hour)).describedAs("a schedule sent in full is done").isNull()
    }

    @ParameterizedTest(name = "{0}/s, arrival {1}: due {2} ns after the start")
    @CsvSource(
        "1500, 5400000, 3600000000000",
        "7, 25200, 3600000000000",
        "3, 10800, 3600000000000",
        "3, 3000000, 1000000000000000",
        "50000, 180000000, 3600000000000",
    )
    fun `due times do not drift over many arrivals, each worked out from its own number`(rate: Double, i: Long, afterStartNs: Long) {
        // Adding up a spacing cut to whole nanoseconds would land early: 666,666 ns x 5,400,000 is 3.6 ms short of the hour.
        val pacer = pacer(rate)
        assertThat(pacer.due(i) - start).isEqualTo(afterStartNs)
        assertThat(pacer.dueAt(start + afterStartNs)).isEqualTo(i + 1)
        assertThat(pacer.dueAt(start + afterStartNs - 1)).isEqualTo(i)
    }

    @Test
    fun `how many are due agrees with each due time, across rates whose spacing is not whole`() {
        for (rate in listOf(3.0, 7.0, 1500.0, 3000.0, 49_999.0, 0.3)) {
            val pacer = pacer(rate)
            // At 0.3/s, arrival 2,097,154 (81 days on) the division alone counts due a nanosecond before its time.
            for (i in listOf(0L, 1, 2, 3, 10, 999, 12_345, 1_000_003, 2_097_154)) {
                assertThat(pacer.dueAt(pacer.due(i))).describedAs("$rate/s at arrival $i's due time").isEqualTo(i + 1)
                if (pacer.due(i) > pacer.due(i - 1).takeIf { i > 0 } ?: Long.MIN_VALUE) {
                    assertThat(pacer.dueAt(pacer.due(i) - 1)).describedAs("$rate/s just before arrival $i").isEqualTo(i)
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}/s, first sent {1} ns after the start: next in {2} ns")
    @CsvSource(
        "200, 0, 5000000",
        "3, 0, 333333333",
        "3, 100, 333333233",
        "1500, 0, 666666",
        "7, 0, 142857142",
        "7, 142857142, 0",
    )
    fun `the wait runs to the next due time, none when it is due already`(rate: Double, sentAfterNs: Long, waitNs: Long) {
        val pacer = pacer(rate)
        assertThat(pacer.waitNs(start - 10)).isEqualTo(10)
        assertThat(pacer.waitNs(start)).isEqualTo(0)
        assertThat(pacer.send(start + sentAfterNs)).isEqualTo(start)
        assertThat(pacer.waitNs(start + sentAfterNs)).isEqualTo(waitNs)
    }

    @ParameterizedTest(name = "{0}/s stalled until {1} ns: lates {2}, {3} over 1 ms")
    @CsvSource(
        "200, 23000000, 18000000;13000000;8000000;3000000, 4",
        "3, 1500000000, 1166666667;833333334;500000000;166666667, 4",
        "1500, 2000000, 1333334;666667;0, 1",
        "7, 1000000000, 857142858;714285715;571428572;428571429;285714286;142857143;0, 6",
        "200, 4999999, '', 0",
    )
    fun `after a stall every arrival due meanwhile is sent at once, each late by its own amount`(
        rate: Double,
        stalledUntilNs: Long,
        lates: String?,
        lateCount: Long,
    ) {
        val expected = lates.orEmpty().split(';').filter { it.isNotEmpty() }.map { it.toLong() }
        val pacer = pacer(rate)
        assertThat(pacer.send(start)).describedAs("the first arrival, on time").isEqualTo(start)
        val now = start + stalledUntilNs
        assertThat(pacer.dueAt(now)).isEqualTo(1L + expected.size)
        val sentLate = generateSequence { if (pacer.sent < pacer.dueAt(now)) now - pacer.send(now) else null }.toList()
        assertThat(sentLate).containsExactlyElementsOf(expected)
        val lateness = pacer.lateness
        assertThat(lateness.lateArrivals).isEqualTo(lateCount)
        assertThat(lateness.maxLateNs).isEqualTo(expected.maxOrNull() ?: 0L)
        assertThat(lateness.sendDelay.totalCount).isEqualTo(1L + expected.size)
        expected.forEach { late ->
            assertThat(lateness.sendDelay.getCountAtValue(late / 1000)).describedAs("µs late: ${late / 1000}").isPositive()
        }
    }

    @Test
    fun `warm-up arrivals count in the lateness but not in the timed phase's send delay`() {
        // 200/s, the timed phase from 10 ms: at 12 ms the arrivals of 0, 5 and 10 ms leave 12, 7 and 2 ms late.
        val pacer = pacer(200.0, timedStartNs = start + 10_000_000)
        val now = start + 12_000_000
        repeat(pacer.dueAt(now).toInt()) { pacer.send(now) }
        assertThat(pacer.sent).isEqualTo(3)
        assertThat(pacer.lateness.lateArrivals).isEqualTo(3)
        assertThat(pacer.lateness.maxLateNs).isEqualTo(12_000_000)
        assertThat(pacer.lateness.sendDelay.totalCount).isEqualTo(1)
        assertThat(pacer.lateness.sendDelay.getCountAtValue(2_000)).isEqualTo(1)
    }

    @ParameterizedTest(name = "{0} ns late, timed {1}: late {2}, in the send delay {3}")
    @CsvSource(
        "0, true, 0, 1",
        "999999, true, 0, 1",
        "1000000, true, 0, 1",
        "1000001, true, 1, 1",
        "1000001, false, 1, 0",
    )
    fun `an arrival is late only when sent more than 1 ms after it was due`(lateNs: Long, timed: Boolean, late: Long, inSendDelay: Long) {
        val lateness = SendLateness()
        lateness.record(lateNs, timed)
        assertThat(lateness.lateArrivals).isEqualTo(late)
        assertThat(lateness.maxLateNs).isEqualTo(lateNs)
        assertThat(lateness.sendDelay.totalCount).isEqualTo(inSendDelay)
    }

    @Test
    fun `an arrival not yet due, or past the end, cannot be sent`() {
        val pacer = pacer(200.0, endNs = start + 5_000_000)
        assertThatThrownBy { pacer.send(start - 1) }.isInstanceOf(IllegalStateException::class.java)
        pacer.send(start)
        assertThatThrownBy { pacer.send(start + hour) }.isInstanceOf(IllegalStateException::class.java)
        assertThatThrownBy { Pacer(start, 0.0, start + hour) }.isInstanceOf(IllegalArgumentException::class.java)
    }

    /** An event loop by hand: the clock is a number the test sets, and a timer is a wait written down. */
    private class FakeLoop(rate: Double, startNs: Long, endNs: Long) {
        var now = startNs
        var stopped = false
        val sent = mutableListOf<Long>()
        val waits = mutableListOf<Long>()
        var done = false
        val pacer = Pacer(startNs, rate, endNs)
        val arrivals = OpenArrivals(
            pacer,
            LongSupplier { now },
            { _, waitNs -> waits.add(waitNs) },
            { stopped },
            { sent.add(it) },
            { done = true },
        )

        /** Runs the task at [atNs]: what it sent, and the wait it set (null: it ended). */
        fun runAt(atNs: Long): Pair<List<Long>, Long?> {
            now = atNs
            val (sentBefore, waitsBefore) = sent.size to waits.size
            arrivals.run()
            return sent.drop(sentBefore) to waits.drop(waitsBefore).singleOrNull()
        }
    }

    @Test
    fun `the event loop's task sends what is due and sets its timer to the next due time`() {
        // 200/s for 30 ms: arrivals due at 0, 5, 10, 15, 20 and 25 ms; a stall from 5 to 21 ms.
        val loop = FakeLoop(200.0, 0, 30_000_000)
        val steps = listOf(
            0L to (listOf(0L) to 5_000_000L),
            5_000_000L to (listOf(5_000_000L) to 5_000_000L),
            21_000_000L to (listOf(10_000_000L, 15_000_000L, 20_000_000L) to 4_000_000L),
            25_000_000L to (listOf(25_000_000L) to null),
        )
        for ((at, expected) in steps) assertThat(loop.runAt(at)).describedAs("at $at ns").isEqualTo(expected)
        assertThat(loop.done).isTrue()
        // Late by 11, 6 and 1 ms: only the first two are over 1 ms.
        assertThat(loop.pacer.lateness.lateArrivals).isEqualTo(2)
        assertThat(loop.pacer.lateness.maxLateNs).isEqualTo(11_000_000)
    }

    @Test
    fun `a stopped loop sends nothing more and sets no timer`() {
        val loop = FakeLoop(200.0, 0, 30_000_000)
        loop.runAt(0)
        loop.stopped = true
        assertThat(loop.runAt(20_000_000)).isEqualTo(emptyList<Long>() to null)
        assertThat(loop.done).isTrue()
        assertThat(loop.pacer.sent).isEqualTo(1)
    }
}
