package io.protobench.driver

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

/** A part's output as a pod's log carries it: written, then read back from text with other lines around it. */
class PartOutputTest {
    private val plan = Plan("http://gateway:8080", listOf(CallTarget("/api/data/grpc?size=1kb", "payloadSize", 1024)), Load.closed(4), 1000)
    private val summary = Summary(
        warmUp = Counts(10, 0, 0), timed = Counts(100, 1, 2), timedMs = 1000, latency = null, byPlace = emptyMap(),
        connectionsOpened = 2, failures = mapOf("status 503, expected 200" to 1L),
        contextSwitches = 300, voluntaryContextSwitches = 280, nonvoluntaryContextSwitches = 20,
    )
    private val log = "#[Histogram log format version 1.3]\n" +
        "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n" +
        "1795936645.736,1.000,0.002,HISTFAAAAB942pNpmSzMwMDAzAABMJoRSjPZf4AwjjMyAQBEZANJ\n"

    @Test
    fun `a part's output reads back as written, whatever lines the pod's log has around and inside it`() {
        val first = PartOutput(Part(0, 2), plan, summary, log)
        val second = PartOutput(Part(1, 2), plan, summary.copy(timed = Counts(99, 0, 0)), log)
        val text = "Picked up JAVA_TOOL_OPTIONS: -Xmx256m\n" + first.render() + "some warning on stderr\n" +
            second.render().replace("1795936645.736", "WARNING: a line the runtime put in the middle\n1795936645.736")
        assertThat(PartOutput.parse(text)).containsExactly(first, second)
    }

    @Test
    fun `a record cut short keeps what it had, and a section that is not JSON is named`() {
        val cut = PartOutput(Part(0, 1), plan, summary, log).render().substringBefore("=== protobench part 0/1: histogram log")
        assertThat(PartOutput.parse(cut).single()).isEqualTo(PartOutput(Part(0, 1), plan, summary, null))
        assertThat(PartOutput.parse("no driver here\n")).isEmpty()
        val broken = PartOutput(Part(0, 1), plan, summary, log).render().replace("\"timedMs\":1000", "\"timedMs\":\"soon\"")
        assertThatThrownBy { PartOutput.parse(broken) }.isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("part 0/1: its summary is not the driver's JSON")
    }
}
