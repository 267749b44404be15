package io.protobench.apiserver.web

import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.contract.window.WindowReport
import io.protobench.contract.window.WindowStarted
import io.protobench.contract.ParameterText
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/** Opens and closes the measurement window around a load run. */
@RestController
class BenchmarkController(private val window: MeasurementWindow) {

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

    /** Labels are free text, echoed in the report; only their length is limited. */
    private fun label(name: String, text: String?): String? =
        ParameterText.bounded(name, text, "free text", ParameterText.MAX_LABEL_LENGTH)
}
