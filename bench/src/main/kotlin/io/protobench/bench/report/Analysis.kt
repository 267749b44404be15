package io.protobench.bench.report

import io.protobench.bench.design.Judge
import io.protobench.bench.design.Looks
import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import io.protobench.bench.scenario.VariantPairs
import io.protobench.bench.stats.Estimate
import io.protobench.bench.verdict.ComparisonInput
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.PairedRatio
import io.protobench.bench.verdict.Verdicts
import org.apache.commons.statistics.descriptive.Median
import kotlin.math.hypot

/**
 * One arm's values in one fork, from its valid trials of one kind: each figure (the median
 * of the fork's rounds that have it), and for CPU per request, which /proc counts in clock
 * ticks, the variance that rounding gives it ([Rounding]).
 */
data class ForkValue(val figures: Map<Figure, Double> = emptyMap(), val rounding: Map<Figure, Double> = emptyMap()) {
    operator fun get(figure: Figure): Double? = figures[figure]
}

/** Per-fork values of one arm: fork index → its [ForkValue]. */
typealias ForkValues = Map<Int, ForkValue>

/** One arm under one condition: its figures as mean over forks with a 95% t interval. */
data class ArmSummary(val arm: String, val forks: Int, val estimates: Map<Figure, Estimate>) {
    fun mean(figure: Figure): Double? = estimates[figure]?.mean
}

/**
 * The decisions of one kind of trial of one condition, in four Holm families: protocol
 * against protocol under the same variant, each A/A copy against its original, each
 * protocol against itself under another variant, and ([interactions]) each gap between two
 * protocols under a variant against the same gap under the first variant.
 */
data class Family(
    val kind: TrialKind,
    val figures: List<Figure>,
    val decisions: List<Decision>,
    val interactions: List<Interaction> = emptyList(),
) {
    /** Decisions between two protocols under the same settings (the A/A check excluded). */
    val protocolDecisions get() = decisions.filter { !it.isAa && Variant.split(it.a).second == Variant.split(it.b).second }

    /** Decisions between two variants on the same protocol: did the setting matter? */
    val variantDecisions get() = decisions.filter { !it.isAa && Variant.split(it.a).second != Variant.split(it.b).second }
    val aaDecisions get() = decisions.filter { it.isAa }

    /** Every decision besides the A/A checks: what the planner must decide. */
    val claims get() = decisions.filter { !it.isAa }

    private val Decision.isAa get() = isAaCopy(a) || isAaCopy(b)
}

/** Whether an arm label (under any variant) is an A/A copy. */
private fun isAaCopy(label: String) = Arm.replicated(Variant.split(label).first) != null

data class ConditionAnalysis(
    val condition: String,
    val phases: List<String>,
    /** The condition's rate: one, or one per variant when its variants differ in network. */
    val calibrations: List<Calibration>,
    val cost: List<ArmSummary>,
    val capacity: List<ArmSummary>,
    val families: List<Family>,
    /** Valid per-fork values, by kind and arm, for seed claims and reports. */
    val values: Map<TrialKind, Map<String, ForkValues>>,
) {
    val decisions: List<Decision> get() = families.flatMap { it.decisions }

    /** The A/A control came out "better": this condition's verdicts cannot be trusted. */
    val untrustworthy: Boolean get() = families.any { f -> f.aaDecisions.any { it.isBetter } }

    fun family(kind: TrialKind) = families.firstOrNull { it.kind == kind }

    /**
     * Per-fork ratios of [a] to [b] on [figure], for trials of [kind]; for CPU per request
     * with the scatter its /proc rounding gives one fork's log ratio (see [Rounding]).
     */
    fun paired(kind: TrialKind, figure: Figure, a: String, b: String): PairedRatio {
        val arms = values[kind].orEmpty()
        val forks = (arms[a].orEmpty().keys + arms[b].orEmpty().keys).sorted()
        fun valuesOf(arm: String) = forks.map { arms[arm]?.get(it)?.get(figure) }
        fun roundingOf(arm: String) = forks.map { arms[arm]?.get(it)?.rounding?.get(figure) }
        val (x, y) = valuesOf(a) to valuesOf(b)
        val rounding = Rounding.logRatioSd(x, y, roundingOf(a), roundingOf(b))
        return PairedRatio.of(x, y, rounding)
    }

    /**
     * Per-fork ratios of two gaps on [figure], for trials of [kind]: ([x] over [y] under
     * [variant]) over ([x] over [y] under [baseline]), arm labels without their variant.
     * Its log is the difference of the two forks' log ratios, so its rounding scatter is
     * theirs added in quadrature. Above 1: the gap is wider under [variant].
     */
    fun gapRatio(kind: TrialKind, figure: Figure, x: String, y: String, baseline: String, variant: String): PairedRatio {
        val arms = values[kind].orEmpty()
        val labels = listOf(Variant.label(x, variant), Variant.label(y, variant), Variant.label(x, baseline), Variant.label(y, baseline))
        val forks = labels.flatMap { arms[it].orEmpty().keys }.distinct().sorted()
        fun column(label: String) = forks.map { arms[label]?.get(it)?.get(figure) }
        fun roundingColumn(label: String) = forks.map { arms[label]?.get(it)?.rounding?.get(figure) }
        val (xv, yv, xb, yb) = labels.map(::column)
        val (rxv, ryv, rxb, ryb) = labels.map(::roundingColumn)
        fun gap(a: List<Double?>, b: List<Double?>) = a.zip(b) { p, q -> if (p != null && q != null && q > 0) p / q else null }
        val rounding = hypot(Rounding.logRatioSd(xv, yv, rxv, ryv), Rounding.logRatioSd(xb, yb, rxb, ryb))
        return PairedRatio.of(gap(xv, yv), gap(xb, yb), rounding)
    }
}

