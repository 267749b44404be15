package io.protobench.bench.lab.clients

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.lab.clients.ControlHttp.Companion.encode
import io.protobench.contract.Json
import io.protobench.contract.metrics.HeapsCollected
import io.protobench.contract.window.WindowReport

/** The runner's control calls to the gateway: health, measurement window, level shapes. */
class GatewayClient(baseUrl: String) {
    private val http = ControlHttp(baseUrl)
    private val json = Json.newMapper()

    fun isHealthy(): Boolean = http.answers("/api/health")

    /**
     * Opens a window. [replace]: take over a window left open (by a trial that failed
     * before closing it); the runner owns the servers it started, so it may.
     */
    fun startWindow(protocol: String, testName: String, replace: Boolean = true) {
        val query = "protocol=${encode(protocol)}&testName=${encode(testName)}" + if (replace) "&replace=true" else ""
        http.ok(http.post("/benchmark/start?$query"), "POST /benchmark/start")
    }

    /** Closes the window: the answer typed as the contract defines it. */
    fun endWindow(): WindowReport {
        val body = http.ok(http.post("/benchmark/end"), "POST /benchmark/end")
        return try {
            json.readValue(body, WindowReport::class.java)
        } catch (e: com.fasterxml.jackson.core.JacksonException) {
            throw IllegalStateException("POST /benchmark/end answered what is not a window report: ${e.originalMessage}")
        }
    }

    /** `POST /benchmark/gc`: a full collection in both servers, and what each heap holds after it. */
    fun collectGarbage(): HeapsCollected =
        json.readValue(http.ok(http.post("/benchmark/gc"), "POST /benchmark/gc"), HeapsCollected::class.java)

    /** `GET /api/complexities`: the measured shape of every level. */
    fun complexities(): JsonNode = json.readTree(http.ok(http.get("/api/complexities"), "GET /api/complexities"))
}
