package io.protobench.dataserver.grpc

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
    fun `shared mode reuses one ByteString per size while copy mode copies per response`() {
        assertThat(shared.whole(size)).isSameAs(shared.whole(size))
        assertThat(copy.whole(size)).isNotSameAs(copy.whole(size))
    }

    @Test
    fun `the seed sizes are generated before the first request`() {
        assertThat(PayloadCatalog().cachedSizes())
            .isEqualTo(PayloadSize.SEED_SIZES.map { PayloadSize.parse(it).bytes }.sorted())
    }
}
