package io.protobench.bench.design

import io.protobench.bench.measure.ForkCount
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.scenario.Condition
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.text.Texts
import java.time.Duration
import java.time.Instant

/** Which comparisons of each condition are still undecided (empty list = decided). Computed from the record alone. */
fun interface Judge {
    fun open(record: RunRecord): Map<String, List<OpenComparison>>
}

/**
 * The planner's next step: measure these conditions in a new fork, or stop. A [Stop.reason]
 * goes into run.json in English, from the catalogue's `planning.reason.*` sentences
 * (joined by "; "), which the report reads back in its own language.
 */
sealed interface Step {
    data class NextFork(val conditions: List<Condition>) : Step
    data class Stop(val reason: String) : Step
}

/**
 * Where forks go. Every condition first gets the scenario's minimum forks; after that
 * a condition gets another fork only while some comparison of it is undecided and
 * within reach — its estimate of the forks it would take fits under `maxForks` — and
 * only while the next fork is expected to fit in the budget. Forks go to the
 * comparisons near their decision, which a second run would otherwise decide one way
 * or not at all, rather than to a difference of 2% that would take forty forks.
 * Completed forks count; a fork that failed does not, and its valid trials pair only while
 * their condition is below the minimum ([Looks]): past it they would be a look the α split
 * does not count.
 *
 * Under a budget too small for every condition's minimum, conditions are taken in the
 * scenario's order and a condition joins only when its minimum forks fit too: half the
 * seeds measured three times decide something, all of them measured once decide
 * nothing. The conditions left out are named when the run stops ([belowMinimum]).
 */
class Planner(private val scenario: Scenario) {

    fun next(record: RunRecord, open: Map<String, List<OpenComparison>>, elapsed: Duration): Step {
        val counts = completedForks(record)
        val wanted = scenario.conditions.filter { c ->
            val forks = counts[c.label] ?: 0
            forks < scenario.forksOf(c) || (forks < scenario.maxForksOf(c) && open[c.label].orEmpty().any { it.withinReach(forks, c) })
        }
        if (wanted.isEmpty()) return Step.Stop(stopReason(counts, open))
        if (liveVariants(record, scenario).isEmpty()) return Step.Stop(en("planning.reason.all-rejected"))
        if (failedInARow(record) >= MAX_FAILED_FORKS_IN_A_ROW) {
            return Step.Stop(en("planning.reason.failed-in-a-row", MAX_FAILED_FORKS_IN_A_ROW))
        }
        scenario.budget?.let { budget ->
            val costs = forkCosts(record)
            val remaining = budget.seconds - elapsed.seconds
            val chosen = withinBudget(counts, wanted, costs, remaining)
            return if (chosen.isEmpty()) Step.Stop(budgetStopReason(counts, wanted, costs, remaining, budget)) else Step.NextFork(chosen)
        }
        return Step.NextFork(wanted)
    }

    /**
     * The conditions the budget lets the first fork take: how many of the scenario's
     * conditions the run expects to bring to the minimum forks (all without a budget).
     */
    fun firstFork(): List<Condition> {
        val budget = scenario.budget ?: return scenario.conditions
        return withinBudget(emptyMap(), scenario.conditions, estimatedCosts(), budget.seconds)
    }

    /** Conditions with fewer completed forks than the minimum, with their count, in the scenario's order. */
    fun belowMinimum(record: RunRecord): List<ForkCount> {
        val counts = completedForks(record)
        return scenario.conditions.filter { (counts[it.label] ?: 0) < scenario.forksOf(it) }
            .map { ForkCount(it.label, counts[it.label] ?: 0) }
    }

    /** Seconds it would take to bring [short] to the minimum forks, at the costs measured so far. */
    fun secondsToMinimum(record: RunRecord, short: List<ForkCount>): Long {
        if (short.isEmpty()) return 0
        val minimum = scenario.conditions.associate { it.label to scenario.forksOf(it) }
        return forkCosts(record).toReach(short.associate { it.condition to minimum.getValue(it.condition) - it.forks }).toLong()
    }

    /**
     * The next fork's conditions under a budget with [remaining] seconds left. Conditions
     * already measured come first, below the minimum before those getting an extra fork,
     * then the ones not yet measured in the scenario's order; each joins only if every
     * chosen condition can still reach its minimum forks (one more fork for those past
     * it). A fork of a condition that cannot reach the minimum buys no usable interval
     * (two forks give one degree of freedom): when the first fork ran longer than
     * estimated, the time goes to the conditions that can still get there.
     */
    private fun withinBudget(counts: Map<String, Int>, wanted: List<Condition>, costs: ForkCosts, remaining: Long): List<Condition> {
        fun forks(c: Condition) = counts[c.label] ?: 0
        fun forksLeft(c: Condition) = maxOf(1, scenario.forksOf(c) - forks(c))
        val (started, fresh) = wanted.partition { forks(it) > 0 }
        val chosen = mutableListOf<Condition>()
        for (c in started.sortedBy { if (forks(it) < scenario.forksOf(it)) 0 else 1 } + fresh) {
            val fits = costs.toReach((chosen + c).associate { it.label to forksLeft(it) }) <= remaining
            if (fits) {
                chosen += c
            } else if (c in fresh) {
                break
            }
        }
        return wanted.filter { it in chosen }
    }