/**
 * The statistics of a run, computed from run.json alone. Forks are the unit: every
 * arm's figure is averaged over forks, and two protocols are compared by the per-fork
 * log ratio of the same figure (paired within the fork), Holm-adjusted across every
 * comparison of a condition, with three outcomes (see [Verdicts]). The forks are those
 * [Looks.paired] names: the completed ones, and one that did not complete only while its
 * condition was below the minimum, so the data never changes without a look the α split counts.
 */
object Analysis {
    /** Compared in cost trials: what the hop costs in CPU, and its latency as the gateway timed it. */
    val COST_FIGURES = listOf(Figure.HOP_CPU_US, Figure.HOP_P50)

    /** Compared in capacity trials: correct answers per second at saturation (and, in capacity mode, the hop). */
    val CAPACITY_FIGURES = listOf(Figure.THROUGHPUT)
    val CAPACITY_MODE_FIGURES = listOf(Figure.THROUGHPUT, Figure.HOP_CPU_US, Figure.HOP_P50)

    /**
     * Every condition of [record], decided. [sequential]: the error rate is spread over the
     * looks the planner may take ([Verdicts.looks]); false judges every look at the full α,
     * the rule before it, kept only to measure what the looks cost (PlannerSimulationTest).
     */
    fun of(record: RunRecord, sequential: Boolean = true): List<ConditionAnalysis> = record.scenario.conditions.map { condition ->
        // A fork that did not complete pairs only before the condition's first look: it must add no look of its own.
        val forks = Looks.paired(record, condition.label)
        val trials = record.trials.filter { it.condition == condition.label && it.valid && it.fork in forks }
        val direct = record.scenario.topology == Topology.DIRECT
        val values = TrialKind.entries.associateWith { kind -> forkValues(trials.filter { it.kind == kind }, direct) }
        val capacityFigures = if (record.scenario.mode == Mode.CAPACITY) CAPACITY_MODE_FIGURES else CAPACITY_FIGURES
        val analysis = ConditionAnalysis(
            condition = condition.label,
            phases = condition.phases,
            calibrations = record.calibrations.filter { it.condition == condition.label },
            cost = summaries(record.scenario.arms, values.getValue(TrialKind.COST)),
            capacity = summaries(record.scenario.arms, values.getValue(TrialKind.CAPACITY)),
            families = emptyList(),
            values = values,
        )
        val families = listOf(TrialKind.COST to COST_FIGURES, TrialKind.CAPACITY to capacityFigures)
            .filter { (kind, _) -> values.getValue(kind).isNotEmpty() }
            .map { (kind, figures) -> family(analysis, record, kind, figures, if (sequential) looks(record) else 1) }
        analysis.copy(families = families)
    }

