package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import io.protobench.bench.network.InvalidProfile
import io.protobench.bench.network.NetworkCapabilities
import io.protobench.bench.network.NetworkProfile
import io.protobench.bench.network.RttCheck
import io.protobench.bench.network.ShapingPlan

/**
 * `protobench network`: what this machine offers for network profiles (seed project B),
 * found by trying it, and how each profile would be shaped here or what is missing.
 * Exit 2 for a profile that is not valid, or that this machine cannot apply.
 */
class NetworkCommand : CliktCommand(name = "network") {
    private val profile by option("--profile", help = "One profile to check: ${NetworkProfile.BUILT_IN.joinToString(", ") { it.name }}, or rtt=40ms,bandwidth=100mbit,loss=0.1%")
    private val measure by option("--measure", help = "Also measure each profile's round trip through the user-space delay relay on loopback (where there is no netem), against the profile within 10%").flag()

    override fun help(context: Context) =
        "Show what this machine offers for network profiles (namespaces, veth, tc qdiscs, tried on a throw-away link) and how each profile would be shaped"

    override fun run() {
        val asked = try { profile?.let(NetworkProfile::parse) } catch (e: InvalidProfile) {
            echo("protobench: ${e.message}", err = true)
            throw ProgramResult(2)
        }
        val caps = NetworkCapabilities.detect()
        echo("CAP_NET_ADMIN: ${if (caps.netAdmin) "yes" else "no"}")
        echo("tools: " + caps.tools.entries.joinToString(", ") { "${it.key} ${if (it.value) "found" else "missing"}" })
        echo("namespaces and veth: ${caps.namespaces ?: "work"}")
        caps.qdiscs.forEach { (kind, why) -> echo("qdisc $kind: ${why?.let { "no ($it)" } ?: "works"}") }
        echo("")
        var blocked = false
        for (p in asked?.let(::listOf) ?: NetworkProfile.BUILT_IN) {
            val steps = ShapingPlan.of(p, caps)
            val missing = steps.filter { it.missing != null }
            echo("${p.name} (${p.describe}): ${if (missing.isEmpty()) "can be applied" else "cannot be applied here"}")
            steps.forEach { echo("  ${it.part}: ${it.mechanism ?: "missing — ${it.missing}"}") }
            blocked = blocked || missing.isNotEmpty()
            if (measure && p.rttMs > 0 && !caps.works("netem")) {
                val check = RttCheck.throughRelay(p)
                echo("  measured: RTT ${f(check.measuredMs)} ms through the relay (loopback alone ${f(check.baselineMs)} ms), " +
                    if (check.holds) "within ${pct(RttCheck.TOLERANCE)} of ${f(p.rttMs)} ms" else "off by ${pct(check.offBy)} from ${f(p.rttMs)} ms: not applied as asked")
                blocked = blocked || !check.holds
            }
        }
        echo("")
        echo("Runs do not shape the network yet (topologies and profiles in scenarios are roadmap item 4); this shows what this machine would allow." +
            if (measure) " Bandwidth is not measured here: a loopback relay does not limit it; tbf on a veth between namespaces will." else "")
        if (asked != null && blocked) throw ProgramResult(2)
    }

    private fun f(ms: Double) = "%.3f".format(ms)
    private fun pct(share: Double) = "%.0f%%".format(share * 100)
}
