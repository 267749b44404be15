package io.protobench.contract

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** Each level's measured shape must match how the seeds describe it. */
class ComplexityLevelShapeTest {
    private fun shape(level: ComplexityLevel) = RecordShape.of(level)

    @Test
    fun `simple has 5 primitive fields and no nesting`() {
        val s = shape(ComplexityLevel.SIMPLE)
        assertThat(s.topLevelFields).isEqualTo(5)
        assertThat(s.fieldPaths).isEqualTo(5)
        assertThat(s.leafValues).isEqualTo(5)
        assertThat(s.messageObjects).isEqualTo(1)
        assertThat(s.depth).isEqualTo(0)
    }

    @Test
    fun `medium has 13 fields, one level of nesting, 10 tags and 5 metadata entries`() {
        val s = shape(ComplexityLevel.MEDIUM)
        assertThat(s.topLevelFields).isEqualTo(13)
        assertThat(s.depth).isEqualTo(1)
        // 10 scalar fields + 10 tags + 5 address fields + 5 metadata entries (key and value)
        assertThat(s.leafValues).isEqualTo(10 + 10 + 5 + 10)
    }

    @Test
    fun `complex has 20 fields, two levels and orders with items`() {
        val s = shape(ComplexityLevel.COMPLEX)
        assertThat(s.topLevelFields).isEqualTo(20)
        assertThat(s.depth).isEqualTo(2)
        // root + address + billing address + 3 addresses + 10 orders + 10x5 items
        assertThat(s.messageObjects).isEqualTo(1 + 1 + 1 + 3 + 10 + 50)
    }

    @Test
    fun `ultra has about 150 fields, three levels and about 200 message objects`() {
        val s = shape(ComplexityLevel.ULTRA)
        assertThat(s.fieldPaths).isBetween(120, 180)
        assertThat(s.depth).isEqualTo(3)
        assertThat(s.messageObjects).isBetween(160, 240)
    }

    @Test
    fun `extreme has about 500 fields, four levels and about 800 message objects`() {
        val s = shape(ComplexityLevel.EXTREME)
        assertThat(s.fieldPaths).isBetween(400, 600)
        assertThat(s.depth).isEqualTo(4)
        assertThat(s.messageObjects).isBetween(640, 960)
    }

    @Test
    fun `every level is larger than the one before in both encodings`() {
        val shapes = ComplexityLevel.entries.map(::shape)
        shapes.zipWithNext().forEach { (smaller, larger) ->
            assertThat(larger.jsonBytes).isGreaterThan(smaller.jsonBytes)
            assertThat(larger.protobufBytes).isGreaterThan(smaller.protobufBytes)
            assertThat(larger.protobufBytes).isLessThan(larger.jsonBytes)
        }
    }
}
