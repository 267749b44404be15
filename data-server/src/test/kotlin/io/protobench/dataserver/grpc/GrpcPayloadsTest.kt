package io.protobench.dataserver.grpc

import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.contract.payload.DataPayload
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.payload.PayloadCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class GrpcPayloadsTest {
    private val catalog = PayloadCatalog()
    private val shared = GrpcPayloads(catalog, GrpcPayloadMode.SHARED, chunkSizeBytes = 512)
    private val copy = GrpcPayloads(catalog, GrpcPayloadMode.COPY, chunkSizeBytes = 512)
    private val size = PayloadSize(1500)

    @Test
    fun `both modes give the same bytes, whole and chunked`() {
        val expected = PayloadGenerator.payloadFor(size)
        assertThat(shared.whole(size).toByteArray()).isEqualTo(expected)
        assertThat(copy.whole(size).toByteArray()).isEqualTo(expected)
        assertThat(shared.chunks(size).toList()).isEqualTo(copy.chunks(size).toList())
    }

    @Test
    fun `chunks are full except the last, which holds the remainder`() {
        assertThat(shared.chunks(size).map { it.size() }.toList()).containsExactly(512, 512, 476)
        assertThat(shared.chunkCount(size)).isEqualTo(3)
        assertThat(shared.chunkCount(PayloadSize(1024))).isEqualTo(2)
    }

    @Test
    fun `many distinct large sizes retain no more than the one shared buffer`() {
        assertThat(catalog.retainedBytes).isEqualTo(PayloadSize.MAX_BYTES.toLong())
        val mapper = jacksonObjectMapper()
        for (bytes in (PayloadSize.MAX_BYTES - 200 * 1024 + 1..PayloadSize.MAX_BYTES step 1024)) {
            val size = PayloadSize(bytes)
            shared.whole(size)
            shared.chunks(size).count()
            catalog.payload(size)
        }
        val body = mapper.readValue(mapper.writeValueAsBytes(catalog.jsonBody("r", size)), DataPayload::class.java)

        assertThat(catalog.retainedBytes).isEqualTo(PayloadSize.MAX_BYTES.toLong())
        assertThat(body.size).isEqualTo(size.bytes)
        assertThat(body.payload).isEqualTo(PayloadGenerator.payloadFor(size))
    }
}
