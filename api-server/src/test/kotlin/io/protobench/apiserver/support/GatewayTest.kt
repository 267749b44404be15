package io.protobench.apiserver.support

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.apiserver.ApiServerApplication
import org.springframework.boot.test.autoconfigure.web.reactive.AutoConfigureWebTestClient
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment
import org.springframework.test.web.reactive.server.WebTestClient

/** The whole gateway on a random port, reading its own `api-server.yml`; pair with a data-server property source. */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@SpringBootTest(
    webEnvironment = WebEnvironment.RANDOM_PORT,
    properties = ["spring.config.name=${ApiServerApplication.CONFIG_NAME}"],
)
@AutoConfigureWebTestClient(timeout = "60s")
annotation class GatewayTest

/** GETs [uri] and returns the status and the JSON body. */
fun WebTestClient.getJson(uri: String): Pair<Int, JsonNode> = exchangeJson(get().uri(uri))

fun WebTestClient.postJson(uri: String): Pair<Int, JsonNode> = exchangeJson(post().uri(uri))

private fun exchangeJson(spec: WebTestClient.RequestHeadersSpec<*>): Pair<Int, JsonNode> {
    val result = spec.exchange().expectBody(JsonNode::class.java).returnResult()
    return result.status.value() to result.responseBody!!
}
