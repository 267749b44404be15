package io.protobench.bench.report

import com.fasterxml.jackson.module.kotlin.jacksonTypeRef
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Variant
import kotlin.math.abs
import kotlin.math.ln

/** One figure the seeds published for several protocols under one condition (reference/seed-claims.yaml). */
data class SeedClaim(
    val id: String,
    val phase: String,
    val source: String,
    val condition: String,
    val figure: String,
    val higherIsBetter: Boolean = true,
    val unit: String = "",
    val values: Map<String, Double>? = null,
    val statement: String? = null,
    val note: String? = null,
)

/**
 * How our run's 95% interval of a ratio stands to the seeds' ratio; the report words each
 * from its catalogue (`claim.<name>`). Decided means our interval excludes no difference:
 * [REPRODUCED] decided in the seeds' direction with their ratio inside it; [SMALLER] and
 * [LARGER] decided in their direction, the whole interval nearer to no difference than
 * their ratio or beyond it; [OPPOSITE] decided the other way. Open means our interval holds
 * no difference: [COMPATIBLE] it holds the seeds' ratio too; [OPEN_SMALLER] it does not, so
 * a difference as large as theirs is ruled out but not its direction. [INCONCLUSIVE]: fewer
 * than 2 forks here.
 */
enum class ClaimOutcome { REPRODUCED, SMALLER, LARGER, OPPOSITE, COMPATIBLE, OPEN_SMALLER, INCONCLUSIVE }

data class ClaimCheck(
    val claim: SeedClaim,
    val a: String,
    val b: String,
    /** (a / b − 1) · 100 as the seeds printed it. */
    val seedPercent: Double,
    /** Our geometric-mean ratio and 95% interval, percent; null without forks. */
    val ourPercent: Double?,
    val ourLow: Double?,
    val ourHigh: Double?,
    val outcome: ClaimOutcome,
    /** The same ratio in the seeds' other runs of this condition and figure (their own run-to-run spread). */
    val seedElsewhere: List<Pair<String, Double>>,
    /**
     * The figure of another check of the same seed run, condition and pair that this one mirrors:
     * a closed model's mean latency is its users over its throughput, so the two ratios are one
     * finding, counted once (under throughput).
     */
    val mirrors: String? = null,
    /** The seeds' counts were divided by their throughput, ours are counts at one rate: compared per request. */
    val perRequest: Boolean = false,
)

/**
 * The seeds' published figures, each protocol pair judged against our paired interval
 * on the same figure under the same condition. A run of seed phases matches claims by
 * phase and condition; a run without phases (quick) by condition alone.
 */
object SeedClaims {
    /**
     * How we measure a seed figure: [figure] in trials of [kind]; [perRequest]: the seeds' values are divided by their throughput first.
     */
    private data class Measure(val figure: Figure, val kind: TrialKind, val perRequest: Boolean = false)

    /**
     * Seed figures we measure the same way. Throughput and latency end to end through the
     * gateway under the closed model, as the seeds ran: our capacity probes. The gateway's
     * heap (the seeds name no server; the gateway is the one both seeds' protocols cross):
     * its collections are counted per request, since the seeds' protocols each answered as
     * many requests as they could in 30 s and their counts follow the requests, while every
     * arm of one of our cost trials answers the same number at the same rate, so our counts
     * are already in the ratio of collections per request; the stop-the-world pauses
     * only, as a collection count means on G1 and Parallel. Peak heap as measured.
     */
    private val COMPARABLE = mapOf(
        "throughput_rps" to Measure(Figure.THROUGHPUT, TrialKind.CAPACITY),
        "latency_avg_ms" to Measure(Figure.LATENCY_AVG, TrialKind.CAPACITY),
        "latency_p50_ms" to Measure(Figure.LATENCY_P50, TrialKind.CAPACITY),
        "latency_p95_ms" to Measure(Figure.LATENCY_P95, TrialKind.CAPACITY),
        "gc_count" to Measure(Figure.API_GC_PAUSES, TrialKind.COST, perRequest = true),
        "peak_heap_mb" to Measure(Figure.API_PEAK_HEAP, TrialKind.COST),
    )

    /** Seed figures about the garbage collector: the report says beside them how the seeds measured them. */
    fun isGc(claim: SeedClaim) = claim.figure == "gc_count" || claim.figure == "peak_heap_mb"

    val all: List<SeedClaim> by lazy { Reference.read("seed-claims.yaml", jacksonTypeRef<List<SeedClaim>>()) }

