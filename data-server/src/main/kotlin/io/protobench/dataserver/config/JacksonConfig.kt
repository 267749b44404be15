package io.protobench.dataserver.config

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.contract.Json
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Primary

@Configuration(proxyBeanMethods = false)
class JacksonConfig {
    /**
     * The contract's mapper configuration, used by Spring's JSON codecs (Boot's own
     * mapper backs off), so the gateway decodes exactly what this server encodes.
     */
    @Bean
    @Primary
    fun objectMapper(): ObjectMapper = Json.newMapper()
}
