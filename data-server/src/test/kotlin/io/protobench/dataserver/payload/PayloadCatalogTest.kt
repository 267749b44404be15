package io.protobench.dataserver.payload

import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.support.allocatedBy
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class PayloadCatalogTest {
    private val catalog = PayloadCatalog()

    /** The one switch between the payload modes, for gRPC and HTTP/Binary alike. */
    @Test
    fun `a range is the same bytes in either mode, a view when shared and a copy of every response when copied`() {
        val expected = PayloadGenerator.payloadFor(PayloadSize(1500))
        assertThat(catalog.range(0, 1500, GrpcPayloadMode.SHARED).toByteArray()).isEqualTo(expected)
        assertThat(catalog.range(0, 1500, GrpcPayloadMode.COPY).toByteArray()).isEqualTo(expected)

        val largest = PayloadSize.MAX_BYTES
        val shared = allocatedBy { repeat(8) { catalog.range(0, largest, GrpcPayloadMode.SHARED) } }
        val copied = allocatedBy { repeat(8) { catalog.range(0, largest, GrpcPayloadMode.COPY) } }
        assertThat(shared).isLessThan(PayloadSize.MIB.toLong())
        assertThat(copied).isGreaterThanOrEqualTo(8L * largest)
    }

    @Test
    fun `a shared range read as a ByteBuffer wraps the buffer without copying it`() {
        val largest = PayloadSize.MAX_BYTES
        val bytes = allocatedBy { repeat(8) { catalog.range(0, largest, GrpcPayloadMode.SHARED).asReadOnlyByteBuffer() } }
        assertThat(bytes).isLessThan(PayloadSize.MIB.toLong())
    }
}
