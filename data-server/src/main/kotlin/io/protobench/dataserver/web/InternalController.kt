package io.protobench.dataserver.web

import io.protobench.contract.metrics.HeapCollected
import io.protobench.contract.metrics.ProcessMetrics
import io.protobench.contract.metrics.ProcessSnapshot
import io.protobench.dataserver.info.EffectiveSettings
import io.protobench.dataserver.info.EffectiveSettingsReader
import io.protobench.dataserver.info.ServedCount
import io.protobench.dataserver.info.ServedRequests
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.ResponseStatus
import org.springframework.web.bind.annotation.RestController

/** What the gateway and the bench read about this process: resource counters and settings (the members table: [MemberCountsController]). */
@RestController
@RequestMapping("/internal")
class InternalController(private val settings: EffectiveSettingsReader, private val served: ServedRequests) {

    /** Cumulative CPU, allocation, GC and heap counters of this JVM now. */
    @GetMapping("/metrics", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun metrics(): ProcessSnapshot = ProcessMetrics.snapshot()

    /** Starts a new peak-heap period (call at the start of a measurement window). */
    @PostMapping("/metrics/reset-peak")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    suspend fun resetPeak() = ProcessMetrics.resetPeakHeap()

    /**
     * A full collection of this JVM's heap, off the event loop (it stops the world for tens of
     * milliseconds). The runner asks for it before every warm-up, so that no trial inherits
     * the garbage of the trials and conditions before it.
     */
    @PostMapping("/gc", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun collectGarbage(): HeapCollected = withContext(Dispatchers.IO) { ProcessMetrics.collectGarbage() }

    /** Data requests received since start ([ServedRequests]): throughput over a window without a gateway. */
    @GetMapping("/served", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun served() = ServedCount(served.total())

    @GetMapping("/settings", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun settings(): EffectiveSettings = settings.read()
}
