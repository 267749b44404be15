package io.protobench.bench.report

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.readValue
import com.fasterxml.jackson.module.kotlin.registerKotlinModule
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
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
)

/**
 * The seeds' published figures, each protocol pair judged against our paired interval
 * on the same figure under the same condition. A run of seed phases matches claims by
 * phase and condition; a run without phases (quick) by condition alone.
 */
object SeedClaims {
    /** Seed figures we measure the same way: end to end through the gateway, closed model (our capacity probes). */
    private val COMPARABLE = mapOf(
        "throughput_rps" to Figure.THROUGHPUT,
        "latency_avg_ms" to Figure.LATENCY_AVG,
        "latency_p50_ms" to Figure.LATENCY_P50,
        "latency_p95_ms" to Figure.LATENCY_P95,
    )

    val all: List<SeedClaim> by lazy {
        val yaml = ObjectMapper(YAMLFactory()).registerKotlinModule().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        javaClass.getResourceAsStream("/reference/seed-claims.yaml")!!.use { yaml.readValue<List<SeedClaim>>(it) }
    }

    fun check(analyses: List<ConditionAnalysis>): List<ClaimCheck> = analyses.flatMap { a ->
        val checks = all.filter { it.condition == a.condition && (a.phases.isEmpty() || it.phase in a.phases) && it.values != null }
            .flatMap { claim -> checks(claim, a) }
        checks.map { c -> c.copy(mirrors = mirrored(c, checks)) }
    }

    /** Closed-model figures that are one another's reciprocal: mean latency mirrors throughput. */
    private val RECIPROCAL = mapOf("latency_avg_ms" to "throughput_rps")

    private fun mirrored(c: ClaimCheck, all: List<ClaimCheck>): String? {
        val other = RECIPROCAL[c.claim.figure] ?: return null
        return other.takeIf {
            all.any { o -> o.claim.figure == other && o.claim.phase == c.claim.phase && o.claim.source == c.claim.source && setOf(o.a, o.b) == setOf(c.a, c.b) }
        }
    }

    /** Every pair of the claim's protocols, the seeds' better one first (faster, or lower where lower is better). */
    private fun checks(claim: SeedClaim, a: ConditionAnalysis): List<ClaimCheck> {
        val figure = COMPARABLE[claim.figure] ?: return emptyList()
        val values = claim.values!!
        val protocols = values.keys.sortedBy { values.getValue(it) }.let { if (claim.higherIsBetter) it.reversed() else it }
        return protocols.flatMapIndexed { i, x -> protocols.drop(i + 1).map { y -> x to y } }.mapNotNull { (x, y) ->
            val ours = a.paired(TrialKind.CAPACITY, figure, x, y)
            if (ours.n == 0) return@mapNotNull null
            val seedRatio = values.getValue(x) / values.getValue(y)
            val interval = ours.interval(0.95)
            val elsewhere = all.filter { it !== claim && it.condition == claim.condition && it.figure == claim.figure }
                .mapNotNull { other -> other.values?.let { v -> v[x]?.let { vx -> v[y]?.let { vy -> other.phase to (vx / vy - 1) * 100 } } } }
            ClaimCheck(claim, x, y, (seedRatio - 1) * 100, ours.percent, interval?.lowPercent, interval?.highPercent,
                judge(seedRatio, interval?.low, interval?.high), elsewhere)
        }
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
