package io.protobench.bench.network

import io.protobench.bench.scenario.NetworkProfile
import java.io.File
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** Runs a command and returns its exit code and output; a fake in tests. */
fun interface Shell {
    fun run(command: List<String>): Pair<Int, String>

    companion object {
        val SYSTEM = Shell { command ->
            runCatching {
                val process = ProcessBuilder(command).redirectErrorStream(true).start()
                val output = process.inputStream.bufferedReader().readText()
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly()
                    124 to "timed out: $output"
                } else {
                    process.exitValue() to output
                }
            }.getOrElse { 127 to (it.message ?: it.javaClass.simpleName) }
        }
    }
}

/**
 * What this machine offers for shaping a link between the load side and the data-server,
 * found by trying it: network namespaces and veth pairs with `ip`, and each queueing
 * discipline the shaping needs with `tc` on a throw-away veth in a throw-away namespace
 * (both removed again whatever happens). [qdiscs]: kind → null when it works, else the
 * kernel's or tool's own words.
 */
data class NetworkCapabilities(
    val netAdmin: Boolean,
    val tools: Map<String, Boolean>,
    val namespaces: String?,
    val qdiscs: Map<String, String?>,
    /**
     * Random packet drop by iptables' `statistic` match inside a namespace, the loss where
     * there is no netem: null when it works, else why not (iptables missing, or refused).
     */
    val randomDrop: String? = "not tried",
) {
    fun works(qdisc: String) = qdiscs.containsKey(qdisc) && qdiscs[qdisc] == null

    companion object {
        /** The disciplines a profile may need: netem (delay, loss, rate), tbf and htb (rate). */
        val PROBED = linkedMapOf(
            "netem" to listOf("netem", "delay", "1ms"),
            "tbf" to listOf("tbf", "rate", "100mbit", "burst", "32kbit", "latency", "50ms"),
            "htb" to listOf("htb", "default", "1"),
        )

        /** CAP_NET_ADMIN is bit 12 of the effective capability set. */
        private const val CAP_NET_ADMIN = 12

        fun netAdmin(proc: Path = Path.of("/proc/self/status")): Boolean = runCatching {
            val hex = Files.readAllLines(proc).first { it.startsWith("CapEff:") }.substringAfter(':').trim()
            (java.lang.Long.parseUnsignedLong(hex, 16) shr CAP_NET_ADMIN) and 1L == 1L
        }.getOrDefault(false)

        fun onPath(tool: String): Boolean = System.getenv("PATH").orEmpty().split(File.pathSeparator)
            .plus(listOf("/usr/sbin", "/sbin"))
            .any { Files.isExecutable(Path.of(it, tool)) }

        /** Tries everything on this machine; [suffix] keeps two probes at once apart. */
        fun detect(
            shell: Shell = Shell.SYSTEM,
            netAdmin: Boolean = netAdmin(),
            onPath: (String) -> Boolean = ::onPath,
            suffix: String = (ProcessHandle.current().pid() % 100_000).toString(),
        ): NetworkCapabilities {
            val tools = listOf("ip", "tc").associateWith(onPath)
            if (!netAdmin || tools.values.any { !it }) {
                val why = if (!netAdmin) {
                    "needs CAP_NET_ADMIN (run as root or grant it)"
                } else {
                    "needs ${tools.filterValues { !it }.keys.joinToString(" and ")} (apt-get install iproute2)"
                }
                return NetworkCapabilities(netAdmin, tools, why, PROBED.keys.associateWith { why })
            }
            val namespace = "protobench-probe-$suffix"
            val near = "pbp$suffix"
            val far = "pbq$suffix"
            fun sh(vararg command: String) = shell.run(command.toList())
            try {
                val steps = listOf(
                    listOf("ip", "netns", "add", namespace),
                    listOf("ip", "link", "add", near, "type", "veth", "peer", "name", far),
                    listOf("ip", "link", "set", far, "netns", namespace),
                    listOf("ip", "link", "set", near, "up"),
                    // Runs start the far side's processes with `ip netns exec`, which some containers refuse.
                    listOf("ip", "netns", "exec", namespace, "ip", "link", "set", "lo", "up"),
                )
                for (step in steps) {
                    val (code, output) = shell.run(step)
                    if (code != 0) {
                        val why = "`${step.joinToString(" ")}` failed: ${output.trim()}"
                        return NetworkCapabilities(true, tools, why, PROBED.keys.associateWith { why })
                    }
                }
                val qdiscs = PROBED.mapValues { (_, args) ->
                    val (code, output) = shell.run(listOf("tc", "qdisc", "add", "dev", near, "root") + args)
                    if (code == 0) {
                        sh("tc", "qdisc", "del", "dev", near, "root")
                        null
                    } else {
                        output.trim().ifEmpty { "tc exited with $code" }
                    }
                }
                val drop = if (!onPath("iptables")) {
                    "iptables is not installed (apt-get install iptables)"
                } else {
                    val (code, output) = shell.run(listOf("ip", "netns", "exec", namespace) + NetnsLink.randomDropRule("INPUT", 0.5))
                    if (code == 0) null else "iptables refused a random drop rule: ${output.trim().ifEmpty { "exit $code" }}"
                }
                return NetworkCapabilities(true, tools, null, qdiscs, drop)
            } finally {
                sh("ip", "link", "del", near)
                sh("ip", "netns", "del", namespace)
            }
        }
    }
}

/** How one part of a profile would be applied on this machine, or why it cannot be. */
data class ShapingStep(val part: String, val mechanism: String?, val missing: String?)

/**
 * Which mechanism this machine offers for each part of a profile: netem for delay and loss
 * (and rate) where the kernel has it; tbf, else htb, for bandwidth. Without netem, delay
 * goes through the user-space relay ([DelayProxy]); loss has no mechanism then, so such a
 * profile cannot be applied here, and the step says exactly what is missing.
 */
object ShapingPlan {
    fun of(profile: NetworkProfile, caps: NetworkCapabilities): List<ShapingStep> {
        val noNetem = "the kernel has no netem qdisc (${caps.qdiscs["netem"]}), and a user-space relay cannot drop packets under TCP"
        val steps = mutableListOf<ShapingStep>()
        if (profile.rttMs > 0) {
            val each = NetworkProfile.number(profile.rttMs / 2)
            steps += if (caps.works("netem")) {
                ShapingStep("delay", "netem delay $each ms on each side of the veth", null)
            } else {
                ShapingStep("delay", "user-space relay, $each ms each way (no netem here)", null)
            }
        }
        profile.bandwidthMbit?.let { rate ->
            val kind = listOf("tbf", "htb", "netem").firstOrNull(caps::works)
            steps += if (kind != null) {
                ShapingStep("bandwidth", "$kind rate ${NetworkProfile.number(rate)} mbit/s", null)
            } else {
                ShapingStep(
                    "bandwidth",
                    null,
                    "none of tbf, htb or netem works here: " + caps.qdiscs.entries.joinToString("; ") { "${it.key}: ${it.value}" },
                )
            }
        }
        if (profile.lossPercent > 0) {
            val loss = NetworkProfile.number(profile.lossPercent)
            steps += when {
                caps.works("netem") -> ShapingStep("loss", "netem loss $loss%", null)

                caps.randomDrop == null ->
                    ShapingStep("loss", "${NetnsLink.randomDropDescription(profile.lossPercent)} (no netem here)", null)

                else -> ShapingStep("loss", null, "$noNetem; and iptables cannot drop instead: ${caps.randomDrop}")
            }
        }
        return steps
    }
}
