package io.protobench.contract.message

import com.google.protobuf.InvalidProtocolBufferException
import io.protobench.contract.InvalidParameter
import io.protobench.contract.proto.ComplexData
import io.protobench.contract.proto.SimpleRecord
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import java.io.ByteArrayOutputStream

class ItemBatchTest {
    private val item = SimpleRecord.newBuilder().setId(7).setName("Grace").setAge(85).setScore(99.5).setActive(true).build()

    @Test
    fun `a batch of n items reads back as n equal items, with the bytes of a repeated field`() {
        for (n in listOf(0, 1, 3, 1000)) {
            val bytes = ItemBatch.write(List(n) { item })
            assertThat(ItemBatch.read(bytes, SimpleRecord.parser())).hasSize(n).allSatisfy { assertThat(it).isEqualTo(item) }
            // What protoc's own code writes for `repeated SimpleRecord simple = 1`-shaped containers: each item as field 1.
            val container = ComplexData.newBuilder().setSimple(item).build().toByteArray()
            if (n == 1) assertThat(bytes).isEqualTo(container)
        }
    }

    @Test
    fun `a batch drained into a stream is the same bytes as one written at once, and says its length`() {
        val items = List(50) { item }
        val encoding = ItemBatch.Encoding(items)
        val expected = ItemBatch.write(items)
        assertThat(encoding.available()).isEqualTo(expected.size)
        val out = ByteArrayOutputStream()
        assertThat(encoding.drainTo(out)).isEqualTo(expected.size)
        assertThat(out.toByteArray()).isEqualTo(expected)
        assertThat(encoding.available()).isZero()
        assertThat(ItemBatch.Encoding(items).readAllBytes()).isEqualTo(expected)
    }

    @Test
    fun `a batch with another field is refused`() {
        val other = ItemBatch.write(listOf(item)).also { it[0] = 0x12 } // field 2 instead of 1
        assertThatThrownBy { ItemBatch.read(other, SimpleRecord.parser()) }
            .isInstanceOf(InvalidProtocolBufferException::class.java)
            .hasMessageContaining("only field 1")
    }

    @Test
    fun `a count is a whole number from 1 to the maximum`() {
        assertThat(ItemCount.parse("1")).isEqualTo(1)
        assertThat(ItemCount.parse(" 250 ")).isEqualTo(250)
        assertThat(ItemCount.parse("100000")).isEqualTo(ItemCount.MAX)
        for (bad in listOf(null, "", "0", "-1", "1.5", "ten", "100001", "9".repeat(70))) {
            assertThatThrownBy { ItemCount.parse(bad) }.`as`(bad.toString())
                .isInstanceOf(InvalidParameter::class.java)
                .hasMessageContaining("count")
        }
    }
}
