package io.protobench.apiserver.config

import io.protobench.apiserver.client.DataServerControl
import io.protobench.apiserver.client.http.DataServerHttp
import io.protobench.apiserver.measure.JvmProbe
import io.protobench.apiserver.measure.MeasurementWindow
import io.protobench.contract.Json
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.time.Clock
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.TimeSource

@Configuration(proxyBeanMethods = false)
class GatewayConfig {
    /** Monotonic time for hop latencies and window durations. */
    @Bean
    fun timeSource(): TimeSource = TimeSource.Monotonic

    /** Wall clock for report timestamps. */
    @Bean
    fun clock(): Clock = Clock.systemUTC()

    /** The HTTP client of the HTTP/JSON and HTTP/Binary hops. */
    @Bean(destroyMethod = "close")
    fun hopHttp(settings: GatewaySettings): DataServerHttp = DataServerHttp.forHop(settings)

    /** The benchmark window; samples the gateway JVM every 100 ms as the seed project did. */
    @Bean(destroyMethod = "close")
    fun measurementWindow(settings: GatewaySettings, control: DataServerControl, timeSource: TimeSource, clock: Clock) =
        MeasurementWindow(JvmProbe, control, Json.newMapper().valueToTree(settings), timeSource, clock, SAMPLE_PERIOD)

    private companion object {
        val SAMPLE_PERIOD = 100.milliseconds
    }
}
