package io.protobench.apiserver.web

import io.protobench.apiserver.gateway.ComplexReply
import io.protobench.apiserver.gateway.DataGateway
import io.protobench.apiserver.gateway.DataReply
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * The calls the load generator makes: `/api/data/<protocol>?size=` and
 * `/api/complex/<protocol>?complexity=`, where <protocol> is http/json, http/binary,
 * grpc or grpc/stream, or `none` for the null hop (no data-server call). A missing
 * `size` means 1mb and a missing `complexity` simple, as in the seed project.
 */
@RestController
class GatewayController(private val gateway: DataGateway) {

    @GetMapping("/api/data/{*protocol}")
    suspend fun data(@PathVariable protocol: String, @RequestParam(required = false) size: String?): DataReply =
        gateway.data(protocol.removePrefix("/"), size)

    @GetMapping("/api/complex/{*protocol}")
    suspend fun complex(
        @PathVariable protocol: String,
        @RequestParam(required = false) complexity: String?,
    ): ComplexReply = gateway.complex(protocol.removePrefix("/"), complexity)
}
