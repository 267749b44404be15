package io.protobench.apiserver.client

import com.fasterxml.jackson.databind.JsonNode
import io.grpc.CallOptions
import io.grpc.health.v1.HealthCheckRequest
import io.grpc.health.v1.HealthCheckResponse.ServingStatus
import io.grpc.health.v1.HealthGrpc
import io.grpc.kotlin.ClientCalls
import io.protobench.apiserver.client.grpc.GrpcChannels
import io.protobench.apiserver.client.grpc.call
import io.protobench.apiserver.client.http.DataServerHttp
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.apiserver.measure.DataServerProbe
import io.protobench.contract.Json
import io.protobench.contract.metrics.HeapCollected
import io.protobench.contract.metrics.ProcessSnapshot
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component
import java.util.concurrent.TimeUnit
import kotlin.coroutines.cancellation.CancellationException

/**
 * The gateway's own calls to the data-server, outside the traffic under test: health
 * over HTTP and gRPC, and its process metrics and settings for the measurement window.
 * Uses a small HTTP/1.1 pool of its own and the `timeouts.control-ms` deadline.
 */
@Component
class DataServerControl(private val settings: GatewaySettings, private val grpc: GrpcChannels) :
    DataServerProbe,
    DisposableBean {
    private val http = DataServerHttp.forControl(settings)
    private val mapper = Json.newMapper()

    override suspend fun snapshot(): ProcessSnapshot = mapper.readValue(http.get("/internal/metrics", JSON), ProcessSnapshot::class.java)

    override suspend fun resetPeakHeap() {
        http.post("/internal/metrics/reset-peak")
    }

    override suspend fun settings(): JsonNode = mapper.readTree(http.get("/internal/settings", JSON))

    override suspend fun collectGarbage(): HeapCollected = mapper.readValue(http.post("/internal/gc"), HeapCollected::class.java)

    /** Null when the data-server answers `GET /data/sizes`, else why not. */
    suspend fun httpProblem(): String? = problemOf { http.get("/data/sizes", JSON) }

    /** Null when the data-server's gRPC health service says SERVING, else why not. */
    suspend fun grpcProblem(): String? = problemOf {
        val response = grpc.call {
            ClientCalls.unaryRpc(
                it.forHealthCheck(),
                HealthGrpc.getCheckMethod(),
                HealthCheckRequest.getDefaultInstance(),
                CallOptions.DEFAULT.withDeadlineAfter(settings.timeouts.controlMs, TimeUnit.MILLISECONDS),
            )
        }
        if (response.status != ServingStatus.SERVING) throw HopFailure.Unavailable("gRPC health: ${response.status}")
    }

    private suspend fun problemOf(check: suspend () -> Unit): String? = try {
        check()
        null
    } catch (e: CancellationException) {
        throw e
    } catch (e: HopFailure) {
        e.detail
    }

    override fun destroy() = http.close()

    private companion object {
        const val JSON = "application/json"
    }
}
