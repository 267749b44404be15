package io.protobench.bench.lab.clients

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.Json
import io.protobench.contract.members.MemberCounts
import io.protobench.contract.metrics.HeapCollected
import io.protobench.contract.metrics.ProcessSnapshot

/**
 * The runner's control calls to the data-server itself: for runs without a gateway
 * (`topology: direct`) health, its process counters, the data requests it has received
 * and the settings it runs with; for member creation the members table's counts.
 */
class DataServerClient(baseUrl: String) {
    private val http = ControlHttp(baseUrl)
    private val json = Json.newMapper()

    fun isHealthy(): Boolean = http.answers("/actuator/health")

    /** Cumulative CPU, allocation, GC, heap and JIT counters of the data-server's JVM now. */
    fun snapshot(): ProcessSnapshot =
        json.readValue(http.ok(http.get("/internal/metrics"), "GET /internal/metrics"), ProcessSnapshot::class.java)

    /** Starts a new peak-heap period (at the start of a trial). */
    fun resetPeakHeap() {
        http.ok(http.post("/internal/metrics/reset-peak"), "POST /internal/metrics/reset-peak")
    }

    /** `POST /internal/gc`: a full collection of the data-server's heap, and what it holds after it. */
    fun collectGarbage(): HeapCollected = json.readValue(http.ok(http.post("/internal/gc"), "POST /internal/gc"), HeapCollected::class.java)

    /** Data requests received since start, over every protocol. */
    fun served(): Long = json.readTree(http.ok(http.get("/internal/served"), "GET /internal/served")).path("requests").asLong()

    /** Rows and creations so far, and the database time since the previous call (which this call starts anew). */
    fun members(): MemberCounts = json.readValue(http.ok(http.get("/internal/members"), "GET /internal/members"), MemberCounts::class.java)

    /** Empties the members table; the counts after it (the database-time interval starts anew). */
    fun clearMembers(): MemberCounts =
        json.readValue(http.ok(http.delete("/internal/members"), "DELETE /internal/members"), MemberCounts::class.java)

    /** `protobench.data.*` as the server runs them. */
    fun settings(): JsonNode = json.readTree(http.ok(http.get("/internal/settings"), "GET /internal/settings"))
}
