package io.protobench.bench.report

import com.fasterxml.jackson.core.type.TypeReference
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.registerKotlinModule

/** What the lab keeps of the seed documents under resources/reference: their published figures and their guide. */
internal object Reference {
    private val yaml = ObjectMapper(YAMLFactory()).registerKotlinModule().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)

    fun <T> read(name: String, type: TypeReference<T>): T = Reference::class.java.getResourceAsStream("/reference/$name")!!.use {
        yaml.readValue(it, type)
    }
}