    /**
     * The planner's view: each condition's undecided protocol comparisons in its primary
     * family — cost trials in cost mode, capacity trials in capacity mode. The A/A check
     * need not be decided, and in cost mode the capacity probes are context, not the claim.
     */
    val judge = judge(sequential = true)

    /** The looks a condition of [record] may have: one after each fork from the scenario's minimum to its maximum. */
    fun looks(record: RunRecord): Int = Verdicts.looks(record.scenario.forks, record.scenario.maxForks)

    /** [judge] under the rule [of] names by [sequential]. */
    internal fun judge(sequential: Boolean) = Judge { record ->
        val primary = if (record.scenario.mode == Mode.CAPACITY) TrialKind.CAPACITY else TrialKind.COST
        of(record, sequential).associate { a ->
            a.condition to a.family(primary)?.claims.orEmpty().mapNotNull {
                OpenComparison.of(a.condition, it, Figure.byKey(it.figure)?.title ?: it.figure)
            }
        }
    }

    /**
     * The decisions of one kind of trial of a condition. Which protocol, whether the lab is
     * calibrated and which setting are three questions, so each is its own Holm family: the
     * protocol comparisons, the A/A checks and the variant comparisons. One family for the
     * protocols and the A/A check would hide a miscalibrated lab: among 14 comparisons the
     * A/A's first Holm step needs a p-value below α/14, which a 10% bias over 5 forks reaches
     * in about a third of simulated conditions; in a family of its own (its figures) the check
     * fails by chance at most α of the time and catches what [Power] says it can.
     */
    private fun family(a: ConditionAnalysis, record: RunRecord, kind: TrialKind, figures: List<Figure>, looks: Int): Family {
        val measured = a.values.getValue(kind).keys
        val (withinVariant, acrossVariants) = comparedPairs(record.scenario, measured)
        fun decide(pairs: List<Pair<String, String>>, on: List<Figure>) = Verdicts.decide(
            on.flatMap { figure ->
                pairs.map { (x, y) -> ComparisonInput(x, y, figure.key, figure.higherIsBetter, a.paired(kind, figure, x, y)) }
            },
            margin = record.scenario.margin,
            looks = looks,
        )
        val (aaChecks, protocolPairs) = withinVariant.partition { (x, _) -> isAaCopy(x) }
        val (samePlace, acrossPlaces) = acrossVariants.partition { (x, y) -> cpuScope(record, x) == cpuScope(record, y) }
        val variantFigures = figures.map(::variantFigure)
        return Family(
            kind,
            figures,
            decide(protocolPairs, figures) + decide(aaChecks, figures) + decide(samePlace, variantFigures) +
                decide(acrossPlaces, variantFigures.filterNot { it in CPU_PER_REQUEST }),
            interactions(a, record, kind, figures, looks),
        )
    }

    /**
     * Does a gap between two protocols depend on a setting? For every pair of protocols and
     * every variant against the first, the per-fork ratio of the two gaps ([ConditionAnalysis.gapRatio])
     * on the family's figures, decided as a Holm family of its own: a fourth question beside
     * which protocol, whether the lab is calibrated and which setting. A setting can make
     * both protocols dearer and leave the choice between them alone; only this ratio says
     * whether it moves the choice. CPU figures only between variants whose CPU per request
     * holds the same processes ([cpuScope]).
     */
    private fun interactions(
        a: ConditionAnalysis,
        record: RunRecord,
        kind: TrialKind,
        figures: List<Figure>,
        looks: Int,
    ): List<Interaction> {
        val variants = record.scenario.variants.map { it.name }
        if (variants.size < 2) return emptyList()
        val baseline = variants.first()
        val measured = a.values.getValue(kind).keys
        val protocols = record.scenario.protocols
        val cases = variants.drop(1).flatMap { variant ->
            protocols.flatMapIndexed { i, x -> protocols.drop(i + 1).map { y -> Interaction.Case(x, y, baseline, variant) } }
        }.filter { case -> case.arms.all { it in measured } }
        val inputs = figures.flatMap { figure ->
            cases.filter { figure !in CPU_PER_REQUEST || cpuScope(record, it.arms[0]) == cpuScope(record, it.arms[2]) }.map { case ->
                case to ComparisonInput(
                    case.gapLabel(case.variant),
                    case.gapLabel(case.baseline),
                    figure.key,
                    figure.higherIsBetter,
                    a.gapRatio(kind, figure, case.x, case.y, case.baseline, case.variant),
                )
            }
        }
        val decisions = Verdicts.decide(inputs.map { it.second }, margin = record.scenario.margin, looks = looks)
        return inputs.zip(decisions) { (case, _), decision -> Interaction(case, decision) }
    }

