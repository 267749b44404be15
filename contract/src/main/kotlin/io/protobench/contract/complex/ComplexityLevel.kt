package io.protobench.contract.complex

import io.protobench.contract.InvalidParameter
import io.protobench.contract.ParameterText

/**
 * The seed project's five complexity levels. [seedDescription] is how the seeds
 * describe the level; [RecordShape] reports what our object for it really contains.
 */
enum class ComplexityLevel(val id: String, val recordType: Class<out LevelRecord>, val seedDescription: String) {
    SIMPLE("simple", SimpleRecord::class.java, "5 primitive fields"),
    MEDIUM("medium", MediumRecord::class.java, "13 fields, one level of nesting, 10 tags, 5 metadata entries"),
    COMPLEX("complex", ComplexRecord::class.java, "20 fields, two levels of nesting, orders x items arrays"),
    ULTRA("ultra", UltraRecord::class.java, "~150 fields, three levels of nesting, ~200 message objects"),
    EXTREME("extreme", ExtremeRecord::class.java, "~500 fields, four levels of nesting, ~800 message objects"),
    ;

    companion object {
        val accepted: String get() = entries.joinToString(", ") { it.id }

        /** A level id, any case, surrounding spaces ignored; longer than [ParameterText.MAX_LENGTH] is refused first. */
        fun parse(text: String?): ComplexityLevel {
            val bounded = ParameterText.bounded("complexity", text, accepted)?.trim()
            return entries.firstOrNull { it.id.equals(bounded, ignoreCase = true) }
                ?: throw InvalidParameter("complexity", text, accepted)
        }
    }
}