    /**
     * Why a budget stops the run. A condition below the minimum stops it for its forks to
     * the minimum, not for the next one: the next fork alone may fit, but a condition left
     * at one or two forks decides nothing, so the reason names what did not fit.
     */
    private fun budgetStopReason(
        counts: Map<String, Int>,
        wanted: List<Condition>,
        costs: ForkCosts,
        remaining: Long,
        budget: Duration,
    ): String {
        val forksLeft = wanted.associate { it.label to scenario.forksOf(it) - (counts[it.label] ?: 0) }
        val (short, owedExtra) = forksLeft.entries.partition { it.value > 0 }
        val cheapestExtra = owedExtra.minOfOrNull { costs.fork(it.key) } ?: costs.fork(1)
        val (nearest, seconds) = short.map { it to costs.toReach(mapOf(it.toPair())) }.minByOrNull { it.second }
            ?: return en("planning.reason.budget", budget.toMinutes(), roundedUp(cheapestExtra))
        return en(
            "planning.reason.budget-minimum",
            remaining.coerceAtLeast(0) / 60,
            budget.toMinutes(),
            scenario.forksText(),
            nearest.value,
            roundedUp(seconds),
        ) +
            if (owedExtra.isEmpty()) "" else en("planning.reason.budget-extra", roundedUp(cheapestExtra))
    }

    private fun roundedUp(seconds: Double) = kotlin.math.ceil(seconds / 60).toLong()

    /**
     * An open comparison is worth another fork when its estimate says it would be decided by
     * its condition's maximum ([Scenario.maxForksOf]); one without an estimate yet (under 2 usable
     * forks) counts as worth it, one that no number of forks up to the engine's limit would decide does not.
     */
    private fun OpenComparison.withinReach(forks: Int, c: Condition) =
        !beyondReach && (moreForks == null || forks + moreForks <= scenario.maxForksOf(c))

    private fun stopReason(counts: Map<String, Int>, open: Map<String, List<OpenComparison>>): String {
        val atCap = scenario.conditions.filter { !open[it.label].isNullOrEmpty() && (counts[it.label] ?: 0) >= scenario.maxForksOf(it) }
        val beyondReach = scenario.conditions.sumOf { c ->
            val forks = counts[c.label] ?: 0
            if (forks >= scenario.maxForksOf(c)) 0 else open[c.label].orEmpty().count { !it.withinReach(forks, c) }
        }
        val reasons = listOfNotNull(
            atCap.takeIf { it.isNotEmpty() }?.let { en("planning.reason.at-most", it.size, scenario.forksText(atMost = true)) },
            beyondReach.takeIf { it > 0 }?.let { en("planning.reason.beyond-reach", it, scenario.forksText(atMost = true)) },
        )
        return reasons.joinToString("; ").ifEmpty { en("planning.reason.decided", scenario.forksText()) }
    }

    /**
     * Seconds the next fork should take: start-up and soak as measured so far, plus the
     * measured time per condition, times [conditions], for each server pair (variant) it
     * starts. Before any fork: the scenario's estimate.
     */
    fun estimateForkSeconds(record: RunRecord, conditions: Int): Long = forkCosts(record).fork(conditions).toLong()

    /**
     * What a fork costs in seconds: its fixed part, each condition, and the server pairs
     * (variants) it starts. A condition already measured costs what its own trials took
     * ([measured], per pair); the others [perCondition], the average over whole forks.
     */
    private data class ForkCosts(
        val overhead: Double,
        val perCondition: Double,
        val pairs: Int,
        val measured: Map<String, Double> = emptyMap(),
    ) {
        fun of(condition: String) = measured[condition] ?: perCondition

        /** Seconds of one fork of [conditions] conditions. */
        fun fork(conditions: Int) = (overhead + conditions * perCondition) * pairs

        /** Seconds of one fork of [condition] alone. */
        fun fork(condition: String) = (overhead + of(condition)) * pairs

        /**
         * Seconds to give each condition its forks left ([forksLeft]: condition to forks):
         * as many forks as the condition furthest from its minimum, each condition measured only while it needs to be.
         */
        fun toReach(forksLeft: Map<String, Int>) =
            (forksLeft.values.max() * overhead + forksLeft.entries.sumOf { (c, n) -> n * of(c) }) * pairs
    }

    private fun estimatedCosts() = ForkCosts(
        scenario.estimatedForkOverheadSeconds(),
        scenario.estimatedConditionSeconds(),
        scenario.variantNames.size,
        scenario.conditions.associate { it.label to scenario.estimatedConditionSeconds(it) },
    )