    /**
     * Not compared between variants on different networks: each network runs at its own
     * rate (a tenth over wan of what region carries), so background work is spread over
     * other request counts, and a lossy link is shaped per segment, which adds the
     * kernel's work per packet to the servers' CPU. Latency and throughput are the link's
     * answer; CPU per request is compared between protocols on one network. Variants
     * writing to different databases are compared on CPU too: a PostgreSQL server's
     * processes are counted in its variant's CPU per request ([Figure.DB_CPU_US]) — except
     * an external database's (`--db-url`), which are not the run's to count, so a variant
     * writing there is compared on CPU only with another writing there.
     */
    val CPU_PER_REQUEST = setOf(Figure.HOP_CPU_US, Figure.TOTAL_CPU_US)

    /**
     * What the CPU per request of the variant in an arm's label holds: where it runs (its
     * network profile; null: loopback or the run's own) and whether its database's work is
     * left out (an external database). Only arms of one scope are compared on CPU.
     */
    private fun cpuScope(record: RunRecord, label: String): Pair<String?, Boolean> {
        val variant = Variant.split(label).second?.let { name -> record.scenario.variants.firstOrNull { it.name == name } }
        val external = variant != null && record.externalDatabase?.variants.orEmpty().contains(variant.name)
        return variant?.network to external
    }

    /**
     * What a variant comparison weighs in place of [figure]: CPU per request of both
     * servers instead of the hop's. A setting acts on the whole server pair (a collector
     * or a heap changes the gateway's own cost too, which the hop subtracts), and the
     * servers' CPU needs no null hop taken from it, so it carries less noise.
     */
    private fun variantFigure(figure: Figure) = if (figure == Figure.HOP_CPU_US) Figure.TOTAL_CPU_US else figure

    /**
     * What a condition compares, among the arm labels [measured]: under each variant every
     * pair of protocols (a protocol on one of the gateway's further sets of hop clients,
     * `HTTP/Binary (h2c)`, counting as one) and each A/A copy with its original; across variants each protocol
     * with itself (not a protocol under one setting with another protocol under another:
     * that difference has two causes), every two variants or, with `compareVariants:
     * baseline`, each variant with the first, where both variants act on the protocol
     * ([Variant.affects]). The two lists are decided as separate Holm families.
     */
    internal fun comparedPairs(
        scenario: ScenarioRecord,
        measured: Set<String>,
    ): Pair<List<Pair<String, String>>, List<Pair<String, String>>> {
        val variants = scenario.variants.map { it.name }.ifEmpty { listOf(null) }
        val onClients = scenario.arms.map { Variant.split(it).first }.filter { Arm.clientOf(it) != null }.distinct()
        val withinVariant = variants.flatMap { v ->
            val protocols = (scenario.protocols + onClients).map { Variant.label(it, v) }.filter { it in measured }
            protocols.flatMapIndexed { i, x -> protocols.drop(i + 1).map { y -> x to y } } +
                scenario.protocols.mapNotNull { p ->
                    (Variant.label(Arm.replicaLabel(p), v) to Variant.label(p, v))
                        .takeIf { it.first in measured && it.second in measured }
                }
        }
        val acrossVariants = scenario.protocols.flatMap { p ->
            val acting = scenario.variants.filter { it.affects(p) }.map { Variant.label(p, it.name) }
            val arms = variants.map { Variant.label(p, it) }
            val pairs = if (scenario.compareVariants == VariantPairs.BASELINE) {
                arms.drop(1).map { arms.first() to it }
            } else {
                arms.flatMapIndexed { i, x -> arms.drop(i + 1).map { y -> x to y } }
            }
            pairs.filter { (x, y) -> x in measured && y in measured && x in acting && y in acting }
        }
        return withinVariant to acrossVariants
    }

