package io.protobench.apiserver.support

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.apiserver.ApiServerApplication
import io.protobench.contract.Json
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment
import org.springframework.boot.test.context.TestConfiguration
import org.springframework.boot.test.web.reactive.server.WebTestClientBuilderCustomizer
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Import
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import java.time.Duration

/**
 * The whole gateway on a random port, reading its own `api-server.yml`; pair with a
 * data-server property source. Its WebTestClient sends real HTTP to the gateway's
 * Tomcat (Spring Boot's, bound to the random port), so requests carry the Host header
 * and pass through the container as k6's do.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = ["spring.config.name=${ApiServerApplication.CONFIG_NAME}"],
)
@Import(GatewayTestClient::class)
annotation class GatewayTest

/** Gives the server-bound WebTestClient room for the slowest hops (8 MiB, timeouts). */
@TestConfiguration(proxyBeanMethods = false)
class GatewayTestClient {
    @Bean
    fun slowResponsesAllowed() = WebTestClientBuilderCustomizer { it.responseTimeout(Duration.ofSeconds(60)) }
}

/** GETs [uri] and returns the status and the JSON body. */
fun WebTestClient.getJson(uri: String): Pair<Int, JsonNode> = exchangeJson(get().uri(uri))

fun WebTestClient.postJson(uri: String): Pair<Int, JsonNode> = exchangeJson(post().uri(uri))

/** POSTs [body] to [uri] as JSON: a String as is (raw text), anything else written by Jackson. */
fun WebTestClient.postJson(uri: String, body: Any): Pair<Int, JsonNode> {
    val bytes = if (body is String) body.toByteArray() else Json.newMapper().writeValueAsBytes(body)
    return exchangeJson(post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(bytes))
}

private fun exchangeJson(spec: WebTestClient.RequestHeadersSpec<*>): Pair<Int, JsonNode> {
    val result = spec.exchange().expectBody(JsonNode::class.java).returnResult()
    return result.status.value() to result.responseBody!!
}
