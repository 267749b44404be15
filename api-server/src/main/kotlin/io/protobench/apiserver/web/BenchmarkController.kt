package io.protobench.apiserver.web

import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.measure.DataServerProbe
import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.contract.ParameterText
import io.protobench.contract.metrics.HeapsCollected
import io.protobench.contract.metrics.ProcessMetrics
import io.protobench.contract.window.WindowReport
import io.protobench.contract.window.WindowStarted
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.withContext
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import kotlin.coroutines.cancellation.CancellationException

/** Opens and closes the measurement window around a load run, and collects both heaps between runs. */
@RestController
class BenchmarkController(private val window: MeasurementWindow, private val dataServer: DataServerProbe) {

    /**
     * Opens a window; [protocol] and [testName] are labels echoed in the report. 409 when
     * one is open, unless [replace] is true (then the open one is dropped unreported).
     */
    @PostMapping("/benchmark/start")
    suspend fun start(
        @RequestParam(required = false) protocol: String?,
        @RequestParam(required = false) testName: String?,
        @RequestParam(defaultValue = "false") replace: Boolean,
    ): WindowStarted = window.start(label("protocol", protocol), label("testName", testName), replace)

    /** Closes the open window and reports it; 409 when none is open. */
    @PostMapping("/benchmark/end")
    suspend fun end(): WindowReport = window.end()

    /**
     * A full collection of the data-server's heap, then of this one's (off the request
     * thread), and what each left. The runner asks for it before every warm-up, outside any
     * window: a trial then starts from its own arm's garbage, not from what the conditions
     * measured before it left in the old generation. A data-server that cannot be asked is
     * named, not an error: the collection is a precaution, not a measurement.
     */
    @PostMapping("/benchmark/gc")
    suspend fun collectGarbage(): HeapsCollected {
        val (data, problem) = try {
            dataServer.collectGarbage() to null
        } catch (e: CancellationException) {
            throw e
        } catch (e: HopFailure) {
            null to e.detail
        }
        return HeapsCollected(withContext(Dispatchers.IO) { ProcessMetrics.collectGarbage() }, data, problem)
    }

    /** Labels are free text, echoed in the report; only their length is limited. */
    private fun label(name: String, text: String?): String? = ParameterText.bounded(name, text, "free text", ParameterText.MAX_LABEL_LENGTH)
}
