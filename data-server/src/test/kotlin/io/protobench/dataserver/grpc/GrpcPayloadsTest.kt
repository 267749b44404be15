package io.protobench.dataserver.grpc

import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.contract.payload.DataPayload
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.GrpcPayloadMode
import io.protobench.dataserver.payload.PayloadCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.lang.management.ManagementFactory

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
    fun `many distinct large sizes are views of the one shared buffer - no payload bytes allocated`() {
        val sizes = (PayloadSize.MAX_BYTES - 200 * 1024 + 1..PayloadSize.MAX_BYTES step 1024).map(::PayloadSize)
        catalog.payload(sizes.first()) // class loading and the like, outside what is counted

        // In the service's own chunks of 64 KiB: about 130 views an answer.
        val views = GrpcPayloads(catalog, GrpcPayloadMode.SHARED, chunkSizeBytes = 65536)
        val copies = GrpcPayloads(catalog, GrpcPayloadMode.COPY, chunkSizeBytes = 65536)
        val viewed = allocatedBy { sizes.forEach { serve(views, it) } }
        val copied = allocatedBy { sizes.take(5).forEach { serve(copies, it) } }

        // 200 answers of nearly 8 MB each: copies would allocate 3 GB; the views, small objects only.
        assertThat(viewed).isLessThan(sizes.size * 64L * 1024)
        // The same measure sees the copies (5 answers, each whole and in chunks), so it can fail.
        assertThat(copied).isGreaterThan(5 * 2L * (PayloadSize.MAX_BYTES - 200 * 1024))
        val mapper = jacksonObjectMapper()
        val size = sizes.last()
        val body = mapper.readValue(mapper.writeValueAsBytes(catalog.jsonBody("r", size)), DataPayload::class.java)
        assertThat(body.size).isEqualTo(size.bytes)
        assertThat(body.payload).isEqualTo(PayloadGenerator.payloadFor(size))
    }

    /** One answer of [size] as the gRPC service builds it, whole and as stream chunks. */
    private fun serve(payloads: GrpcPayloads, size: PayloadSize) {
        payloads.whole(size)
        payloads.chunks(size).count()
    }

    /** Bytes this thread allocated while [work] ran (HotSpot's per-thread counter). */
    private fun allocatedBy(work: () -> Unit): Long {
        val threads = ManagementFactory.getThreadMXBean() as com.sun.management.ThreadMXBean
        val before = threads.getThreadAllocatedBytes(Thread.currentThread().id)
        work()
        return threads.getThreadAllocatedBytes(Thread.currentThread().id) - before
    }
}
