package io.protobench.dataserver.complex

import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.ProtoMapping
import io.protobench.contract.proto.ComplexData
import io.protobench.dataserver.config.ComplexEncoding
import io.protobench.dataserver.config.DataServerSettings
import org.springframework.stereotype.Component
import java.util.EnumMap

/**
 * The protobuf message for a level, as HTTP/Binary and gRPC send it. With
 * [ComplexEncoding.PER_REQUEST] every call maps the cached Kotlin object anew (the
 * protobuf counterpart of Jackson serializing the object per request); with
 * [ComplexEncoding.PREBUILT] the message is built once. Either way the message is
 * serialized per request by the transport.
 */
@Component
class ComplexMessages(private val levels: LevelCatalog, settings: DataServerSettings) {
    private val encoding = settings.complexEncoding

    private val prebuilt: Map<ComplexityLevel, ComplexData> = when (encoding) {
        ComplexEncoding.PER_REQUEST -> emptyMap()

        ComplexEncoding.PREBUILT -> ComplexityLevel.entries.associateWithTo(EnumMap(ComplexityLevel::class.java)) {
            ProtoMapping.toProto(levels.recordFor(it))
        }
    }

    fun messageFor(level: ComplexityLevel): ComplexData = when (encoding) {
        ComplexEncoding.PER_REQUEST -> ProtoMapping.toProto(levels.recordFor(level))
        ComplexEncoding.PREBUILT -> prebuilt.getValue(level)
    }
}
