package io.protobench.apiserver.client

import com.google.protobuf.ByteString
import io.protobench.apiserver.client.grpc.ChunkAssembler
import io.protobench.contract.proto.DataChunk
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class ChunkAssemblerTest {

    private fun chunk(index: Int, total: Int, vararg bytes: Int) = DataChunk.newBuilder()
        .setIndex(index).setTotalSize(total).setData(ByteString.copyFrom(ByteArray(bytes.size) { bytes[it].toByte() }))
        .build()

    private fun assemble(vararg chunks: DataChunk) = ChunkAssembler().apply { chunks.forEach(::add) }.finish()

    @Test
    fun `consecutive chunks join into the payload, counting each message's bytes`() {
        val chunks = arrayOf(chunk(0, 5, 1, 2), chunk(1, 5, 3, 4), chunk(2, 5, 5))

        val data = assemble(*chunks)

        assertThat(data.payload.toByteArray()).containsExactly(1, 2, 3, 4, 5)
        assertThat(data.wireBytes).isEqualTo(chunks.sumOf { it.serializedSize }.toLong())
    }

    @Test
    fun `a missing chunk is a bad response`() {
        assertThatThrownBy { assemble(chunk(0, 4, 1, 2), chunk(2, 4, 3, 4)) }
            .isInstanceOf(HopFailure.BadResponse::class.java)
            .hasMessageContaining("chunk 2 arrived where chunk 1 was expected")
    }

    @Test
    fun `a stream ending short of its total is a bad response`() {
        assertThatThrownBy { assemble(chunk(0, 4, 1, 2)) }
            .isInstanceOf(HopFailure.BadResponse::class.java)
            .hasMessageContaining("announced total 4")
    }

    @Test
    fun `chunks disagreeing on the total are a bad response`() {
        assertThatThrownBy { assemble(chunk(0, 4, 1, 2), chunk(1, 5, 3, 4)) }.isInstanceOf(HopFailure.BadResponse::class.java)
    }

    @Test
    fun `an empty stream is a bad response`() {
        assertThatThrownBy { assemble() }.isInstanceOf(HopFailure.BadResponse::class.java).hasMessageContaining("no chunks")
    }
}
