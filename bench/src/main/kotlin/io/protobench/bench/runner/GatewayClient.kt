package io.protobench.bench.runner

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.Json
import io.protobench.contract.window.WindowReport
import java.net.URI
import java.net.URLEncoder
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/** The runner's control calls to the gateway: health, measurement window, level shapes. */
class GatewayClient(private val baseUrl: String) {
    private val http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()
    private val json = Json.newMapper()

    fun isHealthy(): Boolean = runCatching { send(get("/api/health")).statusCode() == 200 }.getOrDefault(false)

    /**
     * Opens a window. [replace]: take over a window left open (by a trial that failed
     * before closing it); the runner owns the servers it started, so it may.
     */
    fun startWindow(protocol: String, testName: String, replace: Boolean = true) {
        val query = "protocol=${encode(protocol)}&testName=${encode(testName)}" + if (replace) "&replace=true" else ""
        expectOk(send(post("/benchmark/start?$query")), "POST /benchmark/start")
    }

    /** Closes the window: the answer typed as the contract defines it. */
    fun endWindow(): WindowReport {
        val response = send(post("/benchmark/end"))
        expectOk(response, "POST /benchmark/end")
        return try {
            json.readValue(response.body(), WindowReport::class.java)
        } catch (e: com.fasterxml.jackson.core.JacksonException) {
            throw IllegalStateException("POST /benchmark/end answered what is not a window report: ${e.originalMessage}")
        }
    }

    /** `GET /api/complexities`: the measured shape of every level. */
    fun complexities(): JsonNode {
        val response = send(get("/api/complexities"))
        expectOk(response, "GET /api/complexities")
        return json.readTree(response.body())
    }

    private fun get(path: String) = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10)).GET().build()
    private fun post(path: String) = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.noBody()).build()

    private fun send(request: HttpRequest): HttpResponse<String> = http.send(request, HttpResponse.BodyHandlers.ofString())

    private fun expectOk(response: HttpResponse<String>, call: String) {
        if (response.statusCode() != 200) throw IllegalStateException("$call answered ${response.statusCode()}: ${response.body().take(300)}")
    }

    private fun encode(text: String) = URLEncoder.encode(text, Charsets.UTF_8)
}
