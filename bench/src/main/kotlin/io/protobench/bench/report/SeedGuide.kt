package io.protobench.bench.report

import com.fasterxml.jackson.module.kotlin.jacksonTypeRef
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.scenario.Variant
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/**
 * One row of the seeds' protocol selection guide (reference/seed-guide.yaml): [better] is
 * [percent] (low and high, as printed) faster than [than] at each of [conditions]. A row
 * without [than] names a need, not a measurement.
 */
data class GuideRow(
    val row: Int,
    val original: String,
    val claim: String,
    val better: String,
    val than: String? = null,
    val percent: List<Double>? = null,
    val conditions: List<String> = emptyList(),
)

/** One of the guide's crossover points: [below] ahead up to the first of [between], [above] from the second on. */
data class GuideCrossover(
    val id: String,
    val original: String,
    val claim: String,
    val below: String,
    val above: String,
    val between: List<String>,
    val conditions: List<String>,
)

data class GuideClaims(val rows: List<GuideRow> = emptyList(), val crossovers: List<GuideCrossover> = emptyList())

/**
 * What a run says of a guide row or crossover on one figure. [CONTRADICTED] only where an
 * interval excludes the seed's direction; [SMALLER] and [LARGER] where the direction holds
 * and the seed's size does not (throughput only: the seed's percentages are throughput), and
 * [SMALLER] too where the two protocols are shown equivalent (within the margin, far below any
 * of the seed's sizes); [OPEN] where some comparison is undecided and none contradicts.
 */
enum class GuideLabel { HOLDS, SMALLER, LARGER, CONTRADICTED, OPEN }

/** One condition's decision on the row's pair, and what it makes of the row. */
data class GuidePoint(val condition: String, val decision: Decision, val label: GuideLabel)

/** Where the better protocol changes along a crossover's axis: [from] was better up to [last], [to] from [first] on. */
data class GuideFlip(val from: String, val to: String, val last: String, val first: String)

/**
 * A row or crossover judged on [figure] over the conditions the run measured: its [label],
 * and for an open one the forks that would decide its slowest comparison ([moreForks]; null
 * when one is out of reach or has fewer than 2 forks). For a crossover, [flips] are the run's
 * own changes of winner along the axis, in either direction.
 */
data class GuideFinding(
    val figure: Figure,
    val points: List<GuidePoint>,
    val label: GuideLabel,
    val moreForks: Int?,
    val flips: List<GuideFlip> = emptyList(),
)

/**
 * The seeds' selection guide judged by a run: each row and crossover on the seed's own
 * measure (throughput of the capacity probes, a closed model at the seed's users) and on the
 * lab's (the hop's CPU and p50 at a fixed rate), from the run's Holm-adjusted decisions, so a
 * label recomputes from run.json like every verdict. Only the run's own configuration is
 * judged (the seeds ran one): decisions under variants are left out.
 */
object SeedGuide {
    val claims: GuideClaims by lazy { Reference.read("seed-guide.yaml", jacksonTypeRef<GuideClaims>()) }

    /** The figures a guide claim is judged on: the seed's measure first, then the lab's. */
    private val MEASURES = listOf(
        TrialKind.CAPACITY to Figure.THROUGHPUT,
        TrialKind.COST to Figure.HOP_CPU_US,
        TrialKind.COST to Figure.HOP_P50,
    )

    fun row(row: GuideRow, analyses: List<ConditionAnalysis>): List<GuideFinding> {
        val than = row.than ?: return emptyList()
        return MEASURES.mapNotNull { (kind, figure) ->
            val points = row.conditions.mapNotNull { c ->
                decision(analyses, c, kind, figure, row.better, than)?.let { GuidePoint(c, it, rowLabel(it, row, figure)) }
            }
            points.takeIf { it.isNotEmpty() }?.let { GuideFinding(figure, it, combined(it.map(GuidePoint::label)), moreForks(it)) }
        }
    }

    fun crossover(crossover: GuideCrossover, analyses: List<ConditionAnalysis>): List<GuideFinding> =
        MEASURES.mapNotNull { (kind, figure) ->
            val points = crossover.conditions.mapIndexedNotNull { i, c ->
                val decided = decision(analyses, c, kind, figure, crossover.below, crossover.above)
                decided?.let { GuidePoint(c, it, pointLabel(it, crossover, i)) }
            }
            if (points.size < 2) return@mapNotNull null
            val flips = flips(points)
            GuideFinding(figure, points, crossoverLabel(crossover, points, flips), moreForks(points), flips)
        }

