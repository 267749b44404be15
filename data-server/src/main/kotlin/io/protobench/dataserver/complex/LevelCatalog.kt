package io.protobench.dataserver.complex

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.LevelRecord
import io.protobench.contract.complex.RecordFactory
import io.protobench.contract.complex.RecordShape
import org.springframework.stereotype.Component
import java.util.EnumMap

/**
 * The object of every complexity level, built once at startup and served to every
 * request, as a service serves domain objects it already holds.
 */
@Component
class LevelCatalog {
    private val records: Map<ComplexityLevel, LevelRecord> =
        ComplexityLevel.entries.associateWithTo(EnumMap(ComplexityLevel::class.java)) { RecordFactory.recordFor(it) }

    /** What each level's object contains (fields, objects, depth, encoded bytes), in level order. */
    val shapes: List<RecordShape> = ComplexityLevel.entries.map { RecordShape.of(it) }

    fun recordFor(level: ComplexityLevel): LevelRecord = records.getValue(level)
}
