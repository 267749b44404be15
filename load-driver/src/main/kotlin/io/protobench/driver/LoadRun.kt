package io.protobench.driver

import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogWriter
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.ScheduledExecutorService
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicLong
import java.util.concurrent.locks.LockSupport

/**
 * One run of a [Plan]: the warm-up, then the timed phase, in one process and on the same
 * connections. Open model: arrival i is due at start + i/rate and its latency runs from
 * then, not from when it was sent (coordinated omission: a late send is the system's
 * delay, as wrk2 and HdrHistogram define it). Closed model: each user calls again when
 * its answer is in, latency from the send. [stop] ends it early (a soak's mix).
 */
class LoadRun(private val plan: Plan, private val threadSwitches: () -> Long? = { OwnThreads.contextSwitches() }) {
    @Volatile private var stopped = false
    private val inFlight = AtomicLong()
    private val sequence = AtomicLong()
    /** The latest an arrival was sent after it was due, ns. */
    private val maxLateNs = AtomicLong()
    /** Arrivals sent more than [LATE_NS] after they were due. */
    private val lateArrivals = AtomicLong()
    /** How late each arrival of the timed phase was sent, µs: written by the pacer alone, read once it is done. */
    private val sendDelay = Tally.histogram()
    @Volatile private var abandoned = false

    fun stop() {
        stopped = true
    }

    fun execute(): Summary {
        val maxConnections = if (plan.load.open) plan.load.maxConnections!! else plan.load.users!!
        return Calls.of(plan, maxConnections).use { calls -> execute(calls) }
    }

    /** The run through [calls] (a test may wrap the client to stall its loop). */
    internal fun execute(calls: Calls): Summary {
        val checks = plan.targets.map(::AnswerCheck)
        val bodies = plan.targets.map { target -> target.body?.let { Emails(target, plan.instance) } }
        val warmUp = Tally(timesLatency = false)
        val timed = Tally(timesLatency = true)
        val start = System.nanoTime()
        val timedStart = start + TimeUnit.MILLISECONDS.toNanos(plan.warmUpMs)
        val end = timedStart + TimeUnit.MILLISECONDS.toNanos(plan.durationMs)

        fun fire(dueNs: Long, then: (() -> Unit)? = null) {
            val number = sequence.getAndIncrement()
            val index = (number % plan.targets.size).toInt()
            val tally = if (dueNs < timedStart) warmUp else timed
            inFlight.incrementAndGet()
            calls.call(plan.targets[index], checks[index], bodies[index]?.body()) { outcome ->
                if (!abandoned) tally.record(outcome, dueNs, System.nanoTime())
                inFlight.decrementAndGet()
                then?.invoke()
            }
        }

        val arrivalsDone = CountDownLatch(1)
        if (plan.load.open) calls.loop.execute(Pacer(calls.loop, start, timedStart, end, ::fire, arrivalsDone))
        else calls.loop.execute { startUsers(plan.load.users!!, end, ::fire) }

        val total = Tally.histogram()
        var cpuAtTimedStart: Long? = null
        var switchesAtTimedStart: Long? = null
        var switches: Long? = null
        IntervalLog(plan.histogramLog?.let { Path.of(it) }, total).use { log ->
            log.tickUntil(start, timedStart, timed) { stopped }
            cpuAtTimedStart = processCpuNanos()
            switchesAtTimedStart = threadSwitches()
            log.tickUntil(timedStart, end, timed) { stopped }
            if (plan.load.open) arrivalsDone.await()
            drain(log, timed)
            // Read while the event loop still lives: its counts leave /proc with its thread when [calls] closes.
            switches = switchesAtTimedStart?.let { from -> threadSwitches()?.let { it - from } }
        }
        val cpuMs = cpuAtTimedStart?.let { from -> processCpuNanos()?.let { (it - from) / 1e6 } }
        val timedMs = TimeUnit.NANOSECONDS.toMillis((minOf(System.nanoTime(), end) - timedStart).coerceAtLeast(0))
        return Summary(
            warmUp.counts(), timed.counts(), timedMs, Latency.of(total), timed.latencyByPlace(), calls.connectionsOpened,
            (warmUp.reasons().asSequence() + timed.reasons().asSequence()).groupingBy { it.key }.fold(0L) { sum, e -> sum + e.value },
            plan.histogramLog, maxLateNs.get() / 1e6, cpuMs,
            timed.latencyBySteps(warmUp), timed.firstMessage(), lateArrivals.get(),
            if (plan.load.open) Latency.of(sendDelay) else null, switches,
            // The warm-up's sample of a reason, where it has one, came first.
            timed.samples() + warmUp.samples(),
        )
    }

