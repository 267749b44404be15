package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import com.github.ajalt.clikt.parameters.types.int
import io.protobench.bench.network.LinkCheck
import io.protobench.bench.network.LinkSetupFailed
import io.protobench.bench.network.LinkSink
import io.protobench.bench.network.NetnsLink
import io.protobench.bench.network.NetworkCapabilities
import io.protobench.bench.network.RttCheck
import io.protobench.bench.network.ShapingPlan
import io.protobench.bench.scenario.InvalidProfile
import io.protobench.bench.scenario.NetworkProfile

/**
 * `protobench network`: what this machine offers for network profiles (seed project B),
 * found by trying it, and how each profile would be shaped here or what is missing.
 * Exit 2 for a profile that is not valid, or that this machine cannot apply.
 */
class NetworkCommand : CliktCommand(name = "network") {
    private val profile by option(
        "--profile",
        help = "One profile to check: ${NetworkProfile.BUILT_IN.joinToString(", ") { it.name }}, " +
            "or rtt=40ms,bandwidth=100mbit,loss=0.1%",
    )
    private val measure by option(
        "--measure",
        help = "Also apply each profile to a veth between namespaces (or, without CAP_NET_ADMIN, the delay relay on loopback) " +
            "and measure its round trip and bandwidth against the profile within 10%",
    ).flag()

    override fun help(context: Context) =
        "Show what this machine offers for network profiles (namespaces, veth, tc qdiscs, tried on a throw-away link) " +
            "and how each profile would be shaped"

    override fun run() {
        val asked = try {
            profile?.let(NetworkProfile::parse)
        } catch (e: InvalidProfile) {
            echo("protobench: ${e.message}", err = true)
            throw ProgramResult(2)
        }
        val caps = NetworkCapabilities.detect()
        echo("CAP_NET_ADMIN: ${if (caps.netAdmin) "yes" else "no"}")
        echo("tools: " + caps.tools.entries.joinToString(", ") { "${it.key} ${if (it.value) "found" else "missing"}" })
        echo("namespaces and veth: ${caps.namespaces ?: "work"}")
        caps.qdiscs.forEach { (kind, why) -> echo("qdisc $kind: ${why?.let { "no ($it)" } ?: "works"}") }
        echo("random drop (iptables statistic, for loss without netem): ${caps.randomDrop?.let { "no ($it)" } ?: "works"}")
        echo("")
        var blocked = false
        for (p in asked?.let(::listOf) ?: NetworkProfile.BUILT_IN) {
            val steps = ShapingPlan.of(p, caps)
            val missing = steps.filter { it.missing != null }
            echo("${p.name} (${p.describe}): ${if (missing.isEmpty()) "can be applied" else "cannot be applied here"}")
            steps.forEach { echo("  ${it.part}: ${it.mechanism ?: "missing — ${it.missing}"}") }
            blocked = blocked || missing.isNotEmpty()
            if (measure && missing.isEmpty()) blocked = !measured(p, caps) || blocked
        }
        echo("")
        echo(
            "A run takes a profile with `protobench run SCENARIO --network PROFILE`: " +
                "the data-server then runs in a namespace of its own behind the shaped link, measured like this before the run.",
        )
        if (asked != null && blocked) throw ProgramResult(2)
    }

    /**
     * Measures [p] on a veth between namespaces where this machine allows one, else its delay through the loopback relay;
     * true when it holds.
     */
    private fun measured(p: NetworkProfile, caps: NetworkCapabilities): Boolean {
        if (caps.namespaces == null) {
            NetnsLink.sweepStale()
            return try {
                val check = LinkCheck.measure(p, caps)
                echo("  measured on a veth between namespaces (${check.applied.joinToString("; ")}): ${check.describe()}")
                check.holds
            } catch (e: LinkSetupFailed) {
                echo("  could not be measured: ${e.message}")
                false
            }
        }
        if (p.rttMs <= 0 || caps.works("netem")) return true
        val check = RttCheck.throughRelay(p)
        echo(
            "  measured: RTT ${f(check.measuredMs)} ms through the relay on loopback " +
                "(loopback alone ${f(check.baselineMs)} ms; no namespaces here: ${caps.namespaces}), " +
                if (check.holds) {
                    "within ${pct(RttCheck.TOLERANCE)} of ${f(p.rttMs)} ms"
                } else {
                    "off by ${pct(check.offBy)} from ${f(p.rttMs)} ms: not applied as asked"
                },
        )
        return check.holds
    }

    private fun f(ms: Double) = "%.3f".format(ms)
    private fun pct(share: Double) = "%.0f%%".format(share * 100)
}

/**
 * `protobench link-sink`: the far end of a link under test ([LinkSink]), started by
 * `network --measure` inside the lab's namespace. Not for people: hidden from the help.
 */
class LinkSinkCommand : CliktCommand(name = "link-sink") {
    override val hiddenFromHelp = true
    private val bind by option("--bind").required()
    private val port by option("--port").int().default(7_000)
    private val parent by option("--parent-pid").int()

    override fun run() {
        LinkSink(java.net.InetAddress.getByName(bind), port)
        // The sink's threads are daemons: this thread keeps the process until it is stopped,
        // or until the run that started it is gone, however that run ended.
        while (parent?.let { ProcessHandle.of(it.toLong()).isPresent } != false) Thread.sleep(1_000)
    }
}
