package io.protobench.contract

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper

/**
 * The Jackson configuration both servers use for the HTTP/JSON hop, so an object
 * encoded by one side decodes to an equal object on the other.
 */
object Json {
    fun newMapper(): ObjectMapper = jacksonObjectMapper()
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
}
