package io.protobench.bench.network

import io.protobench.bench.scenario.NetworkProfile
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Test

class NetworkTest {
    @Test
    fun `built-in profiles by name, others from their fields`() {
        assertThat(NetworkProfile.parse("WAN")).isEqualTo(NetworkProfile("wan", 40.0, 100.0, 0.1))
        val own = NetworkProfile.parse("rtt=0.5ms, bandwidth=10gbit, loss=1%")
        assertThat(own.rttMs).isEqualTo(0.5)
        assertThat(own.bandwidthMbit).isEqualTo(10_000.0)
        assertThat(own.lossPercent).isEqualTo(1.0)
        assertThat(NetworkProfile.parse("rtt=1s").let { it.rttMs to it.bandwidthMbit }).isEqualTo(1000.0 to null)
        assertThat(NetworkProfile.parse("mobile").describe).isEqualTo("RTT 80 ms, 10 Mbit/s, 1% loss")
    }

    @Test
    fun `a wrong profile is named with what is accepted`() {
        assertThatThrownBy { NetworkProfile.parse("moon") }.hasMessageContaining("unknown network profile 'moon'")
            .hasMessageContaining("lan, dc, region, wan, mobile")
        assertThatThrownBy { NetworkProfile.parse("rtt=40") }.hasMessageContaining("rtt '40'").hasMessageContaining("40ms")
        assertThatThrownBy { NetworkProfile.parse("rtt=40ms,loss=0.1") }.hasMessageContaining("loss '0.1'")
        assertThatThrownBy { NetworkProfile.parse("rtt=40ms,loss=80%") }.hasMessageContaining("0% to 50%")
        assertThatThrownBy { NetworkProfile.parse("rtt=40ms,jitter=2ms") }.hasMessageContaining("jitter")
        assertThatThrownBy { NetworkProfile.parse("bandwidth=1gbit") }.hasMessageContaining("needs rtt")
        assertThatThrownBy { NetworkProfile.parse("rtt=1ms,rtt=2ms") }.hasMessageContaining("given twice: rtt")
        assertThatThrownBy { NetworkProfile.parse("rtt=1ms,bandwidth=0mbit") }.hasMessageContaining("above 0")
    }

    @Test
    fun `detection tries each discipline on a throw-away link and removes it again`() {
        val shell = FakeShell()
        val caps = NetworkCapabilities.detect(shell, netAdmin = true, onPath = { true }, suffix = "7")
        assertThat(caps.works("tbf")).isTrue()
        assertThat(caps.works("htb")).isTrue()
        assertThat(caps.works("netem")).isFalse()
        assertThat(caps.qdiscs["netem"]).contains("unknown")
        assertThat(shell.commands.first()).containsExactly("ip", "netns", "add", "protobench-probe-7")
        assertThat(shell.commands.takeLast(2)).containsExactly(
            listOf("ip", "link", "del", "pbp7"),
            listOf("ip", "netns", "del", "protobench-probe-7"),
        )
    }

    @Test
    fun `a step that fails is reported in the tool words and the link and namespace are still removed`() {
        val shell = FakeShell(
            failing = { if (it.take(3) == listOf("ip", "link", "add")) "RTNETLINK answers: Operation not supported" else null },
        )
        val caps = NetworkCapabilities.detect(shell, netAdmin = true, onPath = { true }, suffix = "8")
        assertThat(caps.namespaces).contains("Operation not supported")
        assertThat(caps.qdiscs.values).allSatisfy { assertThat(it).isNotNull() }
        assertThat(shell.commands.takeLast(2)).containsExactly(
            listOf("ip", "link", "del", "pbp8"),
            listOf("ip", "netns", "del", "protobench-probe-8"),
        )
    }

    @Test
    fun `a machine where processes cannot be started inside a namespace has no namespaces for the lab`() {
        val shell = FakeShell(
            failing = { if (it.take(3) == listOf("ip", "netns", "exec")) "mount of /sys failed: Operation not permitted" else null },
        )
        val caps = NetworkCapabilities.detect(shell, netAdmin = true, onPath = { true }, suffix = "9")
        assertThat(caps.namespaces).contains("ip netns exec").contains("mount of /sys failed")
        assertThat(shell.commands.takeLast(2)).containsExactly(
            listOf("ip", "link", "del", "pbp9"),
            listOf("ip", "netns", "del", "protobench-probe-9"),
        )
    }

    @Test
    fun `without CAP_NET_ADMIN or iproute2 nothing is tried and the reason is given`() {
        val shell = FakeShell()
        assertThat(NetworkCapabilities.detect(shell, netAdmin = false, onPath = { true }).namespaces).contains("CAP_NET_ADMIN")
        assertThat(NetworkCapabilities.detect(shell, netAdmin = true, onPath = { it != "tc" }).namespaces)
            .contains("tc").contains("iproute2")
        assertThat(shell.commands).isEmpty()
    }

    @Test
    fun `without netem delay goes through the user-space relay, loss cannot be applied and says why, bandwidth goes through tbf`() {
        val caps = NetworkCapabilities(
            true,
            mapOf("ip" to true, "tc" to true),
            null,
            mapOf("netem" to "Error: Specified qdisc kind is unknown.", "tbf" to null, "htb" to null),
        )
        val wan = ShapingPlan.of(NetworkProfile.parse("wan"), caps).associateBy { it.part }
        assertThat(wan.getValue("delay").mechanism).isEqualTo("user-space relay, 20 ms each way (no netem here)")
        assertThat(wan.getValue("delay").missing).isNull()
        assertThat(wan.getValue("loss").missing).contains("no netem")
        assertThat(wan.getValue("bandwidth").mechanism).startsWith("tbf")
        val withNetem = caps.copy(qdiscs = caps.qdiscs + ("netem" to null))
        assertThat(ShapingPlan.of(NetworkProfile.parse("wan"), withNetem)).allSatisfy { assertThat(it.missing).isNull() }
    }

    @Test
    fun `on this machine detection leaves no namespace or link behind`() {
        assumeTrue(
            NetworkCapabilities.netAdmin() && NetworkCapabilities.onPath("ip") && NetworkCapabilities.onPath("tc"),
            "needs CAP_NET_ADMIN and iproute2",
        )
        val caps = NetworkCapabilities.detect(suffix = "t${ProcessHandle.current().pid() % 1000}")
        assertThat(caps.qdiscs.keys).containsExactly("netem", "tbf", "htb")
        val (_, namespaces) = Shell.SYSTEM.run(listOf("ip", "netns", "list"))
        val (_, links) = Shell.SYSTEM.run(listOf("ip", "-o", "link", "show"))
        assertThat(namespaces).doesNotContain("protobench-probe-t")
        assertThat(links).doesNotContain("pbpt")
    }
}
