package io.protobench.contract

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.ProtoMapping
import io.protobench.contract.complex.RecordFactory
import io.protobench.contract.payload.DataPayload
import io.protobench.contract.payload.PayloadGenerator
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.proto.ComplexData
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.EnumSource

class EncodingRoundTripTest {
    private val mapper = Json.newMapper()

    @ParameterizedTest
    @EnumSource(ComplexityLevel::class)
    fun `a level object survives protobuf and JSON encoding unchanged`(level: ComplexityLevel) {
        val record = RecordFactory.recordFor(level)

        val viaProto = ProtoMapping.fromProto(ComplexData.parseFrom(ProtoMapping.toProto(record).toByteArray()))
        val viaJson = mapper.readValue(mapper.writeValueAsBytes(record), level.recordType)

        assertThat(viaProto).isEqualTo(record)
        assertThat(viaJson).isEqualTo(record)
    }

    @Test
    fun `the same level always gives an equal object and different levels differ`() {
        assertThat(RecordFactory.recordFor(ComplexityLevel.ULTRA)).isEqualTo(RecordFactory.recordFor(ComplexityLevel.ULTRA))
        assertThat(RecordFactory.recordFor(ComplexityLevel.SIMPLE).javaClass)
            .isNotEqualTo(RecordFactory.recordFor(ComplexityLevel.MEDIUM).javaClass)
    }

    @Test
    fun `payload bytes survive base64 JSON encoding`() {
        val bytes = PayloadGenerator.payloadFor(PayloadSize.parse("10kb"))
        val json = mapper.writeValueAsString(DataPayload("r1", bytes.size, bytes))
        val back = mapper.readValue(json, DataPayload::class.java)
        assertThat(back.payload).isEqualTo(bytes)
        assertThat(back.size).isEqualTo(10 * 1024)
    }

    @Test
    fun `every payload is the prefix of the largest, so one buffer serves every size`() {
        val largest = PayloadGenerator.payloadFor(PayloadSize(PayloadSize.MAX_BYTES))
        for (bytes in listOf(1, 1500, 1024 * 1024, PayloadSize.MAX_BYTES - 1)) {
            assertThat(PayloadGenerator.payloadFor(PayloadSize(bytes))).isEqualTo(largest.copyOf(bytes))
        }
    }

    @Test
    fun `payloads are deterministic per size and not trivially compressible`() {
        val a = PayloadGenerator.payloadFor(PayloadSize(4096))
        assertThat(a).isEqualTo(PayloadGenerator.payloadFor(PayloadSize(4096)))
        assertThat(a.toSet().size).isGreaterThan(200)
    }
}
