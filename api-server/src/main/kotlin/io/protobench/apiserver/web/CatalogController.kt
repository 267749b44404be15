package io.protobench.apiserver.web

import com.fasterxml.jackson.annotation.JsonInclude
import io.protobench.apiserver.client.DataServerControl
import io.protobench.apiserver.gateway.LevelShapes
import io.protobench.apiserver.gateway.NullHop
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import io.protobench.contract.payload.PayloadSize
import kotlinx.coroutines.async
import kotlinx.coroutines.coroutineScope
import org.springframework.http.HttpStatus
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController

/** What the gateway accepts, and whether it can reach the data-server. */
@RestController
class CatalogController(private val control: DataServerControl, shapes: LevelShapes) {
    private val complexities = Complexities(ComplexityLevel.accepted, shapes.all)

    @GetMapping("/api/sizes")
    fun sizes() = Sizes(PayloadSize.SEED_SIZES, PayloadSize.MAX_BYTES, PayloadSize.ACCEPTED)

    @GetMapping("/api/complexities")
    fun complexities() = complexities

    /** The four protocols, then the null hop (the harness control, which calls no data-server). */
    @GetMapping("/api/protocols")
    fun protocols() = Protocol.entries.map { ProtocolInfo(it.label, it.pathSegment, callsDataServer = true) } +
        ProtocolInfo(NullHop.LABEL, NullHop.PATH_SEGMENT, callsDataServer = false)

    /** 200 when the data-server answers over HTTP and its gRPC health service says SERVING; 503 otherwise. */
    @GetMapping("/api/health")
    suspend fun health(): ResponseEntity<Health> = coroutineScope {
        val http = async { control.httpProblem() }
        val grpc = async { control.grpcProblem() }
        val health = Health.of(http.await(), grpc.await())
        ResponseEntity.status(if (health.status == UP) HttpStatus.OK else HttpStatus.SERVICE_UNAVAILABLE).body(health)
    }

    data class Sizes(val seedSizes: List<String>, val maxBytes: Int, val accepted: String)

    data class Complexities(val accepted: String, val levels: List<RecordShape>)

    data class ProtocolInfo(val label: String, val pathSegment: String, val callsDataServer: Boolean)

    /** [dataServer]: "UP" or "DOWN" per transport; [problems]: why each DOWN one is down (absent when all are up). */
    data class Health(
        val status: String,
        val dataServer: Map<String, String>,
        @JsonInclude(JsonInclude.Include.NON_NULL) val problems: Map<String, String>?,
    ) {
        companion object {
            fun of(httpProblem: String?, grpcProblem: String?): Health {
                val problems = listOfNotNull(httpProblem?.let { "http" to it }, grpcProblem?.let { "grpc" to it }).toMap()
                val states = mapOf("http" to state(httpProblem), "grpc" to state(grpcProblem))
                return Health(if (problems.isEmpty()) UP else DOWN, states, problems.ifEmpty { null })
            }

            private fun state(problem: String?) = if (problem == null) UP else DOWN
        }
    }

    private companion object {
        const val UP = "UP"
        const val DOWN = "DOWN"
    }
}
