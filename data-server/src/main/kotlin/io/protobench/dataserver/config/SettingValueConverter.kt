package io.protobench.dataserver.config

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding
import org.springframework.core.convert.TypeDescriptor
import org.springframework.core.convert.converter.GenericConverter
import org.springframework.core.convert.converter.GenericConverter.ConvertiblePair
import org.springframework.stereotype.Component

/**
 * Binds the closed-set settings by their [SettingValue.id] ("per-request"), also
 * accepting the enum name ("PER_REQUEST"). An unknown value fails with the accepted
 * ids; Spring adds the property name to the startup failure.
 */
@Component
@ConfigurationPropertiesBinding
class SettingValueConverter : GenericConverter {
    private val types =
        listOf(GrpcPayloadMode::class.java, ComplexEncoding::class.java, Compression::class.java, GrpcExecutor::class.java)

    override fun getConvertibleTypes(): Set<ConvertiblePair> = types.map { ConvertiblePair(String::class.java, it) }.toSet()

    override fun convert(source: Any?, sourceType: TypeDescriptor, targetType: TypeDescriptor): Any? {
        val text = (source as String?)?.trim() ?: return null

        @Suppress("UNCHECKED_CAST")
        val values = targetType.type.enumConstants as Array<out Enum<*>>
        return values.firstOrNull { (it as SettingValue).id.equals(text, true) || it.name.equals(text, true) }
            ?: throw IllegalArgumentException(
                "invalid value '$text' for ${targetType.type.simpleName}: accepted " +
                    values.joinToString(", ") { (it as SettingValue).id },
            )
    }
}
