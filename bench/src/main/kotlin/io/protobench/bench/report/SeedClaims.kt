package io.protobench.bench.report

import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.readValue
import com.fasterxml.jackson.module.kotlin.registerKotlinModule
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
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
 * How our run judges one seed ratio (protocol [a] over [b]); the report words each from
 * its catalogue (`claim.<name>`): reproduced = the seeds' ratio lies inside our interval;
 * same direction, different size; contradicted = our interval excludes the seeds' ratio and
 * does not share its direction; inconclusive = fewer than 2 forks here.
 */
enum class ClaimOutcome { REPRODUCED, SAME_DIRECTION, CONTRADICTED, INCONCLUSIVE }

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
        all.filter { it.condition == a.condition && (a.phases.isEmpty() || it.phase in a.phases) && it.values != null }
            .flatMap { claim -> checks(claim, a) }
    }

    private fun checks(claim: SeedClaim, a: ConditionAnalysis): List<ClaimCheck> {
        val figure = COMPARABLE[claim.figure] ?: return emptyList()
        val values = claim.values!!
        val protocols = values.keys.sortedByDescending { values.getValue(it) }
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

    fun judge(seedRatio: Double, low: Double?, high: Double?): ClaimOutcome = when {
        low == null || high == null -> ClaimOutcome.INCONCLUSIVE
        seedRatio in low..high -> ClaimOutcome.REPRODUCED
        sameSide(ln(seedRatio), ln(low), ln(high)) -> ClaimOutcome.SAME_DIRECTION
        else -> ClaimOutcome.CONTRADICTED
    }

    /** Our whole interval lies on the seeds' side of "no difference". */
    private fun sameSide(seed: Double, low: Double, high: Double) = (seed > 0 && low > 0) || (seed < 0 && high < 0)
}
