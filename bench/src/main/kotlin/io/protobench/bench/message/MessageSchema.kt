package io.protobench.bench.message

import com.google.protobuf.DescriptorProtos.FileDescriptorSet
import com.google.protobuf.Descriptors.Descriptor
import com.google.protobuf.Descriptors.DescriptorValidationException
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.Descriptors.FileDescriptor

/** The message types a user's .proto defines (with its imports), as protoc compiled them. */
class MessageSchema private constructor(val files: List<FileDescriptor>) {

    /** Every message type, nested ones too, by full name. */
    val types: Map<String, Descriptor> = files.flatMap { file -> file.messageTypes.flatMap(::withNested) }.associateBy { it.fullName }

    /**
     * The type named [name] (its full name, `shop.Order`, or its simple name when only one type has it),
     * checked for what the lab cannot carry yet ([unsupported]).
     */
    fun type(name: String): Descriptor {
        val type = types[name] ?: types.values.filter { it.name == name }.singleOrNull()
            ?: throw MessageProblem("--message $name: no such message type; accepted: ${accepted()}")
        unsupported(type).takeIf { it.isNotEmpty() }?.let { reasons ->
            throw MessageProblem(
                "--message $name: ${reasons.joinToString("; ")}. Not supported in this version: " +
                    "google.protobuf.Any, Duration, FieldMask, Struct, Value and ListValue, proto2 groups and extensions",
            )
        }
        return type
    }

    private fun accepted(): String {
        val own = files.lastOrNull()?.messageTypes?.flatMap(::withNested)?.filterNot { it.options.mapEntry }?.map { it.fullName }.orEmpty()
        return if (own.isEmpty()) "the .proto defines no message type" else "one of ${own.joinToString(", ")}"
    }

    companion object {
        /** Builds the descriptors of [set], dependencies first as protoc writes them. */
        fun of(set: FileDescriptorSet): MessageSchema {
            val built = linkedMapOf<String, FileDescriptor>()
            for (proto in set.fileList) {
                val dependencies = proto.dependencyList.map {
                    built[it] ?: throw MessageProblem("${proto.name} imports $it, which protoc did not include")
                }
                built[proto.name] = try {
                    FileDescriptor.buildFrom(proto, dependencies.toTypedArray())
                } catch (e: DescriptorValidationException) {
                    throw MessageProblem("${proto.name}: ${e.message}")
                }
            }
            return MessageSchema(built.values.toList())
        }

        /**
         * What in [type], or any message type it holds, the lab cannot carry on all four protocols yet:
         * `Any` fields (their type is known only at run time), groups, extensions. Empty when none.
         */
        fun unsupported(type: Descriptor): List<String> {
            val reasons = mutableListOf<String>()
            val seen = mutableSetOf<String>()
            fun visit(t: Descriptor) {
                if (!seen.add(t.fullName)) return
                if (t.toProto().extensionRangeCount > 0) reasons += "${t.fullName} declares extension ranges"
                for (field in t.fields) {
                    when {
                        field.type == FieldDescriptor.Type.GROUP -> reasons += "${field.fullName} is a group"
                        field.type != FieldDescriptor.Type.MESSAGE -> Unit
                        field.messageType.fullName == ANY -> reasons += "${field.fullName} is a google.protobuf.Any"
                        field.messageType.fullName in JSON_SHAPED -> reasons += "${field.fullName} is a ${field.messageType.fullName}"
                        else -> visit(field.messageType)
                    }
                }
            }
            visit(type)
            return reasons
        }

        private const val ANY = "google.protobuf.Any"

        /** Well-known types whose JSON form is not an object of their fields: no plain model for them yet. */
        private val JSON_SHAPED = setOf(
            "google.protobuf.Duration",
            "google.protobuf.FieldMask",
            "google.protobuf.Struct",
            "google.protobuf.Value",
            "google.protobuf.ListValue",
        )

        private fun withNested(type: Descriptor): List<Descriptor> = listOf(type) + type.nestedTypes.flatMap(::withNested)
    }
}
