package io.protobench.apiserver.measure

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.contract.metrics.ProcessUsage
import io.protobench.contract.window.Processes
import io.protobench.contract.window.WindowReport
import io.protobench.contract.window.WindowStarted
import kotlinx.coroutines.CoroutineName
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.sync.Mutex
import kotlinx.coroutines.sync.withLock
import java.time.Clock
import java.time.Instant
import java.util.concurrent.atomic.AtomicReference
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.Duration
import kotlin.time.TimeMark
import kotlin.time.TimeSource

/**
 * The benchmark window: opened by `POST /benchmark/start`, closed by
 * `POST /benchmark/end`. While open, every hop records into it; the gateway JVM is
 * sampled every [samplePeriod]; both processes are snapshotted at start and end.
 * At most one window is open; starting another while one is open is refused
 * ([WindowAlreadyOpen]) unless the caller asks to replace it. The sampler runs in a
 * scope owned by this object and cancelled by [close].
 */
class MeasurementWindow(
    private val local: LocalProbe,
    private val dataServer: DataServerProbe,
    /** Reported as-is in every report (the gateway's client settings, as JSON). */
    private val clientSettings: JsonNode,
    /** Monotonic time for durations; a test source makes the arithmetic testable. */
    private val timeSource: TimeSource,
    /** Wall clock for the startedAt / endedAt timestamps. */
    private val clock: Clock,
    samplePeriod: Duration,
) : AutoCloseable {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Default + CoroutineName("measurement-window"))
    private val sampler = ResourceSampler(local, samplePeriod)
    private val lifecycle = Mutex()
    private val open = AtomicReference<OpenWindow?>(null)

    /** The recording of the open window, or null when none is open. A request asks once, when it arrives. */
    fun current(): WindowRecording? = open.get()?.recording

    /**
     * Opens a window. With one already open: [WindowAlreadyOpen] (a second runner, or a
     * run that never ended its window, must not silently reset the first), unless
     * [replace] is true, which drops the open window unreported and opens a new one.
     */
    suspend fun start(protocol: String?, testName: String?, replace: Boolean = false): WindowStarted = lifecycle.withLock {
        open.get()?.let { if (!replace) throw WindowAlreadyOpen(it.protocol, it.testName, it.startedAt) }
        open.getAndSet(null)?.sampling?.cancel()
        local.resetPeakHeap()
        val localStart = local.snapshot()
        val remoteStart = attempt {
            dataServer.resetPeakHeap()
            dataServer.snapshot()
        }
        val mark = timeSource.markNow()
        val window = OpenWindow(
            protocol,
            testName,
            clock.instant(),
            mark,
            WindowRecording(mark),
            localStart,
            remoteStart,
            sampler.launchIn(scope),
        )
        open.set(window)
        WindowStarted("started", protocol, testName, window.startedAt)
    }

    /** Closes the open window and reports it; [NoOpenWindow] when there is none. Never fails for the data-server. */
    suspend fun end(): WindowReport = lifecycle.withLock {
        val window = open.getAndSet(null) ?: throw NoOpenWindow()
        val duration = window.mark.elapsedNow()
        val counts = window.recording.drain()
        val timeline = window.recording.timeline.completedSeconds()
        val samples = window.sampling.stop()
        val localEnd = local.snapshot()
        val remoteEnd = attempt { dataServer.snapshot() }
        val remoteSettings = attempt { dataServer.settings() }
        WindowReport(
            protocol = window.protocol,
            testName = window.testName,
            startedAt = window.startedAt,
            endedAt = clock.instant(),
            durationMs = duration.inWholeMilliseconds,
            totalRequests = counts.total,
            successRequests = counts.successes,
            failedRequests = counts.failures,
            failuresByKind = counts.failuresByKind,
            throughputRps = WindowMath.throughputRps(counts.total, duration),
            latency = counts.latencyMicros.toLatencyStats(),
            serverMetrics = serverMetricsOf(window.localStart, localEnd, samples),
            dataTransfer = WindowMath.dataTransfer(counts),
            processes = processes(window, localEnd, remoteEnd, counts.total),
            clientSettings = clientSettings,
            dataServerSettings = remoteSettings.value,
            timeline = timeline,
        )
    }

    private fun processes(window: OpenWindow, localEnd: ProcessSnapshot, remoteEnd: Attempt<ProcessSnapshot>, requests: Long) = Processes(
        apiServer = ProcessUsage.between(window.localStart, localEnd, requests),
        dataServer = window.remoteStart.value?.let { start ->
            remoteEnd.value?.let { end -> ProcessUsage.between(start, end, requests) }
        },
        dataServerError = window.remoteStart.error?.let { "at start: $it" } ?: remoteEnd.error?.let { "at end: $it" },
    )

    override fun close() = scope.cancel()

    private class OpenWindow(
        val protocol: String?,
        val testName: String?,
        val startedAt: Instant,
        val mark: TimeMark,
        val recording: WindowRecording,
        val localStart: ProcessSnapshot,
        val remoteStart: Attempt<ProcessSnapshot>,
        val sampling: ResourceSampler.Running,
    )

    /** A value, or why it could not be had. */
    private class Attempt<T>(val value: T?, val error: String?)

    private suspend fun <T> attempt(block: suspend () -> T): Attempt<T> = try {
        Attempt(block(), null)
    } catch (e: CancellationException) {
        throw e
    } catch (e: Exception) {
        Attempt(null, e.message ?: e.javaClass.simpleName)
    }
}

/** `POST /benchmark/end` without an open window. */
class NoOpenWindow : RuntimeException("no measurement window is open: call POST /benchmark/start first")

/** `POST /benchmark/start` while a window is open and replacing it was not asked for. */
class WindowAlreadyOpen(val protocol: String?, val testName: String?, val startedAt: Instant) :
    RuntimeException(
        "a measurement window is already open (protocol '${protocol ?: ""}', testName '${testName ?: ""}', " +
            "started $startedAt): end it with POST /benchmark/end, or start with replace=true to drop it unreported",
    )
