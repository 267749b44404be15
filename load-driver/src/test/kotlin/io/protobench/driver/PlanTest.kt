package io.protobench.driver

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class PlanTest {
    private val target = CallTarget("/api/data/none?size=1kb", "payloadSize", 1024)

    @Test
    fun `a plan that can run has no problems`() {
        assertThat(Plan("http://127.0.0.1:8080", listOf(target), Load.open(100.0, 2, 8), 1000).problems()).isEmpty()
        assertThat(Plan("http://127.0.0.1:8080", listOf(target), Load.closed(4), 1000).problems()).isEmpty()
    }

    @Test
    fun `a checked load reads as typed arrivals, and one with problems refuses to with them`() {
        assertThat(Load.open(100.0, 2, 8).arrivals).isEqualTo(Arrivals.Open(100.0, 2, 8))
        assertThat(Load(Load.OPEN, rate = 50.0, maxConnections = 4).arrivals).isEqualTo(Arrivals.Open(50.0, 1, 4))
        assertThat(Load.closed(4).arrivals).isEqualTo(Arrivals.Closed(4))
        assertThat(Load.closed(4).arrivals.let { it.startConnections to it.maxConnections }).isEqualTo(4 to 4)
        assertThatThrownBy { Load("poisson").arrivals }.hasMessage("load model 'poisson' is not 'open' or 'closed'")
    }

    @Test
    fun `every problem is said at once, with what is accepted`() {
        val plan = Plan(
            "127.0.0.1:8080",
            listOf(CallTarget("api", "x", 1, method = "PUT")),
            Load(Load.OPEN, rate = 0.0, maxConnections = 0),
            0,
            client = "curl",
        )
        assertThat(plan.problems()).containsExactlyInAnyOrder(
            "baseUrl '127.0.0.1:8080' is not http://host:port",
            "target 1: path 'api' must start with /",
            "an open load needs a rate above 0 and at most 50000.0 per second, not 0.0",
            "an open load needs maxConnections of 1 or more",
            "connections must be 1..maxConnections",
            "durationMs must be above 0, not 0",
            "client 'curl' is not one of [netty, reactor-netty]",
        )
        assertThat(Load("poisson").problems()).containsExactly("load model 'poisson' is not 'open' or 'closed'")
        assertThat(Load.closed(0).problems()).containsExactly("a closed load needs 1..10000 users, not 0")
        assertThat(CallTarget("/x", method = "POST", value = 1).problem()).isEqualTo("a POST needs a body file")
    }

    @Test
    fun `a target that accepts no connection is refused before any call`() {
        val closedPort = java.net.ServerSocket(0).use { it.localPort }
        val plan = Plan("http://127.0.0.1:$closedPort", listOf(target), Load.closed(1), 1000)
        assertThatThrownBy { checked(plan) }
            .isInstanceOf(PlanRefused::class.java).hasMessageContaining("cannot reach 127.0.0.1:$closedPort")
    }
}
