package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.contract.payload.PayloadSize

/**
 * The lab's noise between identical arms, the one place the reports take it from: the
 * standard deviation of the per-fork log ratio ln(copy / original) of an A/A pair, by figure
 * and payload, pooled over the published aa calibration pair (20 forks each of HTTP/JSON
 * against its copy in quick's design: cost trials at fixed rates, 10 virtual users, 3 rounds;
 * each run's sd about its own mean with 19 degrees of freedom, 38 pooled). The journal entry
 * docs/journal/2026-12-02-what-the-intervals-say.md names the two runs and holds the script
 * that computes these numbers; docs/statistics.md ("The A/A check") quotes the power they
 * give, and a test fails when the two part.
 *
 * Why not the forks at hand: 5 forks' own sd is itself noisy. Over the aa pair's blocks of 5
 * forks one comparison's sd ran from 0.018 to 0.247, and the power it gave for a 10% bias from
 * 100% to 6%: rated at it, an A/A line says more about that run's luck than about the lab.
 * The numbers are kept unrounded, as the docs' powers were computed from them; when the aa
 * pair is measured again, replace them and the docs' table together.
 */
object LabNoise {
    /** The payloads the noise is measured at, quick's two sizes; other sizes have no measurement. */
    enum class Payload(val size: String) {
        SMALL("1kb"),
        LARGE("1mb"),
        ;

        val bytes: Int get() = PayloadSize.parse(size).bytes
    }

    /** Per-fork log-ratio sd of an A/A pair in cost trials, by figure and payload. */
    val POOLED_SD: Map<Pair<Figure, Payload>, Double> = mapOf(
        (Figure.HOP_CPU_US to Payload.SMALL) to 0.093260,
        (Figure.HOP_P50 to Payload.SMALL) to 0.060708,
        (Figure.HOP_CPU_US to Payload.LARGE) to 0.071509,
        (Figure.HOP_P50 to Payload.LARGE) to 0.139703,
    )

    /** Degrees of freedom of each pooled sd: two runs of 20 forks, each about its own mean. */
    const val DEGREES_OF_FREEDOM = 38

    /** The measured payload a condition label ("size=1kb vus=10") carries; null for other sizes and workloads. */
    fun payload(condition: String): Payload? {
        val size = condition.substringBefore(' ').takeIf { it.startsWith("size=") }?.removePrefix("size=") ?: return null
        val bytes = runCatching { PayloadSize.parse(size).bytes }.getOrNull() ?: return null
        return Payload.entries.firstOrNull { it.bytes == bytes }
    }

    /**
     * The lab's per-fork sd for an A/A comparison on [figure] (a [Figure] key) in trials of
     * [kind] under [condition]; null where the lab has not measured it: capacity probes (at
     * saturation, not at quick's rates), other figures, other payloads.
     */
    fun sd(condition: String, kind: TrialKind, figure: String): Double? {
        if (kind != TrialKind.COST) return null
        val f = Figure.byKey(figure) ?: return null
        val payload = payload(condition) ?: return null
        return POOLED_SD[f to payload]
    }
}