    /** The decision between [x] and [y] on [figure] under [condition] in the run's own configuration; null when not measured. */
    private fun decision(
        analyses: List<ConditionAnalysis>,
        condition: String,
        kind: TrialKind,
        figure: Figure,
        x: String,
        y: String,
    ): Decision? = analyses.firstOrNull { it.condition == condition && !it.untrustworthy }?.family(kind)?.protocolDecisions
        ?.firstOrNull { it.figure == figure.key && Variant.split(it.a).second == null && setOf(it.a, it.b) == setOf(x, y) }

    private fun rowLabel(d: Decision, row: GuideRow, figure: Figure): GuideLabel = when (val o = d.outcome) {
        is Outcome.Better -> when {
            o.winner != row.better -> GuideLabel.CONTRADICTED
            figure != Figure.THROUGHPUT || row.percent == null -> GuideLabel.HOLDS
            o.highPercent < row.percent.min() -> GuideLabel.SMALLER
            o.lowPercent > row.percent.max() -> GuideLabel.LARGER
            else -> GuideLabel.HOLDS
        }

        is Outcome.Equivalent -> GuideLabel.SMALLER

        is Outcome.Inconclusive -> GuideLabel.OPEN
    }

    /**
     * A row's label over its conditions: contradicted anywhere; else smaller or larger where a
     * decided size misses the seed's range (the row's claim fails there, whatever the open
     * ones decide); else open anywhere; else holds.
     */
    private fun combined(labels: List<GuideLabel>): GuideLabel = when {
        GuideLabel.CONTRADICTED in labels -> GuideLabel.CONTRADICTED
        GuideLabel.SMALLER in labels -> GuideLabel.SMALLER
        GuideLabel.LARGER in labels -> GuideLabel.LARGER
        GuideLabel.OPEN in labels -> GuideLabel.OPEN
        else -> GuideLabel.HOLDS
    }

    /** The forks the slowest open comparison would need; null when one cannot say (out of reach, or under 2 forks). */
    private fun moreForks(points: List<GuidePoint>): Int? {
        val open = points.map { it.decision.outcome }.filterIsInstance<Outcome.Inconclusive>()
        return if (open.isEmpty() || open.any { it.moreForks == null }) null else open.maxOf { it.moreForks!! }
    }

    /**
     * The run's own flips along a crossover: each change of the decided winner from one
     * decided point to the next (points open or equivalent between them are passed over).
     */
    private fun flips(points: List<GuidePoint>): List<GuideFlip> {
        val decided = points.mapNotNull { p -> (p.decision.outcome as? Outcome.Better)?.let { p.condition to it.winner } }
        return decided.zipWithNext().filter { (a, b) -> a.second != b.second }
            .map { (a, b) -> GuideFlip(a.second, b.second, a.first, b.first) }
    }

    /**
     * A crossover's label: contradicted where a point's decision goes against the seed's side
     * of the bracket; holds where the run found the seed's flip (its first protocol better,
     * then the other) and nothing contradicts, its bracket then overlapping the seed's; open
     * while a point is undecided; otherwise smaller (one side's advantage shown within the
     * margin: no flip to find).
     */
    private fun crossoverLabel(c: GuideCrossover, points: List<GuidePoint>, flips: List<GuideFlip>): GuideLabel = when {
        points.any { it.label == GuideLabel.CONTRADICTED } -> GuideLabel.CONTRADICTED
        flips.any { it.from == c.below && it.to == c.above } -> GuideLabel.HOLDS
        points.any { it.label == GuideLabel.OPEN } -> GuideLabel.OPEN
        else -> GuideLabel.SMALLER
    }

    /**
     * One point of a crossover, at [index] along its conditions: the protocol the seed puts
     * ahead on that side of its bracket better holds, the other contradicts, equivalent is smaller.
     */
    private fun pointLabel(d: Decision, c: GuideCrossover, index: Int): GuideLabel {
        val expected = if (index <= c.conditions.indexOf(c.between.first())) c.below else c.above
        return when (val o = d.outcome) {
            is Outcome.Better -> if (o.winner == expected) GuideLabel.HOLDS else GuideLabel.CONTRADICTED
            is Outcome.Equivalent -> GuideLabel.SMALLER
            is Outcome.Inconclusive -> GuideLabel.OPEN
        }
    }
}