    /**
     * Costs as measured by the completed forks. Each condition measured so far costs what
     * its own trials took ([conditionSeconds]); conditions differ by far more than an
     * average shows (in projectB 1 MB across wan takes two to four times what 10 KB does), and
     * an average can leave 1 MB out of a fork and take it back too late to reach the
     * minimum (docs/journal/2026-11-26-planner-costs-per-condition.md). Conditions not yet
     * measured cost the average per condition of whole forks. With probes in the first fork
     * only, a fork that probed costs more per condition than the later ones will
     * (docs/journal/2026-11-25-budget-too-small.md): for that average the forks that probed
     * nothing set the cost, or while there are none, the ones that did less their probes'
     * estimated time.
     */
    private fun forkCosts(record: RunRecord): ForkCosts {
        val done = record.forks.filter { it.status == ForkStatus.COMPLETE && it.finishedAt != null }
        val pairs = maxOf(1, liveVariants(record, scenario).size)
        if (done.isEmpty()) return estimatedCosts().copy(pairs = pairs)
        fun probedOnce(fork: ForkRecord): Int = if (!scenario.probesOnce) {
            0
        } else {
            fork.trials.filter { it.kind == TrialKind.CAPACITY }.map { it.condition }.distinct().size
        }
        val perCondition = done.filter { probedOnce(it) == 0 }.ifEmpty { done }.map { fork ->
            val total = Duration.between(Instant.parse(fork.startedAt), Instant.parse(fork.finishedAt)).seconds
            val measuring = total - (fork.soak?.seconds ?: 0.0) - fixedPart(fork) - probedOnce(fork) * scenario.estimatedProbeSeconds()
            measuring / maxOf(1, fork.conditions.size)
        }.average().coerceAtLeast(1.0)
        val overhead = done.map { (it.soak?.seconds ?: 0.0) + fixedPart(it) }.average()
        // A condition whose trials carry no usable times (0 s) keeps the average.
        val measured = done.flatMap { conditionSeconds(it).entries }.groupBy({ it.key }, { it.value })
            .mapValues { it.value.average() }.filterValues { it > 0 }
        return ForkCosts(overhead, perCondition, pairs, measured)
    }

    /** A fork's start-up and the runner's own part: as the fork timed them, or the estimate's in records from before. */
    private fun fixedPart(fork: ForkRecord): Double =
        fork.time?.let { it.start + it.runner } ?: (Scenario.SERVER_START_SECONDS + Scenario.RUNNER_SECONDS)

    /**
     * Seconds each condition took in [fork] (one server pair), from its trials that recur in
     * every fork: each trial's own warm-up, then its time until the next trial's warm-up
     * began (the last one's until the fork ended, its tools' runs included). Capacity probes
     * of the first fork only are left out. A trial starts when its warm-up has ended.
     */
    private fun conditionSeconds(fork: ForkRecord): Map<String, Double> {
        val finished = fork.finishedAt ?: return emptyMap()
        val trials = fork.trials.sortedBy { it.sequence }
        val warmUps = warmUpSeconds(fork, trials)
        val spent = mutableMapOf<String, Double>()
        trials.forEachIndexed { i, trial ->
            val end = trials.getOrNull(i + 1)?.let { epochSeconds(it.startedAt) - warmUps[i + 1] } ?: epochSeconds(finished)
            val took = warmUps[i] + (end - epochSeconds(trial.startedAt)).coerceAtLeast(0.0)
            if (!(scenario.probesOnce && trial.kind == TrialKind.CAPACITY)) spent.merge(trial.condition, took, Double::plus)
        }
        return spent
    }

    /** Each trial's warm-up: the fork's warm-up of the same condition, arm and load, given to the first such trial. */
    private fun warmUpSeconds(fork: ForkRecord, trials: List<TrialRecord>): List<Double> {
        val unclaimed = fork.warmIns.toMutableList()
        return trials.map { t ->
            val warmUp = unclaimed.firstOrNull { it.condition == t.condition && it.load == t.load && (it.arm == null || it.arm == t.arm) }
            warmUp?.let { unclaimed.remove(it) }
            warmUp?.soak?.seconds ?: 0.0
        }
    }

    private fun epochSeconds(time: String) = Instant.parse(time).let { it.epochSecond + it.nano / 1e9 }

    /** Completed forks per condition, as [Looks] counts them for the analysis too. */
    private fun completedForks(record: RunRecord): Map<String, Int> = Looks.counts(record)

    private fun failedInARow(record: RunRecord): Int = record.forks.filter { it.status != ForkStatus.REJECTED }.takeLastWhile {
        it.status ==
            ForkStatus.FAILED
    }.size

    companion object {
        const val MAX_FAILED_FORKS_IN_A_ROW = 3

        /** Stop reasons are recorded in English; the report says them in its language ([Texts.recorded]). */
        private val en = Texts.EN
    }
}
