package io.protobench.bench

import io.protobench.bench.runner.TrialPlan
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class TrialPlanTest {
    private val cells = ScenarioCatalog.builtIn("quick")!!.cells

    @Test
    fun `every round runs every cell once and sequences count up`() {
        val plan = TrialPlan.of(cells, 3, seed = 42)
        assertThat(plan).hasSize(cells.size * 3)
        (1..3).forEach { round -> assertThat(plan.filter { it.round == round }.map { it.cell }).containsExactlyInAnyOrderElementsOf(cells) }
        assertThat(plan.map { it.sequence }).isEqualTo((1..plan.size).toList())
    }

    @Test
    fun `rounds are shuffled, reproducibly for a seed`() {
        val plan = TrialPlan.of(cells, 3, seed = 42)
        assertThat(TrialPlan.of(cells, 3, seed = 42)).isEqualTo(plan)
        val orders = (1..3).map { round -> plan.filter { it.round == round }.map { it.cell } }
        assertThat(orders.distinct().size).isGreaterThan(1)
    }
}
