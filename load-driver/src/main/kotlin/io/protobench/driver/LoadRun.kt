package io.protobench.driver

import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogWriter
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CountDownLatch
import java.util.concurrent.ScheduledExecutorService
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
class LoadRun(private val plan: Plan, private val threadSwitches: () -> ContextSwitches? = { OwnThreads.contextSwitches() }) {
    @Volatile private var stopped = false
    private val inFlight = AtomicLong()
    private val sequence = AtomicLong()

    @Volatile private var abandoned = false

    fun stop() {
        stopped = true
    }

    fun execute(): Summary = Calls.of(plan, plan.load.arrivals).use { calls -> execute(calls) }

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
        val pacer = when (val arrivals = plan.load.arrivals) {
            is Arrivals.Open -> Pacer(start, arrivals.rate, end, timedStart).also {
                calls.loop.execute(openArrivals(calls.loop, it, ::fire, arrivalsDone))
            }

            is Arrivals.Closed -> null.also { calls.loop.execute { startUsers(arrivals.users, end, ::fire) } }
        }

        val total = Tally.histogram()
        var cpuAtTimedStart: Long? = null
        var switchesAtTimedStart: ContextSwitches? = null
        var switches: ContextSwitches? = null
        IntervalLog(plan.histogramLog?.let { Path.of(it) }, total).use { log ->
            log.tickUntil(start, timedStart, timed) { stopped }
            cpuAtTimedStart = processCpuNanos()
            switchesAtTimedStart = threadSwitches()
            log.tickUntil(timedStart, end, timed) { stopped }
            if (pacer != null) arrivalsDone.await()
            drain(log, timed)
            // Read while the event loop still lives: its counts leave /proc with its thread when [calls] closes.
            switches = switchesAtTimedStart?.let { from -> threadSwitches()?.let { it - from } }
        }
        val cpuMs = cpuAtTimedStart?.let { from -> processCpuNanos()?.let { (it - from) / 1e6 } }
        val timedMs = TimeUnit.NANOSECONDS.toMillis((minOf(System.nanoTime(), end) - timedStart).coerceAtLeast(0))
        val cost = TimedCost(timedMs, cpuMs, switches)
        return summary(warmUp, timed, total, cost, calls.connectionsOpened, pacer?.lateness)
    }

    /** What the timed phase took: its length as scheduled, ms, and this process's CPU, ms, and context switches over it. */
    private class TimedCost(val timedMs: Long, val cpuMs: Double?, val switches: ContextSwitches?)

    /**
     * The run's summary from its phases' tallies and the timed latency [total] the interval
     * log added up; [lateness] is the open model's (null: a closed load has no due times).
     */
    private fun summary(warmUp: Tally, timed: Tally, total: Histogram, cost: TimedCost, connectionsOpened: Long, lateness: SendLateness?) =
        Summary(
            warmUp = warmUp.counts(),
            timed = timed.counts(),
            timedMs = cost.timedMs,
            latency = Latency.of(total),
            byPlace = timed.latencyByPlace(),
            connectionsOpened = connectionsOpened,
            failures = (warmUp.reasons().asSequence() + timed.reasons().asSequence()).groupingBy { it.key }
                .fold(0L) { sum, e -> sum + e.value },
            histogramLog = plan.histogramLog,
            maxLateMs = (lateness?.maxLateNs ?: 0L) / 1e6,
            cpuMs = cost.cpuMs,
            bySteps = timed.latencyBySteps(warmUp),
            firstMessage = timed.firstMessage(),
            lateArrivals = lateness?.lateArrivals ?: 0L,
            sendDelay = lateness?.let { Latency.of(it.sendDelay) },
            contextSwitches = cost.switches?.total,
            // The warm-up's sample of a reason, where it has one, came first.
            failureSamples = timed.samples() + warmUp.samples(),
            voluntaryContextSwitches = cost.switches?.voluntary,
            nonvoluntaryContextSwitches = cost.switches?.nonvoluntary,
        )

    /**
     * Open model: [pacer]'s arrivals sent from [loop], as timers of the event loop that sends
     * them (epoll's timers have microsecond resolution), by the real clock, until the schedule
     * ends or [stop].
     */
    private fun openArrivals(loop: ScheduledExecutorService, pacer: Pacer, fire: (Long, (() -> Unit)?) -> Unit, done: CountDownLatch) =
        OpenArrivals(
            pacer,
            System::nanoTime,
            schedule = { next, waitNs -> loop.schedule(next, waitNs, TimeUnit.NANOSECONDS) },
            stopped = { stopped },
            send = { dueNs -> fire(dueNs, null) },
            done = done::countDown,
        )

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
