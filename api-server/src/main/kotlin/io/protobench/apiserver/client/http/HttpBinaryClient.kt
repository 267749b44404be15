package io.protobench.apiserver.client.http

import com.google.protobuf.InvalidProtocolBufferException
import com.google.protobuf.UnsafeByteOperations
import io.protobench.apiserver.client.ComplexBody
import io.protobench.apiserver.client.DataClient
import io.protobench.apiserver.client.FetchedComplex
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.FetchedItems
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.carries
import io.protobench.apiserver.client.checkItemCount
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.apiserver.config.GatewaySettings.BinaryBody
import io.protobench.apiserver.gateway.GatewayMessage
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.message.ItemBatch
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.DataResponse
import org.springframework.stereotype.Component

/**
 * HTTP/Binary: GET, the body a serialized protobuf message (`application/x-protobuf`) or,
 * for payloads under `http.binary-body: raw`, the bare payload bytes
 * (`application/octet-stream`). Level objects have no raw form: `/complex` is always
 * protobuf.
 */
@Component
class HttpBinaryClient(private val http: DataServerHttp, settings: GatewaySettings, private val message: GatewayMessage) : DataClient {
    private val payloadBody = settings.http.binaryBody

    override suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData = when (payloadBody) {
        BinaryBody.PROTOBUF -> fetchMessage(size, requestId)
        BinaryBody.RAW -> fetchRaw(size, requestId)
    }

    override suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex {
        val body = http.get("/complex/binary?complexity=${level.id}&requestId=$requestId", PROTOBUF)
        val message = parse(body) { ComplexData.parseFrom(it) }
        if (!message.carries(level)) throw HopFailure.BadResponse("asked for ${level.id}, got ${message.recordCase}")
        return FetchedComplex(ComplexBody.Message(message)) { body.size.toLong() }
    }

    override suspend fun fetchItems(count: Int, requestId: String): FetchedItems {
        val parser = message.required().parser
        val body = http.get("/message/binary?count=$count&requestId=$requestId", PROTOBUF)
        val items = parse(body) { ItemBatch.read(it, parser) }
        checkItemCount(count, items)
        return FetchedItems(items) { body.size.toLong() }
    }

    private suspend fun fetchMessage(size: PayloadSize, requestId: String): FetchedData {
        val body = http.get(dataUri(size, requestId), PROTOBUF)
        val response = parse(body) { DataResponse.parseFrom(it) }
        checkDeclaredSize(response.size, response.payload.size())
        return FetchedData(response.payload, body.size.toLong())
    }

    /** The raw body carries nothing but the payload, so its length is all there is to check. */
    private suspend fun fetchRaw(size: PayloadSize, requestId: String): FetchedData {
        val body = http.get(dataUri(size, requestId), OCTET_STREAM)
        if (body.size != size.bytes) throw HopFailure.BadResponse("asked for ${size.bytes} payload bytes, got ${body.size}")
        return FetchedData(UnsafeByteOperations.unsafeWrap(body), body.size.toLong())
    }

    private fun dataUri(size: PayloadSize, requestId: String) = "/data/binary?size=$size&requestId=$requestId"

    private fun <T> parse(body: ByteArray, parser: (ByteArray) -> T): T = try {
        parser(body)
    } catch (e: InvalidProtocolBufferException) {
        throw HopFailure.BadResponse("undecodable protobuf body (${body.size} bytes): ${e.message}", e)
    }

    private companion object {
        const val PROTOBUF = "application/x-protobuf"
        const val OCTET_STREAM = "application/octet-stream"
    }
}
