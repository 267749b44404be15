package io.protobench.bench.lab.clients

import java.net.URI
import java.net.URLEncoder
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/** The runner's control calls to one of its servers: short GETs, POSTs and DELETEs on loopback, a 200 expected. */
class ControlHttp(private val baseUrl: String) {
    private val http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()

    fun get(path: String): HttpResponse<String> =
        send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10)).GET().build())

    fun post(path: String): HttpResponse<String> = send(
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.noBody()).build(),
    )

    fun delete(path: String): HttpResponse<String> =
        send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30)).DELETE().build())

    /** The body of a 200 answer to [call]; anything else is an error naming the call and the status. */
    fun ok(response: HttpResponse<String>, call: String): String {
        if (response.statusCode() !in 200..299) {
            throw IllegalStateException(
                "$call answered ${response.statusCode()}: ${response.body().take(300)}",
            )
        }
        return response.body()
    }

    fun answers(path: String): Boolean = runCatching { get(path).statusCode() == 200 }.getOrDefault(false)

    private fun send(request: HttpRequest): HttpResponse<String> = http.send(request, HttpResponse.BodyHandlers.ofString())

    companion object {
        fun encode(text: String): String = URLEncoder.encode(text, Charsets.UTF_8)
    }
}
