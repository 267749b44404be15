package io.protobench.bench.network

import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.network.LinkNotApplicable
import io.protobench.bench.network.LinkSetupFailed
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.Variant
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatCode
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import java.net.InetSocketAddress

/** Which link each pair's data-server sits behind, and what happens to a profile that does not hold. */
class HopNetworksTest {
    private class FakeLink(val profile: String) : HopLink {
        var closed = false
        override fun dataServer(command: List<String>) = listOf("in-$profile") + command
        override fun route(port: Int): Pair<InetSocketAddress, AutoCloseable?> = InetSocketAddress("10.0.0.2", port) to null
        override val record get() = LinkRecord(profile)
        override val roundTripMs = 0.0
        override fun close() {
            closed = true
        }
    }

    private val opened = mutableListOf<FakeLink>()

    /** Opens every profile except those in [failing], which fail as an unmet profile does. */
    private fun opener(vararg failing: String): (NetworkProfile) -> HopLink = { profile ->
        if (profile.name in failing) throw LinkSetupFailed("network ${profile.name} is not applied as asked on this machine: RTT 0.56 ms")
        FakeLink(profile.name).also { opened += it }
    }

    private val near = Variant("near")
    private val region = Variant("region", network = "region")
    private val wan = Variant("wan", network = "wan")
    private val wanToo = Variant("wan-gzip", dataServer = mapOf("protobench.data.compression" to "gzip"), network = "wan")

    @Test
    fun `each profile gets one link, and a variant without one crosses the run's link or loopback`() {
        val networks = HopNetworks.open(listOf(near, region, wan, wanToo), null, {}, opener())
        assertThat(opened.map { it.profile }).containsExactly("region", "wan")
        assertThat(networks.forVariant(near)).isNull()
        assertThat(networks.forVariant(null)).isNull()
        assertThat((networks.forVariant(wan) as FakeLink).profile).isEqualTo("wan")
        assertThat(networks.forVariant(wanToo)).isSameAs(networks.forVariant(wan))
        assertThat(networks.runRecord()).isNull()
        assertThat(networks.variantRecords(listOf(near, region, wan)).keys).containsExactly("region", "wan")

        val withRun = HopNetworks.open(listOf(near, wan), NetworkProfile.parse("dc"), {}, opener())
        assertThat((withRun.forVariant(near) as FakeLink).profile).isEqualTo("dc")
        assertThat(withRun.runRecord()?.profile).isEqualTo("dc")
        assertThat(withRun.variantRecords(listOf(near, wan)).keys).containsExactly("wan")
        withRun.close()
        networks.close()
        assertThat(opened).allSatisfy { assertThat(it.closed).isTrue() }
    }

    @Test
    fun `a profile that does not hold rejects its variants with the measured figures, the others go on`() {
        val said = mutableListOf<String>()
        val lan = Variant("lan", network = "lan")
        val networks = HopNetworks.open(listOf(lan, region), null, { said += it }, opener("lan"))
        assertThatThrownBy { networks.forVariant(lan) }.isInstanceOf(ServerSettingRejected::class.java).hasMessageContaining("RTT 0.56 ms")
        assertThat(networks.forVariant(region)).isNotNull()
        assertThat(said.single()).contains("lan will be rejected", "RTT 0.56 ms")
        val record = networks.variantRecords(listOf(lan, region)).getValue("lan")
        assertThat(record.profile).isEqualTo("lan")
        assertThat(record.refused).contains("RTT 0.56 ms")
    }

    @Test
    fun `a profile this machine has no mechanism for stops the run before it starts, naming what is missing and the variants it would cost`() {
        val said = mutableListOf<String>()
        val noDrop: (NetworkProfile) -> HopLink = { profile ->
            if (profile.name == "wan") {
                throw LinkNotApplicable(
                    "wan: loss cannot be applied here: iptables is not installed (apt-get install iptables)",
                )
            }
            FakeLink(profile.name).also { opened += it }
        }
        assertThatThrownBy { HopNetworks.open(listOf(region, wan, wanToo), null, { said += it }, noDrop) }
            .isInstanceOf(LinkNotApplicable::class.java)
            .hasMessageContaining("apt-get install iptables")
            .hasMessageContaining("network wan (variant(s) wan, wan-gzip)")
            .hasMessageContaining("stops before it starts")
        // The link already built for region is removed, and no variant was announced as rejected.
        assertThat(opened.single().profile).isEqualTo("region")
        assertThat(opened.single().closed).isTrue()
        assertThat(said).isEmpty()
    }

    @Test
    fun `when no variant would be left, or the run's own link fails, the run stops and nothing stays open`() {
        assertThatThrownBy { HopNetworks.open(listOf(region, wan), null, {}, opener("wan", "region")) }
            .isInstanceOf(LinkSetupFailed::class.java).hasMessageContaining("no variant's network").hasMessageContaining("RTT 0.56 ms")
        assertThatThrownBy { HopNetworks.open(listOf(region), NetworkProfile.parse("dc"), {}, opener("region")) }
            .isInstanceOf(LinkSetupFailed::class.java)
        assertThat(opened.single().profile).isEqualTo("dc")
        assertThat(opened.single().closed).isTrue()
        assertThatThrownBy { HopNetworks.open(listOf(region), NetworkProfile.parse("lan"), {}, opener("lan")) }
            .isInstanceOf(LinkSetupFailed::class.java)
        assertThat(opened).hasSize(1)
        // A variant without a profile of its own is still left to measure on loopback.
        assertThatCode { HopNetworks.open(listOf(near, region), null, {}, opener("region")) }.doesNotThrowAnyException()
    }
}
