package io.protobench.bench.design

import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord

/**
 * Which forks a condition's verdicts rest on, one rule for the [Planner] that counts them and
 * the analysis that pairs their trials. The α split assumes one look after each completed
 * fork from the scenario's minimum to its maximum ([io.protobench.bench.verdict.Verdicts.looks]);
 * the planner judges after every fork, failed ones too. Were a fork that did not complete to
 * add its valid trials once the condition had reached its minimum, the planner would judge new
 * data at an unchanged count and could stop there: a look the split does not pay for, one per
 * such fork. So such a fork pairs only while its condition is below the minimum, where no look
 * has been taken yet and its trials simply join the first one.
 */
object Looks {
    /**
     * The fork indices that count as completed, each with the conditions it measured, in
     * index order. With variants a fork counts once every server pair it started completed
     * (a rejected variant's pair aside): its trials then pair across variants.
     */
    fun completed(record: RunRecord): Map<Int, List<String>> = record.forks.groupBy { it.index }.toSortedMap()
        .mapValues { (_, pairs) -> pairs.filter { it.status != ForkStatus.REJECTED } }
        .filterValues { pairs -> pairs.isNotEmpty() && pairs.all { it.status == ForkStatus.COMPLETE } }
        .mapValues { (_, pairs) -> pairs.first().conditions }

    /** Completed forks per condition: what the planner holds against the minimum and the maximum. */
    fun counts(record: RunRecord): Map<String, Int> = completed(record).values.flatten().groupingBy { it }.eachCount()

    /**
     * The fork indices whose valid trials of [condition] the verdicts pair: every completed fork
     * that measured it, and a fork that did not complete (failed, interrupted, cut short) only
     * when fewer than the condition's minimum of its completed forks came before it.
     */
    fun paired(record: RunRecord, condition: String): Set<Int> {
        val done = completed(record).filterValues { condition in it }.keys
        val minimum = record.scenario.forksOf(condition)
        val early = record.forks.map { it.index }.distinct()
            .filter { index -> index !in done && done.count { it < index } < minimum }
        return done + early
    }
}
