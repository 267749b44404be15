package io.protobench.driver

import com.fasterxml.jackson.module.kotlin.readValue
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The summary's JSON is what the runner and older records read: its keys and their order stay put. */
class SummaryJsonTest {
    private val latency = Latency(1, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
    private val full = Summary(
        warmUp = Counts(1, 0, 0), timed = Counts(2, 0, 0), timedMs = 1000, latency = latency, byPlace = mapOf("warm" to latency),
        connectionsOpened = 1, failures = mapOf("status 503, expected 200" to 1L), histogramLog = "latency.hlog", maxLateMs = 0.5,
        cpuMs = 10.0, bySteps = mapOf("1" to latency), firstMessage = latency, lateArrivals = 1, sendDelay = latency,
        contextSwitches = 30, failureSamples = mapOf("status 503, expected 200" to "busy"),
        voluntaryContextSwitches = 25, nonvoluntaryContextSwitches = 5,
    )

    @Test
    fun `the keys come in the order they always had, the two kinds of context switch last`() {
        val keys = json.readTree(json.writeValueAsString(full)).fieldNames().asSequence().toList()
        assertThat(keys).containsExactly(
            "warmUp", "timed", "timedMs", "latency", "byPlace", "connectionsOpened", "failures", "histogramLog", "maxLateMs",
            "cpuMs", "bySteps", "firstMessage", "lateArrivals", "sendDelay", "contextSwitches", "failureSamples",
            "voluntaryContextSwitches", "nonvoluntaryContextSwitches",
        )
        assertThat(json.readValue<Summary>(json.writeValueAsString(full))).isEqualTo(full)
    }

    @Test
    fun `a summary written before the counts were apart reads back with them unknown, and writes as it was`() {
        val older = json.writeValueAsString(full.copy(voluntaryContextSwitches = null, nonvoluntaryContextSwitches = null))
        assertThat(older).doesNotContain("voluntary")
        val read = json.readValue<Summary>(older)
        assertThat(read.contextSwitches).isEqualTo(30)
        assertThat(read.voluntaryContextSwitches).isNull()
        assertThat(json.writeValueAsString(read)).isEqualTo(older)
    }
}
