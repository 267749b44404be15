package io.protobench.apiserver.client.http

import com.fasterxml.jackson.databind.ObjectReader
import com.google.protobuf.UnsafeByteOperations
import io.protobench.apiserver.client.ComplexBody
import io.protobench.apiserver.client.DataClient
import io.protobench.apiserver.client.FetchedComplex
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.FetchedItems
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.checkItemCount
import io.protobench.apiserver.gateway.GatewayMessage
import io.protobench.contract.Json
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.LevelRecord
import io.protobench.contract.payload.DataPayload
import io.protobench.contract.payload.PayloadSize
import org.springframework.stereotype.Component

/** HTTP/JSON: GET, Jackson decodes the body (payload bytes arrive base64-encoded). */
@Component
class HttpJsonClient(private val http: DataServerHttp, private val message: GatewayMessage) : DataClient {
    private val mapper = Json.newMapper()
    private val payloadReader: ObjectReader = mapper.readerFor(DataPayload::class.java)
    private val levelReaders: Map<ComplexityLevel, ObjectReader> =
        ComplexityLevel.entries.associateWith { mapper.readerFor(it.recordType) }

    /** A JSON array of the user's model records (Jackson, no protobuf on this arm). */
    private val itemsReader: ObjectReader by lazy { mapper.readerForListOf(message.required().modelClass) }

    override suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData {
        val body = http.get("/data/json?size=$size&requestId=$requestId", JSON)
        val decoded = decode<DataPayload>(body, payloadReader)
        checkDeclaredSize(decoded.size, decoded.payload.size)
        return FetchedData(UnsafeByteOperations.unsafeWrap(decoded.payload), body.size.toLong())
    }

    override suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex {
        val body = http.get("/complex/json?complexity=${level.id}&requestId=$requestId", JSON)
        val record = decode<LevelRecord>(body, levelReaders.getValue(level))
        return FetchedComplex(ComplexBody.Objects(record)) { body.size.toLong() }
    }

    override suspend fun fetchItems(count: Int, requestId: String): FetchedItems {
        val body = http.get("/message/json?count=$count&requestId=$requestId", JSON)
        val items = decode<List<Any>>(body, itemsReader)
        checkItemCount(count, items)
        return FetchedItems(items) { body.size.toLong() }
    }

    private fun <T> decode(body: ByteArray, reader: ObjectReader): T = try {
        reader.readValue(body)
    } catch (e: Exception) {
        throw HopFailure.BadResponse("undecodable JSON (${body.size} bytes): ${e.message?.lineSequence()?.first()}", e)
    }

    private companion object {
        const val JSON = "application/json"
    }
}

/** Fails when a response's declared payload size disagrees with the bytes it carries. */
internal fun checkDeclaredSize(declared: Int, carried: Int) {
    if (declared != carried) throw HopFailure.BadResponse("response declares $declared payload bytes but carries $carried")
}