    /**
     * Open model: each arrival at its due time, as a timer of the event loop that sends it
     * (epoll's timers have microsecond resolution). Arrivals already due when it runs (after
     * a pause) are sent at once; their latency still counts from when they were due, and
     * how late they left goes into [sendDelay] (the timed phase's) and [lateArrivals].
     */
    private inner class Pacer(
        private val loop: ScheduledExecutorService, private val start: Long, private val timedStart: Long, private val end: Long,
        private val fire: (Long, (() -> Unit)?) -> Unit, private val done: CountDownLatch,
    ) : Runnable {
        private val spacing = 1e9 / plan.load.rate!!
        private var next = 0L

        override fun run() {
            val now = System.nanoTime()
            while (!stopped) {
                val due = start + (next * spacing).toLong()
                if (due >= end) break
                if (due > now) {
                    loop.schedule(this, due - now, TimeUnit.NANOSECONDS)
                    return
                }
                val late = now - due
                maxLateNs.accumulateAndGet(late, ::maxOf)
                if (late > LATE_NS) lateArrivals.incrementAndGet()
                if (due >= timedStart) sendDelay.recordValue(late / 1000)
                fire(due, null)
                next++
            }
            done.countDown()
        }
    }

    /** Closed model: [users] loops, each calling again from the event loop when its answer is in. */
    private fun startUsers(users: Int, end: Long, fire: (Long, (() -> Unit)?) -> Unit) {
        fun next() {
            val now = System.nanoTime()
            if (!stopped && now < end) fire(now, ::next)
        }
        repeat(users) { next() }
    }

    /** Waits for the calls still out, at most [DRAIN]; any left then count as unanswered. */
    private fun drain(log: IntervalLog, timed: Tally) {
        val limit = System.nanoTime() + DRAIN.toNanos()
        while (inFlight.get() > 0 && System.nanoTime() < limit) {
            Thread.sleep(POLL_MS)
            log.tickIfDue(timed)
        }
        abandoned = true
        timed.unanswered(inFlight.get(), "no answer within ${DRAIN.seconds} s after the run's end")
        log.tick(timed)
    }

    /** This process's CPU so far, ns, or null where the JVM cannot tell. */
    private fun processCpuNanos(): Long? =
        (java.lang.management.ManagementFactory.getOperatingSystemMXBean() as? com.sun.management.OperatingSystemMXBean)
            ?.processCpuTime?.takeIf { it >= 0 }

    companion object {
        /** How long calls still out at the end may take before they count as unanswered. */
        val DRAIN: java.time.Duration = java.time.Duration.ofSeconds(10)
        private const val POLL_MS = 5L

        /** An arrival sent later than this after it was due counts as late: the driver, not the servers, delayed it. */
        val LATE_NS = TimeUnit.MILLISECONDS.toNanos(Summary.LATE_MS)
    }
}

/**
 * The timed phase's latency, an interval at a time: added into [total], and written to a
 * standard HdrHistogram log when there is a [path] (timestamps in seconds since the epoch,
 * so logs of drivers on several machines merge as they are).
 */
private class IntervalLog(path: Path?, private val total: Histogram) : AutoCloseable {
    private val out = path?.let { PrintStream(Files.newOutputStream(it), false, Charsets.US_ASCII) }
    private val writer = out?.let { HistogramLogWriter(it) }?.apply {
        outputLogFormatVersion()
        outputStartTime(System.currentTimeMillis())
        outputLegend()
    }
    private var nextTick = 0L
    private var reuse: Histogram? = null

    /** Sleeps until [end] (or [stopped]), taking an interval every second from [from]. */
    fun tickUntil(from: Long, end: Long, tally: Tally, stopped: () -> Boolean) {
        nextTick = maxOf(nextTick, from + INTERVAL_NS)
        while (!stopped()) {
            val now = System.nanoTime()
            if (now >= end) break
            LockSupport.parkNanos(minOf(end, nextTick, now + STOP_CHECK_NS) - now)
            tickIfDue(tally)
        }
    }

    fun tickIfDue(tally: Tally) {
        if (System.nanoTime() >= nextTick) {
            tick(tally)
            nextTick += INTERVAL_NS
        }
    }

    fun tick(tally: Tally) {
        val interval = tally.all.getIntervalHistogram(reuse)
        reuse = interval
        if (interval.totalCount == 0L) return
        total.add(interval)
        writer?.outputIntervalHistogram(interval)
    }

    override fun close() {
        out?.close()
    }

    companion object {
        private val INTERVAL_NS = TimeUnit.SECONDS.toNanos(1)
        private val STOP_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(100)
    }
}
