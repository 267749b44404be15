package io.protobench.bench.report

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.readValue
import com.fasterxml.jackson.module.kotlin.registerKotlinModule

/** A throughput table the seed project published for one condition. */
data class SeedResult(val source: String, val condition: String, val throughput: Map<String, Double>)

/** How one protocol pair compares in the seeds and in our run. */
data class SeedComparison(
    val source: String,
    val condition: String,
    val a: String,
    val b: String,
    /** (a / b − 1) × 100 in the seeds. */
    val seedPercent: Double,
    /** (a / b − 1) × 100 in our run (medians), null when not measured. */
    val ourPercent: Double?,
    /** reproduced | reversed | inconclusive | not measured */
    val outcome: String,
)

object SeedReference {
    val results: List<SeedResult> by lazy {
        val yaml = ObjectMapper(YAMLFactory()).registerKotlinModule()
        javaClass.getResourceAsStream("/reference/seeds.yaml")!!.use { yaml.readValue<List<SeedResult>>(it) }
    }

    /** Every seed pair whose condition our run measured, the seeds' faster protocol first. */
    fun compare(analyses: List<ConditionAnalysis>): List<SeedComparison> = results.flatMap { seed ->
        val ours = analyses.firstOrNull { it.condition == seed.condition } ?: return@flatMap emptyList()
        val protocols = seed.throughput.keys.sortedByDescending { seed.throughput.getValue(it) }
        protocols.flatMapIndexed { i, a -> protocols.drop(i + 1).map { b -> pair(seed, ours, a, b) } }
            .filter { it.ourPercent != null }
    }

    private fun pair(seed: SeedResult, ours: ConditionAnalysis, a: String, b: String): SeedComparison {
        val seedPercent = (seed.throughput.getValue(a) / seed.throughput.getValue(b) - 1) * 100
        val ourA = ours.cells.firstOrNull { it.protocol == a }?.median(io.protobench.bench.measure.Figure.THROUGHPUT)
        val ourB = ours.cells.firstOrNull { it.protocol == b }?.median(io.protobench.bench.measure.Figure.THROUGHPUT)
        val ourPercent = if (ourA != null && ourB != null && ourB > 0) (ourA / ourB - 1) * 100 else null
        val comparison = ours.comparisons.firstOrNull { (it.a == a && it.b == b) || (it.a == b && it.b == a) }
        val outcome = when {
            ourPercent == null -> "not measured"
            comparison == null || !comparison.significant -> "inconclusive (no significant difference here)"
            comparison.a == a -> "reproduced"
            else -> "reversed"
        }
        return SeedComparison(seed.source, seed.condition, a, b, seedPercent, ourPercent, outcome)
    }
}
