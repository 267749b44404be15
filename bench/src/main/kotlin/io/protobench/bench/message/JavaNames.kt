package io.protobench.bench.message

import com.google.protobuf.Descriptors.Descriptor
import com.google.protobuf.Descriptors.EnumDescriptor
import com.google.protobuf.Descriptors.FieldDescriptor
import com.google.protobuf.Descriptors.FileDescriptor

/**
 * The names protoc's Java generator gives a .proto's types and accessors (its `java_names` rules):
 * the mapping between the plain model and the generated classes calls them by these names.
 */
object JavaNames {

    /** The generated class of [type], as Java source names it (`shop.OrderOuterClass.Order.Line`). */
    fun className(type: Descriptor): String =
        type.containingType?.let { "${className(it)}.${type.name}" } ?: "${container(type.file)}.${type.name}"

    /** The generated enum of [type]. */
    fun className(type: EnumDescriptor): String =
        type.containingType?.let { "${className(it)}.${type.name}" } ?: "${container(type.file)}.${type.name}"

    /** What a top-level type of [file] is generated in: its Java package, or the file's outer class in it. */
    private fun container(file: FileDescriptor): String {
        val pkg = javaPackage(file)
        val prefix = if (pkg.isEmpty()) "" else "$pkg."
        return if (file.options.javaMultipleFiles) pkg else "$prefix${outerClass(file)}"
    }

    fun javaPackage(file: FileDescriptor): String = if (file.options.hasJavaPackage()) file.options.javaPackage else file.`package`

    /**
     * The file's outer class: `java_outer_classname`, else the file's base name in CamelCase, with
     * `OuterClass` added when a type of the file (nested ones too) already has that name.
     */
    fun outerClass(file: FileDescriptor): String {
        if (file.options.hasJavaOuterClassname()) return file.options.javaOuterClassname
        val name = camelCase(file.name.substringAfterLast('/').removeSuffix(".proto"), capitalizeFirst = true)
        val taken = file.messageTypes.any { conflicts(it, name) } || file.enumTypes.any { it.name == name } ||
            file.services.any { it.name == name }
        return if (taken) "${name}OuterClass" else name
    }

    private fun conflicts(type: Descriptor, name: String): Boolean =
        type.name == name || type.enumTypes.any { it.name == name } || type.nestedTypes.any { conflicts(it, name) }

    /**
     * The part of [field]'s accessors after get/set/has (`placed_at` → `PlacedAt`); protoc adds `_`
     * where the name is one a generated message has already (`class` → `getClass_()`).
     */
    fun accessor(field: FieldDescriptor): String = camelCase(field.name, capitalizeFirst = true).let {
        if (it in
            RENAMED_ACCESSORS
        ) {
            "${it}_"
        } else {
            it
        }
    }

    /**
     * protoc's underscores-to-CamelCase: letters after an underscore, a digit or another character
     * are capitalised, those characters (but digits) dropped.
     */
    fun camelCase(name: String, capitalizeFirst: Boolean): String {
        val out = StringBuilder()
        var capitalizeNext = capitalizeFirst
        for ((i, c) in name.withIndex()) {
            when {
                c in 'a'..'z' -> {
                    out.append(if (capitalizeNext) c.uppercaseChar() else c)
                    capitalizeNext = false
                }

                c in 'A'..'Z' -> {
                    out.append(if (i == 0 && !capitalizeFirst) c.lowercaseChar() else c)
                    capitalizeNext = false
                }

                c in '0'..'9' -> {
                    out.append(c)
                    capitalizeNext = true
                }

                else -> capitalizeNext = true
            }
        }
        return out.toString()
    }

    /** Accessor names protoc renames ([accessor]): those of methods every generated message has. */
    val RENAMED_ACCESSORS = setOf(
        "Class", "UnknownFields", "SerializedSize", "DefaultInstanceForType", "ParserForType",
        "InitializationErrorString", "DescriptorForType", "AllFields", "CachedSize",
    )
}
