package io.protobench.dataserver.web

import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import io.protobench.dataserver.payload.PayloadCatalog
import io.protobench.dataserver.payload.PayloadJson
import io.protobench.dataserver.payload.RequestIds
import io.protobench.dataserver.payload.SizeCatalog
import org.springframework.http.MediaType
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController

/**
 * Payloads over HTTP. Both bodies are encoded per request from the catalog's shared
 * buffer: Jackson writes [PayloadJson] (payload as base64, read by the contract's
 * DataPayload), Spring's protobuf codec serializes [DataResponse] (payload as a
 * zero-copy view of the buffer).
 */
@RestController
@RequestMapping("/data")
class PayloadController(private val catalog: PayloadCatalog) {

    @GetMapping("/json", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun json(
        @RequestParam(required = false) size: String?,
        @RequestParam(defaultValue = "") requestId: String,
    ): PayloadJson = catalog.jsonBody(RequestIds.bounded(requestId), PayloadSize.parse(size))

    @GetMapping("/binary", produces = [APPLICATION_PROTOBUF])
    suspend fun binary(
        @RequestParam(required = false) size: String?,
        @RequestParam(defaultValue = "") requestId: String,
    ): DataResponse {
        val payloadSize = PayloadSize.parse(size)
        return DataResponse.newBuilder()
            .setRequestId(RequestIds.bounded(requestId))
            .setSize(payloadSize.bytes)
            .setPayload(catalog.payload(payloadSize))
            .build()
    }

    @GetMapping("/sizes", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun sizes(): SizeCatalog = SizeCatalog.CURRENT
}
