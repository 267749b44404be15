package io.protobench.contract

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.SerializationFeature
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper

/**
 * The Jackson configuration of the lab: both servers use it for the HTTP/JSON hop, so
 * an object encoded by one side decodes to an equal object on the other; it also reads
 * and writes the gateway's window reports (instants as ISO-8601 text, as Spring Boot
 * writes them). The hop carries no dates, so the time module costs it nothing.
 */
object Json {
    fun newMapper(): ObjectMapper = jacksonObjectMapper()
        .registerModule(JavaTimeModule())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
}
