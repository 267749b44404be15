package io.protobench.contract.complex

import com.fasterxml.jackson.databind.ObjectMapper
import com.google.protobuf.Descriptors.Descriptor
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.Message
import io.protobench.contract.Json

/**
 * What a level's object really contains, measured from the object itself rather
 * than copied from the seeds' description.
 */
data class RecordShape(
    val level: String,
    val seedDescription: String,
    /** Fields declared on the root message. */
    val topLevelFields: Int,
    /**
     * Distinct field paths from the root (`summary.owner.email` is one path), i.e. the
     * columns of the flattened document. A map or repeated field is one path.
     * This is what the seeds call the level's "fields".
     */
    val fieldPaths: Int,
    /** Scalar values in the object: each repeated element counts, a map entry counts key and value. */
    val leafValues: Int,
    /** Message objects in the object, the root included (map entries excluded). */
    val messageObjects: Int,
    /** Deepest nesting of message objects below the root (the root alone is 0). */
    val depth: Int,
    /** Bytes of the HTTP/JSON body (Jackson). */
    val jsonBytes: Int,
    /** Bytes of the protobuf message on the wire (HTTP/Binary body, gRPC message). */
    val protobufBytes: Int,
) {
    companion object {
        private val mapper: ObjectMapper = Json.newMapper()

        fun of(level: ComplexityLevel): RecordShape {
            val record = RecordFactory.recordFor(level)
            val wire = ProtoMapping.toProto(record)
            val root = wire.getField(wire.descriptorForType.findFieldByNumber(level.ordinal + 1)) as Message
            val counts = InstanceCounts().also { it.visit(root, 0) }
            return RecordShape(
                level = level.id,
                seedDescription = level.seedDescription,
                topLevelFields = root.descriptorForType.fields.size,
                fieldPaths = fieldPaths(root.descriptorForType),
                leafValues = counts.leafValues,
                messageObjects = counts.messageObjects,
                depth = counts.maxDepth,
                jsonBytes = mapper.writeValueAsBytes(record).size,
                protobufBytes = wire.serializedSize,
            )
        }

        private fun isNestedMessage(field: FieldDescriptor) = field.javaType == FieldDescriptor.JavaType.MESSAGE && !field.isMapField

        private fun fieldPaths(type: Descriptor): Int = type.fields.sumOf { if (isNestedMessage(it)) fieldPaths(it.messageType) else 1 }
    }

    private class InstanceCounts {
        var leafValues = 0
        var messageObjects = 0
        var maxDepth = 0

        fun visit(message: Message, depth: Int) {
            messageObjects++
            maxDepth = maxOf(maxDepth, depth)
            for (field in message.descriptorForType.fields) {
                when {
                    field.isMapField -> leafValues += 2 * message.getRepeatedFieldCount(field)

                    isNestedMessage(field) && field.isRepeated ->
                        repeat(message.getRepeatedFieldCount(field)) {
                            visit(message.getRepeatedField(field, it) as Message, depth + 1)
                        }

                    isNestedMessage(field) ->
                        if (message.hasField(field)) visit(message.getField(field) as Message, depth + 1)

                    field.isRepeated -> leafValues += message.getRepeatedFieldCount(field)

                    else -> leafValues++
                }
            }
        }
    }
}
