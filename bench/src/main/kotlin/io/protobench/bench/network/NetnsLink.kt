package io.protobench.bench.network

import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.text.Texts

/**
 * A real link for the hop: a network namespace of its own for the far side (the
 * data-server, or a [LinkSink] that measures the link), joined to this namespace by a
 * veth pair, so bytes cross a device that tc can shape instead of loopback.
 *
 * Addresses are a /30 of 10.201.0.0/16 picked from the pid and a serial, so two runs at
 * once do not share one. Everything is removed by [close] (the far end of the veth goes with the near
 * one); [sweepStale] removes what a run that was killed left behind.
 */
class NetnsLink private constructor(
    val namespace: String,
    val nearDevice: String,
    val farDevice: String,
    val nearAddress: String,
    val farAddress: String,
    private val shell: Shell,
) : AutoCloseable {
    /** How each direction is limited, once [limitBandwidth] ran: e.g. "tbf rate 100 mbit/s on both ends". */
    var shaping: String? = null
        private set

    /** [command] run inside the far namespace (`ip netns exec` replaces itself, so the pid is the command's). */
    fun inside(command: List<String>): List<String> = listOf("ip", "netns", "exec", namespace) + command

    /**
     * Limits both directions to [mbit] with [kind] (tbf or htb) on the egress of each end,
     * with a bucket of [bucketBytes]; under tbf, offload packets fit in it ([fitOffloadInBucket]).
     */
    fun limitBandwidth(mbit: Double, kind: String) {
        val rate = "${NetworkProfile.number(mbit)}mbit"
        val burstBytes = bucketBytes(mbit)
        val (qdisc, offload) = when (kind) {
            "tbf" -> {
                fitOffloadInBucket(burstBytes)
                listOf("tbf", "rate", rate, "burst", burstBytes.toString(), "latency", "50ms") to
                    Texts.EN("link.offload", offloadBytes(burstBytes) / 1024)
            }

            "htb" -> listOf("htb", "default", "1") to ""

            else -> throw IllegalArgumentException("bandwidth by tbf or htb, not $kind")
        }
        for ((inFar, device) in listOf(false to nearDevice, true to farDevice)) {
            val on = { command: List<String> -> if (inFar) inside(command) else command }
            run(on(listOf("tc", "qdisc", "add", "dev", device, "root", "handle", "1:") + qdisc))
            if (kind == "htb") {
                run(
                    on(
                        listOf(
                            "tc", "class", "add", "dev", device, "parent", "1:", "classid", "1:1", "htb", "rate", rate,
                            "burst", burstBytes.toString(),
                        ),
                    ),
                )
            }
        }
        shaping = Texts.EN("link.tbf", kind, NetworkProfile.number(mbit), burstBytes / 1024, offload)
    }

    /**
     * Keeps each offload (GSO) packet within tbf's bucket, set before any connection is
     * made. tbf splits a packet bigger than its bucket into its ~1.5 KB segments in software,
     * and on a veth the sender's system time pays for every segment on both sides: a cost no
     * real link with segmentation offload has, charged to the servers' CPU. Packets within
     * the bucket cross whole, at the same rate, for a fraction of that system time
     * (docs/journal/2026-11-27-tbf-offload-split.md).
     */
    private fun fitOffloadInBucket(bucketBytes: Long) {
        val size = offloadBytes(bucketBytes).toString()
        run(listOf("ip", "link", "set", "dev", nearDevice, "gso_max_size", size))
        run(inside(listOf("ip", "link", "set", "dev", farDevice, "gso_max_size", size)))
    }

    /**
     * Drops [percent]% of the packets entering and of those leaving the far namespace, at
     * random (iptables' `statistic` match): loss where the kernel has no netem. The rules
     * live in the namespace, so they go with it.
     *
     * Both ends send one segment per packet first ([segmentEachPacket]).
     */
    fun dropRandomly(percent: Double) {
        segmentEachPacket()
        for (chain in listOf("INPUT", "OUTPUT")) run(inside(randomDropRule(chain, percent / 100)))
    }

    /**
     * Turns segmentation offload off on both ends, for loss: with it a veth carries packets
     * of up to 64 KB, and iptables or netem drops such a packet whole, ~45 segments at once,
     * a burst instead of the scattered losses a profile means. The price: the kernel handles
     * every segment itself, and on a veth the sender's system time also pays the receiving
     * side; the servers' CPU per request counts it (at 1mb it nearly doubles the
     * data-server's), so CPU is compared within a lossy network, not against a lossless one
     * (docs/journal/2026-11-24-lossy-link-one-segment.md).
     */
    private fun segmentEachPacket() {
        run(listOf("ip", "link", "set", "dev", nearDevice, "gso_max_segs", "1"))
        run(inside(listOf("ip", "link", "set", "dev", farDevice, "gso_max_segs", "1")))
    }

    /**
     * The whole profile by netem on the egress of each end, where the kernel has netem:
     * half the RTT each way, the rate, and the loss on each direction's packets.
     */
    fun netem(profile: NetworkProfile) {
        if (profile.lossPercent > 0) segmentEachPacket()
        val args = listOf("netem", "delay", "${NetworkProfile.number(profile.rttMs / 2)}ms") +
            (profile.bandwidthMbit?.let { listOf("rate", "${NetworkProfile.number(it)}mbit") } ?: emptyList()) +
            (if (profile.lossPercent > 0) listOf("loss", "${NetworkProfile.number(profile.lossPercent)}%") else emptyList())
        run(listOf("tc", "qdisc", "add", "dev", nearDevice, "root") + args)
        run(inside(listOf("tc", "qdisc", "add", "dev", farDevice, "root") + args))
        shaping = Texts.EN("link.netem", args.drop(1).joinToString(" ")) + if (profile.lossPercent > 0) Texts.EN("link.per-segment") else ""
    }

    /** Removes the link if this program is stopped (Ctrl-C, SIGTERM) while the link exists. */
    private val onExit = Thread({ remove() }, "netns-link-cleanup")

    override fun close() {
        runCatching { Runtime.getRuntime().removeShutdownHook(onExit) }
        remove()
    }

    private fun remove() {
        shell.run(listOf("ip", "link", "del", nearDevice))
        shell.run(listOf("ip", "netns", "del", namespace))
    }

    private fun run(command: List<String>) {
        val (code, output) = shell.run(command)
        if (code != 0) throw LinkSetupFailed("`${command.joinToString(" ")}` failed: ${output.trim().ifEmpty { "exit $code" }}")
    }

    companion object {
        const val PREFIX = "protobench-"

        /**
         * The bucket of [limitBandwidth]: bytes that leave at once after a pause, unshaped. A
         * real link has none, so it is kept small against an answer: 0.5 ms at the rate, at
         * most 64 KiB (a 1 MiB answer then crosses at least 94% shaped, at any rate), at least
         * 8 KiB (several full-size segments, so the timer can keep low rates). Offload packets
         * are kept within it ([offloadBytes]). A bucket of 10 ms at the rate would let a
         * whole 1 MB answer cross a 1 Gbit/s link unshaped (docs/journal/2026-11-26-tbf-bucket.md).
         */
        fun bucketBytes(mbit: Double): Long = (mbit * 1e6 / 8 * 0.0005).toLong().coerceIn(8L * 1024, 64L * 1024)

        /** The largest offload packet under a tbf of [bucketBytes]: half of it, as tbf also counts each segment's headers. */
        fun offloadBytes(bucketBytes: Long): Long = bucketBytes / 2

        /**
         * What [dropRandomly] applies, in the words of the plan, run.json and the report (each
         * segment sent as a packet of its own, since a lossy link drops them one by one).
         */
        fun randomDropDescription(percent: Double) = Texts.EN("link.drop", NetworkProfile.number(percent)) + Texts.EN("link.per-segment")

        /**
         * Creates the namespace, the veth pair and both addresses, and brings the links up.
         * Fails with [LinkSetupFailed] naming the step and the kernel's words; whatever was
         * created before that step is removed again.
         */
        fun open(
            shell: Shell = Shell.SYSTEM,
            pid: Long = ProcessHandle.current().pid(),
            serial: Int = opened.getAndIncrement(),
        ): NetnsLink {
            // Names and addresses from the pid and a serial: two runs at once, or two links of one
            // run, never share one; device names stay within the kernel's 15 characters.
            val id = (pid % 10_000) * 10 + serial % 10
            val subnet = ((pid * 8 + serial) % 16_384).toInt() * 4
            val near = "10.201.${subnet / 256}.${subnet % 256 + 1}"
            val far = "10.201.${subnet / 256}.${subnet % 256 + 2}"
            val link = NetnsLink("$PREFIX$pid-$serial", "pbn$id", "pbf$id", near, far, shell)
            val steps = listOf(
                listOf("ip", "netns", "add", link.namespace),
                listOf("ip", "link", "add", link.nearDevice, "type", "veth", "peer", "name", link.farDevice),
                listOf("ip", "link", "set", link.farDevice, "netns", link.namespace),
                listOf("ip", "addr", "add", "$near/30", "dev", link.nearDevice),
                listOf("ip", "link", "set", link.nearDevice, "up"),
                link.inside(listOf("ip", "addr", "add", "$far/30", "dev", link.farDevice)),
                link.inside(listOf("ip", "link", "set", link.farDevice, "up")),
                link.inside(listOf("ip", "link", "set", "lo", "up")),
            )
            Runtime.getRuntime().addShutdownHook(link.onExit)
            try {
                steps.forEach(link::run)
            } catch (e: LinkSetupFailed) {
                link.close()
                throw e
            }
            return link
        }

        private val opened = java.util.concurrent.atomic.AtomicInteger()

        /** An iptables rule that drops each packet of [chain] with [probability]. */
        fun randomDropRule(chain: String, probability: Double): List<String> = listOf(
            "iptables", "-A", chain, "-m", "statistic", "--mode", "random",
            "--probability", probability.toBigDecimal().toPlainString(), "-j", "DROP",
        )

        /**
         * Removes the namespaces of runs that are gone: a `protobench-<pid>-<serial>`
         * namespace whose pid no longer runs (its veth pair goes with it). Returns the names removed.
         */
        fun sweepStale(shell: Shell = Shell.SYSTEM, alive: (Long) -> Boolean = { ProcessHandle.of(it).isPresent }): List<String> {
            val (code, output) = shell.run(listOf("ip", "netns", "list"))
            if (code != 0) return emptyList()
            return output.lines().map { it.substringBefore(' ').trim() }
                .filter { name -> ownerPid(name)?.let { !alive(it) } ?: false }
                .onEach { name -> shell.run(listOf("ip", "netns", "del", name)) }
        }

        /** The pid in a name this class gave, or null for any other namespace. */
        private fun ownerPid(name: String): Long? =
            Regex("""${Regex.escape(PREFIX)}(\d+)-\d+""").matchEntire(name)?.groupValues?.get(1)?.toLongOrNull()
    }
}

/**
 * A step of building or shaping the link failed, or the link did not hold;
 * the message names the command and the kernel's words, or the measured figures.
 */
open class LinkSetupFailed(message: String) : RuntimeException(message)

/**
 * This machine has no mechanism (or no permission) for a part of the profile, so nothing was
 * built or measured: a missing piece the user can supply, not a property of the link.
 */
class LinkNotApplicable(message: String) : LinkSetupFailed(message)
