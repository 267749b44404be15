package io.protobench.bench.network

import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.text.Texts
import java.io.File
import java.net.InetSocketAddress
import java.net.Socket
import java.time.Duration
import java.util.concurrent.TimeUnit
import kotlin.math.abs

/**
 * A profile applied to a real link and measured there before anything is measured
 * through it: the round trip (median of one-byte echoes), the bulk rate (timed at the
 * far end), and one answer of [ANSWER_BYTES] after a pause against the time the rate
 * alone needs for it (a bulk transfer cannot see a token bucket that lets a whole answer
 * through unshaped), each against the profile within [RttCheck.TOLERANCE].
 *
 * [applied] says how, in words (e.g. "tbf rate 100 mbit/s on both ends of the veth",
 * "user-space relay, 20 ms each way (no netem here)"). Only the direction load → far
 * side is timed for bandwidth; the shaping is the same on both ends.
 */
data class LinkCheck(
    val profile: NetworkProfile,
    val applied: List<String>,
    val rtt: RttCheck?,
    val bandwidthMbit: Double?,
    /**
     * Milliseconds one answer of [ANSWER_BYTES] took after a pause beyond a round trip (see [LinkProbe]);
     * null when the profile has no rate.
     */
    val answerMs: Double? = null,
    /** The relay's delay each way as calibrated, in ms; null when the link needs no relay. */
    val relayOneWayMs: Double? = null,
) {
    /** The TCP data a link of the profile's rate carries, in Mbit/s ([DATA_SHARE] of it); null when the profile has none. */
    val dataRateMbit: Double? get() = profile.bandwidthMbit?.let { it * DATA_SHARE }

    /**
     * How far the measured bulk rate (data, timed at the far end) is from [dataRateMbit], relative to it;
     * null when the profile has no rate.
     */
    val bandwidthOffBy: Double? get() = dataRateMbit?.let { expected -> bandwidthMbit?.let { abs(it / expected - 1) } ?: 1.0 }

    /** What the profile's rate alone needs for [ANSWER_BYTES] of data, in ms; null when it has no rate. */
    val answerAtRateMs: Double? get() = dataRateMbit?.let { ANSWER_BYTES * 8 / (it * 1e3) }

    /** The share of [answerAtRateMs] the answer took (1 = shaped as a real link of that rate would); null without a rate. */
    val answerShaped: Double? get() = answerAtRateMs?.let { alone -> (answerMs ?: 0.0) / alone }

    /**
     * False when a relay's own wake-ups already take as long as the profile's delay each
     * way, so it adds none: the round trip is then whatever the relay costs that minute,
     * not a delay the lab sets. lan's 0.2 ms is about what the relay itself costs on a
     * 2-core VM, so without this check whether a run measured lan at all would be chance
     * (docs/journal/2026-11-26-relay-calibration.md).
     */
    val delaySet: Boolean get() = relayOneWayMs?.let { it > 0 } ?: true

    val holds: Boolean
        get() = delaySet && (rtt?.holds ?: true) && (bandwidthOffBy ?: 0.0) <= RttCheck.TOLERANCE &&
            (answerShaped ?: 1.0) >= 1 - RttCheck.TOLERANCE

    /**
     * One line for the console and the report: what was asked, what was measured, and whether
     * it holds. In English, as run.json keeps it; the report reads it back in its language.
     */
    fun describe(): String {
        val notMeasured = Texts.EN("link.not-measured")
        val measured = listOfNotNull(
            rtt?.let {
                if (it.baselineMs > 0) {
                    Texts.EN("link.rtt.relay", ms(it.measuredMs), ms(it.profileMs), ms(it.baselineMs))
                } else {
                    Texts.EN("link.rtt", ms(it.measuredMs), ms(it.profileMs))
                }
            },
            profile.bandwidthMbit?.let {
                Texts.EN("link.bandwidth", bandwidthMbit?.let(::mbit) ?: notMeasured, mbit(it), mbit(dataRateMbit!!))
            },
            answerAtRateMs?.let { Texts.EN("link.answer", answerMs?.let(::ms) ?: notMeasured, ms(it)) },
        ).joinToString(", ")
        return Texts.EN(
            if (!delaySet) {
                "link.no-delay"
            } else if (holds) {
                "link.holds"
            } else {
                "link.off"
            },
            measured,
        )
    }

    companion object {
        private fun ms(v: Double) = "%.2f".format(java.util.Locale.ROOT, v)
        private fun mbit(v: Double) = "%.0f".format(java.util.Locale.ROOT, v)

        /**
         * The share of a shaped link's rate that is TCP data. tbf (and netem) count whole
         * frames, and the veth's 1500-byte MTU leaves 1448 bytes of data in each 1514-byte
         * frame (Ethernet 14, IPv4 20, TCP 20 and its timestamps 12), so 1 Gbit/s carries
         * at most 956 Mbit/s of data, as a real 1 Gbit/s Ethernet link carries about
         * 940. Checked against the frame rate, region would start 4.4% short before
         * anything else cost it (docs/journal/2026-11-27-bandwidth-as-data.md).
         */
        const val DATA_SHARE = 1448.0 / 1514.0

        /** The answer size checked: projectB's and quick's largest. */
        const val ANSWER_BYTES = 1L shl 20

        /** The far end's port inside the namespace: the namespace is the lab's own, so any port is free. */
        private const val SINK_PORT = 7_000

        /**
         * Builds a link for [profile], shapes it with what [caps] says works, starts a
         * [LinkSink] in the far namespace with [sinkCommand], and measures through the link
         * (and the relay where the delay needs one). The link is removed before returning.
         * Throws [LinkSetupFailed] when a part of the profile has no mechanism here, naming it.
         */
        fun measure(
            profile: NetworkProfile,
            caps: NetworkCapabilities,
            sinkCommand: (bind: String, port: Int) -> List<String> = SinkLauncher::command,
            shell: Shell = Shell.SYSTEM,
            pings: Int = 21,
        ): LinkCheck {
            refuseMissing(profile, caps)
            NetnsLink.open(shell).use { link ->
                return verify(profile, link, Shaped.apply(profile, caps, link), sinkCommand, pings).check
            }
        }

        /** [LinkNotApplicable] naming the first part of [profile] this machine has no mechanism for. */
        fun refuseMissing(profile: NetworkProfile, caps: NetworkCapabilities) {
            ShapingPlan.of(profile, caps).firstOrNull { it.missing != null }
                ?.let { throw LinkNotApplicable("${profile.name}: ${it.part} cannot be applied here: ${it.missing}") }
        }

        /**
         * Measures an already shaped [link] as the hop will cross it: a [LinkSink] in the far
         * namespace, round trips and a bulk transfer through the link (and through the relay
         * where the delay is the relay's). The baseline is the link's round trip without the
         * relay; with netem the link itself is delayed, so there is none (0). A relay is first
         * calibrated: what its round trip takes beyond the profile's (its threads' late
         * wake-ups) comes off its delay ([Shaped.calibrated]) before the link is measured.
         */
        fun verify(
            profile: NetworkProfile,
            link: NetnsLink,
            shaped: Shaped,
            sinkCommand: (bind: String, port: Int) -> List<String> = SinkLauncher::command,
            pings: Int = 21,
        ): VerifiedLink {
            val far = InetSocketAddress(link.farAddress, SINK_PORT)
            val sink = ProcessBuilder(link.inside(sinkCommand(link.farAddress, SINK_PORT))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
            try {
                awaitListening(far, sink)
                val direct = LinkProbe.measure(far, pings).rttMs
                val used = if (shaped.relays) {
                    shaped.calibrated(shaped.through(far) { LinkProbe.measure(it, pings).rttMs } - profile.rttMs)
                } else {
                    shaped
                }
                val measured = used.through(far) { address ->
                    val rate = profile.bandwidthMbit
                    LinkProbe.measure(
                        address,
                        pings,
                        bulkBytes = rate?.let(::bulkBytes) ?: 0,
                        answerBytes = if (rate == null) 0 else ANSWER_BYTES,
                    )
                }
                val baseline = if (used.relays) direct else 0.0
                val rtt = if (profile.rttMs > 0) RttCheck(profile.rttMs, measured.rttMs, baseline) else null
                return VerifiedLink(
                    used,
                    LinkCheck(profile, used.applied, rtt, measured.bandwidthMbit, measured.answerMs, used.relayOneWayMs),
                )
            } finally {
                sink.destroy()
                if (!sink.waitFor(5, TimeUnit.SECONDS)) sink.destroyForcibly()
            }
        }

        /** Two seconds' worth at the profile's rate (4 MiB to 256 MiB): the bucket is then under 2% of it. */
        internal fun bulkBytes(mbit: Double): Long = (mbit * 1e6 / 8 * 2).toLong().coerceIn(4L shl 20, 256L shl 20)

        private fun awaitListening(address: InetSocketAddress, process: Process, timeout: Duration = Duration.ofSeconds(20)) {
            val deadline = System.nanoTime() + timeout.toNanos()
            while (System.nanoTime() < deadline) {
                if (!process.isAlive) {
                    throw LinkSetupFailed(
                        "the link's far end exited with ${process.exitValue()} before listening on $address",
                    )
                }
                if (runCatching { Socket().use { it.connect(address, 500) } }.isSuccess) return
                Thread.sleep(100)
            }
            throw LinkSetupFailed("the link's far end did not listen on $address within ${timeout.seconds} s")
        }
    }
}

/** A link's shaping as the hop will use it (its relay calibrated) and what was measured through it. */
data class VerifiedLink(val shaped: Shaped, val check: LinkCheck)

/**
 * A profile as applied to a [NetnsLink]: netem for everything where the kernel has it;
 * otherwise tbf/htb for bandwidth and the user-space [DelayProxy] for delay, which then sits
 * between the load side and the far address ([through]).
 */
class Shaped private constructor(
    private val shaping: List<String>,
    private val askedOneWay: Duration?,
    /** What the relay takes off each way for its own wake-ups ([calibrated]); zero until then. */
    private val ownMs: Double = 0.0,
) {
    /** The relay's delay each way: the profile's half round trip less its own overhead; null without a relay. */
    private val oneWayDelay: Duration? = askedOneWay?.let { maxOf(Duration.ZERO, it.minusNanos((ownMs * 1e6).toLong())) }

    /** True when the delay is the user-space relay's: clients must connect through [relayFor]. */
    val relays: Boolean get() = oneWayDelay != null

    /** The relay's delay each way in ms, as it runs; null without a relay. */
    val relayOneWayMs: Double? get() = oneWayDelay?.let { it.toNanos() / 1e6 }

    /** How the profile was applied, in words, the relay's delay included. */
    val applied: List<String>
        get() = shaping + listOfNotNull(
            askedOneWay?.let { asked ->
                val askedMs = asked.toNanos() / 1e6
                val each = NetworkProfile.number(askedMs)
                val own = "%.2f".format(java.util.Locale.ROOT, ownMs)
                when {
                    ownMs <= 0 -> Texts.EN("link.relay", each)

                    ownMs < askedMs -> Texts.EN("link.relay.less", each, own)

                    // Its wake-ups alone take longer than the profile's delay: it adds none of its own.
                    else -> Texts.EN("link.relay.none", own, each)
                }
            },
        )

    /** Runs [body] with the address to use for [far]: the relay's when the delay needs one. */
    fun <T> through(far: InetSocketAddress, body: (InetSocketAddress) -> T): T = if (oneWayDelay ==
        null
    ) {
        body(far)
    } else {
        DelayProxy(far, oneWayDelay).use { body(it.address) }
    }

    /** A relay for [far] kept open by the caller (servers need it for the whole fork); null when no relay is needed. */
    fun relayFor(far: InetSocketAddress): DelayProxy? = oneWayDelay?.let { DelayProxy(far, it) }

    /**
     * This shaping with the relay's delay shortened by half of [excessMs], the round trip
     * measured through it beyond the profile's: a relay thread wakes late twice each way,
     * which on a 2-core VM adds 0.5–1.4 ms to a 10 ms round trip, varying by the hour.
     * Unchanged without a relay or without an excess.
     */
    fun calibrated(excessMs: Double): Shaped = if (askedOneWay == null ||
        excessMs <= 0
    ) {
        this
    } else {
        Shaped(shaping, askedOneWay, ownMs + excessMs / 2)
    }

    companion object {
        fun apply(profile: NetworkProfile, caps: NetworkCapabilities, link: NetnsLink): Shaped {
            val shaping = mutableListOf<String>()
            if (caps.works("netem")) {
                link.netem(profile)
                return Shaped(listOf(link.shaping!!), null)
            }
            profile.bandwidthMbit?.let { mbit ->
                val kind = listOf("tbf", "htb").first(caps::works)
                link.limitBandwidth(mbit, kind)
                shaping += link.shaping!!
            }
            if (profile.lossPercent > 0) {
                link.dropRandomly(profile.lossPercent)
                shaping += NetnsLink.randomDropDescription(profile.lossPercent)
            }
            val oneWay = Duration.ofNanos((profile.rttMs / 2 * 1e6).toLong())
            return Shaped(shaping, oneWay.takeIf { profile.rttMs > 0 })
        }
    }
}

/** How to start a [LinkSink] in another process: this very program, its `link-sink` command. */
object SinkLauncher {
    /** The CLI's entry point, by name: started as a program of its own, never called from here. */
    private const val CLI_MAIN_CLASS = "io.protobench.bench.cli.MainKt"

    fun command(bind: String, port: Int): List<String> {
        val javaBinary = ProcessHandle.current().info().command().orElse("java")
        val classPath = System.getProperty("java.class.path")
        // The packaged CLI is a Spring Boot jar (classes nested inside): only -jar starts it.
        val program = if (classPath.endsWith("-exec.jar") && !classPath.contains(File.pathSeparator)) {
            listOf("-jar", classPath)
        } else {
            listOf("-cp", classPath, CLI_MAIN_CLASS)
        }
        return listOf(javaBinary) + program +
            listOf("link-sink", "--bind", bind, "--port", port.toString(), "--parent-pid", ProcessHandle.current().pid().toString())
    }
}