    /**
     * Valid trials as fork → figures per arm (the median of the fork's rounds), with the hop
     * figures derived against the null hop of the same fork and variant.
     */
    private fun forkValues(trials: List<TrialRecord>, direct: Boolean): Map<String, ForkValues> {
        val byArm = trials.groupBy { it.arm }.mapValues { (_, ts) ->
            ts.groupBy { it.fork }.mapValues { (_, rounds) -> medianOfRounds(rounds.map { ofTrial(it, direct) }) }
        }
        return byArm.mapValues { (arm, forks) ->
            val nullHop = byArm[Variant.label(Arm.NullHop.LABEL, Variant.split(arm).second)].orEmpty()
            forks.mapValues { (fork, value) -> withHop(value, nullHop[fork], direct) }
        }
    }

    /**
     * Hop CPU per request = both servers' CPU per request minus the null hop's in the same
     * fork (the harness: the driver's requests through the gateway without the data-server
     * call); hop share = hop CPU over all CPU counted per request (the driver and both
     * servers). [direct]: no gateway stands between the driver and the data-server, so
     * nothing is subtracted: the data-server's CPU per request is the server side of the hop.
     */
    private fun withHop(value: ForkValue, nullHop: ForkValue?, direct: Boolean): ForkValue {
        val total = value[Figure.TOTAL_CPU_US]
        val harness = if (direct) 0.0 else nullHop?.get(Figure.TOTAL_CPU_US)
        val hop = if (total != null && harness != null) total - harness else null
        val all = total?.let { t -> value[Figure.DRIVER_CPU_US]?.let { t + it } }
        val share = if (hop != null && all != null && all > 0) hop / all else null
        val totalRounding = value.rounding[Figure.TOTAL_CPU_US]
        val harnessRounding = if (direct) 0.0 else nullHop?.rounding?.get(Figure.TOTAL_CPU_US)
        val hopRounding = if (totalRounding != null && harnessRounding != null) totalRounding + harnessRounding else null
        return ForkValue(
            value.figures - Figure.HOP_CPU_US - Figure.HOP_SHARE +
                listOfNotNull(hop?.let { Figure.HOP_CPU_US to it }, share?.let { Figure.HOP_SHARE to it }),
            value.rounding - Figure.HOP_CPU_US + listOfNotNull(hopRounding?.let { Figure.HOP_CPU_US to it }),
        )
    }

    /** One trial's figures as a fork value, with the rounding variance of its CPU per request. */
    private fun ofTrial(trial: TrialRecord, direct: Boolean) = ForkValue(
        trial.figures.toMap().filterNotNullValues(),
        listOfNotNull(Rounding.ofTrial(trial, direct)?.let { Figure.TOTAL_CPU_US to it }).toMap(),
    )

    private fun Map<Figure, Double?>.filterNotNullValues(): Map<Figure, Double> = entries.mapNotNull { (f, v) ->
        v?.let { f to it }
    }.toMap()

    /**
     * One arm's figures in one fork from its rounds: per figure, the median of the rounds
     * that have it. The median, not the mean: a trial disturbed by something outside the
     * servers (another process, a late compilation) is one round of three and is left out.
     */
    internal fun medianOfRounds(rounds: List<ForkValue>): ForkValue {
        if (rounds.size == 1) return rounds.single()
        return ForkValue(median(rounds.map { it.figures }), median(rounds.map { it.rounding }))
    }

    /** Per figure, the median of the maps that have it. */
    private fun median(rounds: List<Map<Figure, Double>>): Map<Figure, Double> =
        rounds.flatMap { it.keys }.distinct().associateWith { figure ->
            Median.withDefaults().evaluate(rounds.mapNotNull { it[figure] }.toDoubleArray())
        }

    private fun summaries(arms: List<String>, values: Map<String, ForkValues>): List<ArmSummary> = arms.filter { it in values }.map { arm ->
        val forks = values.getValue(arm)
        val estimates = Figure.entries.mapNotNull { figure ->
            val sdFloor = Rounding.sd(forks.values.mapNotNull { it.rounding[figure] })
            Estimate.of(forks.values.mapNotNull { it[figure] }.filter { it.isFinite() }, sdFloor)?.let { figure to it }
        }.toMap()
        ArmSummary(arm, forks.size, estimates)
    }
}
