package io.protobench.apiserver.gateway

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import org.springframework.stereotype.Component
import java.util.EnumMap

/**
 * What each level's object contains, measured once from the contract's objects at
 * start-up (it needs no data-server): served by `/api/complexities` and used by the
 * null hop to report the byte count a protobuf hop would have carried.
 */
@Component
class LevelShapes {
    private val byLevel: Map<ComplexityLevel, RecordShape> =
        ComplexityLevel.entries.associateWithTo(EnumMap(ComplexityLevel::class.java)) { RecordShape.of(it) }

    /** Every level's shape, in level order. */
    val all: List<RecordShape> = ComplexityLevel.entries.map { byLevel.getValue(it) }

    fun of(level: ComplexityLevel): RecordShape = byLevel.getValue(level)
}