    fun check(analyses: List<ConditionAnalysis>, variants: List<String> = emptyList()): List<ClaimCheck> = analyses.flatMap { a ->
        val under = variants.ifEmpty { listOf(null) }
        val checks = all.filter { it.condition == a.condition && (a.phases.isEmpty() || it.phase in a.phases) && it.values != null }
            .flatMap { claim -> checks(claim, a, under) }
        checks.map { c -> c.copy(mirrors = mirrored(c, checks)) }
    }

    /** Closed-model figures that are one another's reciprocal: mean latency mirrors throughput. */
    private val RECIPROCAL = mapOf("latency_avg_ms" to "throughput_rps")

    private fun mirrored(c: ClaimCheck, all: List<ClaimCheck>): String? {
        val other = RECIPROCAL[c.claim.figure] ?: return null
        return other.takeIf {
            all.any { o ->
                o.claim.figure == other && o.claim.phase == c.claim.phase && o.claim.source == c.claim.source &&
                    setOf(o.a, o.b) == setOf(c.a, c.b)
            }
        }
    }

    /**
     * Every pair of the claim's protocols, the seeds' better one first (faster, or lower where
     * lower is better), under each variant of the run (the seeds ran one configuration; a
     * variant's row says whether the setting changes how their ratio fares).
     */
    private fun checks(claim: SeedClaim, a: ConditionAnalysis, variants: List<String?>): List<ClaimCheck> {
        val measure = COMPARABLE[claim.figure] ?: return emptyList()
        val values = seedValues(claim, measure) ?: return emptyList()
        val protocols = values.keys.sortedBy { values.getValue(it) }.let { if (claim.higherIsBetter) it.reversed() else it }
        val pairs = protocols.flatMapIndexed { i, x -> protocols.drop(i + 1).map { y -> x to y } }
        return variants.flatMap { variant ->
            pairs.mapNotNull { (x, y) ->
                val ours = a.paired(measure.kind, measure.figure, Variant.label(x, variant), Variant.label(y, variant))
                if (ours.n == 0) return@mapNotNull null
                val seedRatio = values.getValue(x) / values.getValue(y)
                val interval = ours.interval(0.95)
                val elsewhere = all.filter { it !== claim && it.condition == claim.condition && it.figure == claim.figure }
                    .mapNotNull { other ->
                        seedValues(other, measure)?.let { v -> v[x]?.let { vx -> v[y]?.let { vy -> other.phase to (vx / vy - 1) * 100 } } }
                    }
                ClaimCheck(
                    claim, Variant.label(x, variant), Variant.label(y, variant), (seedRatio - 1) * 100, ours.percent,
                    interval?.lowPercent, interval?.highPercent, judge(seedRatio, interval?.low, interval?.high), elsewhere,
                    perRequest = measure.perRequest,
                )
            }
        }
    }

    /**
     * The claim's values as we compare them: per request where [measure] asks, divided by
     * the throughput the same seed run printed for the same condition (null when it printed none).
     */
    private fun seedValues(claim: SeedClaim, measure: Measure): Map<String, Double>? {
        val values = claim.values ?: return null
        if (!measure.perRequest) return values
        val throughput = all.firstOrNull { it.phase == claim.phase && it.condition == claim.condition && it.figure == "throughput_rps" }
            ?.values
            ?: return null
        return values.filterKeys { it in throughput }.mapValues { (protocol, value) -> value / throughput.getValue(protocol) }
            .takeIf { it.size >= 2 }
    }

    /** [ClaimOutcome] of the seeds' [seedRatio] against our interval [low, high] of the same ratio. */
    fun judge(seedRatio: Double, low: Double?, high: Double?): ClaimOutcome {
        if (low == null || high == null) return ClaimOutcome.INCONCLUSIVE
        val seed = ln(seedRatio)
        val (from, to) = ln(low) to ln(high)
        val holdsSeed = seedRatio in low..high
        if (from <= 0 && to >= 0) return if (holdsSeed) ClaimOutcome.COMPATIBLE else ClaimOutcome.OPEN_SMALLER
        if (holdsSeed) return ClaimOutcome.REPRODUCED
        val ourSign = if (from > 0) 1 else -1
        if (seed != 0.0 && kotlin.math.sign(seed).toInt() != ourSign) return ClaimOutcome.OPPOSITE
        // Decided in the seeds' direction (or where they saw none): nearer to no difference than theirs, or beyond.
        return if (minOf(abs(from), abs(to)) > abs(seed)) ClaimOutcome.LARGER else ClaimOutcome.SMALLER
    }
}
