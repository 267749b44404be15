package io.protobench.apiserver.client.http

import com.google.protobuf.InvalidProtocolBufferException
import io.protobench.apiserver.client.ComplexBody
import io.protobench.apiserver.client.DataClient
import io.protobench.apiserver.client.FetchedComplex
import io.protobench.apiserver.client.FetchedData
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.carries
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.DataResponse
import org.springframework.stereotype.Component

/** HTTP/Binary: GET, the body is a serialized protobuf message (`application/x-protobuf`). */
@Component
class HttpBinaryClient(private val http: DataServerHttp) : DataClient {

    override suspend fun fetchData(size: PayloadSize, requestId: String): FetchedData {
        val body = http.get("/data/binary?size=$size&requestId=$requestId", PROTOBUF)
        val response = parse(body) { DataResponse.parseFrom(it) }
        checkDeclaredSize(response.size, response.payload.size())
        return FetchedData(response.payload, body.size.toLong())
    }

    override suspend fun fetchComplex(level: ComplexityLevel, requestId: String): FetchedComplex {
        val body = http.get("/complex/binary?complexity=${level.id}&requestId=$requestId", PROTOBUF)
        val message = parse(body) { ComplexData.parseFrom(it) }
        if (!message.carries(level)) throw HopFailure.BadResponse("asked for ${level.id}, got ${message.recordCase}")
        return FetchedComplex(ComplexBody.Message(message)) { body.size.toLong() }
    }

    private fun <T> parse(body: ByteArray, parser: (ByteArray) -> T): T =
        try {
            parser(body)
        } catch (e: InvalidProtocolBufferException) {
            throw HopFailure.BadResponse("undecodable protobuf body (${body.size} bytes): ${e.message}", e)
        }

    private companion object {
        const val PROTOBUF = "application/x-protobuf"
    }
}
