package io.protobench.dataserver.web

import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.DataResponse
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.info.ServedRequests
import io.protobench.dataserver.payload.PayloadCatalog
import io.protobench.dataserver.payload.PayloadJson
import io.protobench.dataserver.payload.RequestIds
import io.protobench.dataserver.payload.SizeCatalog
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RequestParam
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.reactive.accept.RequestedContentTypeResolver
import org.springframework.web.server.ServerWebExchange

/**
 * Payloads over HTTP. Every body is encoded per request from the catalog's shared
 * buffer: Jackson writes [PayloadJson] (payload as base64, read by the contract's
 * DataPayload); `/data/binary` answers, per [BinaryBody], a [DataResponse] that Spring's
 * protobuf codec serializes or the bare payload bytes. The binary payload is a
 * zero-copy view of the buffer or a fresh copy per response
 * (`protobench.data.http-binary-payload-mode`); the raw body hands that ByteString's
 * bytes to Netty as they are (a wrapping ByteBuffer, no further copy).
 */
@RestController
@RequestMapping("/data")
class PayloadController(
    private val catalog: PayloadCatalog,
    private val contentTypes: RequestedContentTypeResolver,
    private val served: ServedRequests,
    settings: DataServerSettings,
) {
    private val binaryPayloadMode = settings.httpBinaryPayloadMode

    @GetMapping("/json", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun json(@RequestParam(required = false) size: String?, @RequestParam(defaultValue = "") requestId: String): PayloadJson {
        served.count()
        return catalog.jsonBody(RequestIds.bounded(requestId), PayloadSize.parse(size))
    }

    @GetMapping("/binary", produces = [APPLICATION_PROTOBUF, MediaType.APPLICATION_OCTET_STREAM_VALUE])
    suspend fun binary(
        @RequestParam(required = false) size: String?,
        @RequestParam(defaultValue = "") requestId: String,
        exchange: ServerWebExchange,
    ): ResponseEntity<Any> {
        served.count()
        val payloadSize = PayloadSize.parse(size)
        val boundedId = RequestIds.bounded(requestId)
        val payload = catalog.range(0, payloadSize.bytes, binaryPayloadMode)
        val form = BinaryBody.negotiate(contentTypes.resolveMediaTypes(exchange))
        val body: Any = when (form) {
            BinaryBody.PROTOBUF -> DataResponse.newBuilder()
                .setRequestId(boundedId)
                .setSize(payloadSize.bytes)
                .setPayload(payload)
                .build()

            BinaryBody.RAW -> payload.asReadOnlyByteBuffer()
        }
        return ResponseEntity.ok().contentType(form.mediaType).body(body)
    }

    @GetMapping("/sizes", produces = [MediaType.APPLICATION_JSON_VALUE])
    suspend fun sizes(): SizeCatalog = SizeCatalog.CURRENT
}
