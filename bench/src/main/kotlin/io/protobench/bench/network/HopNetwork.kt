package io.protobench.bench.network

import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.network.LinkCheck
import io.protobench.bench.network.LinkNotApplicable
import io.protobench.bench.network.LinkSetupFailed
import io.protobench.bench.network.NetnsLink
import io.protobench.bench.network.NetworkCapabilities
import io.protobench.bench.network.Shaped
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.text.Texts
import java.net.InetSocketAddress

/** What a server launch needs of a shaped link. [HopNetwork] is the real one; tests fake it. */
interface HopLink : AutoCloseable {
    /** The data-server's [command] inside the link's far end, listening there for both protocols. */
    fun dataServer(command: List<String>): List<String>

    /**
     * Where the gateway (or the load driver, in direct runs) reaches the data-server's [port],
     * and what serves that route and closes with the fork's servers.
     */
    fun route(port: Int): Pair<InetSocketAddress, AutoCloseable?>

    /** run.json's account of the link: the profile, how it was applied, and what was measured. */
    val record: LinkRecord

    /** The link's round trip as measured before the run, in ms: what every request across it waits at least. */
    val roundTripMs: Double
}

/**
 * The network the hop crosses when a run (or a variant) names a profile: the data-server in the lab's
 * own namespace behind a veth shaped to the profile (tbf for bandwidth; the delay by netem
 * where the kernel has it, else by a user-space relay in this process), verified before
 * any server starts. One link per profile for the whole run ([HopNetworks]); each fork's servers
 * get their own relays.
 *
 * What this costs, stated in the report: the relay's threads run in the bench process, so
 * their CPU is not in the servers' CPU per request, but they share the machine's cores.
 */
class HopNetwork private constructor(
    private val link: NetnsLink,
    private val shaped: Shaped,
    /** What was applied and measured before the run, for run.json. */
    val check: LinkCheck,
) : HopLink {
    /**
     * The data-server's [command] inside the namespace, listening on the far address for both
     * protocols; its internal endpoints answer to that address too, since without a relay the
     * gateway reads the data-server's figures (`/internal/metrics`) by it.
     */
    override fun dataServer(command: List<String>): List<String> = link.inside(command) + listOf(
        "--server.address=${link.farAddress}",
        "--protobench.data.grpc.address=${link.farAddress}",
        "--protobench.internal-hosts=${link.farAddress}",
    )

    /**
     * Where the gateway (or the load driver, in direct runs) reaches the data-server's [port]: the far address itself, or a
     * relay in front of it (returned to be closed with the fork's servers).
     */
    override fun route(port: Int): Pair<InetSocketAddress, AutoCloseable?> {
        val far = InetSocketAddress(link.farAddress, port)
        val relay = shaped.relayFor(far) ?: return far to null
        return relay.address to relay
    }

    override val record: LinkRecord
        get() = LinkRecord(
            profile = check.profile.name,
            asked = check.profile.describe,
            applied = check.applied,
            measuredRttMs = check.rtt?.measuredMs,
            relayOneWayMs = check.relayOneWayMs,
            measuredBandwidthMbit = check.bandwidthMbit,
            measuredAnswerMs = check.answerMs,
            answerAtRateMs = check.answerAtRateMs,
            holds = check.holds,
            relayCpu = if (shaped.relays) "the delay relay runs in the bench process: its CPU is not in the servers' figures" else null,
        )

    override val roundTripMs: Double get() = check.rtt?.measuredMs ?: 0.0

    override fun close() = link.close()

    companion object {
        /**
         * Builds, shapes and verifies the link for [profile]. Throws [LinkSetupFailed] when this
         * machine cannot apply it (naming what is missing) or when the measured link is not
         * within 10% of the profile (giving the measured figures); the link is removed then.
         */
        fun open(
            profile: NetworkProfile,
            caps: NetworkCapabilities = NetworkCapabilities.detect(),
            progress: (String) -> Unit,
        ): HopNetwork {
            caps.namespaces?.let {
                throw LinkNotApplicable(
                    "network ${profile.name} needs the data-server in a namespace of its own, which this machine does not allow: $it",
                )
            }
            LinkCheck.refuseMissing(profile, caps)
            NetnsLink.sweepStale().forEach { progress("removed the namespace $it of a run that is gone") }
            val link = NetnsLink.open()
            try {
                val (shaped, check) = LinkCheck.verify(profile, link, Shaped.apply(profile, caps, link))
                progress("network ${profile.name}: ${check.applied.joinToString("; ")}; measured ${check.describe()}")
                if (!check.holds) throw LinkSetupFailed(Texts.EN("rejected.network", profile.name, check.describe()))
                return HopNetwork(link, shaped, check)
            } catch (e: Exception) {
                link.close()
                throw e
            }
        }
    }
}
