package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.parse
import com.github.ajalt.clikt.parameters.groups.provideDelegate
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioCatalog
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** The flags that replace a scenario's fields, on the built-in scenarios the reference shows them with. */
class ScenarioOverridesTest {
    private class Host : CliktCommand("host") {
        val overrides by ScenarioOverrides()
        override fun run() = Unit
    }

    private fun applied(scenario: String, vararg argv: String): Scenario {
        val host = Host().apply { parse(argv.toList()) }
        return host.overrides.applyTo(ScenarioCatalog.load(scenario))
    }

    @Test
    fun `--mode capacity drops the scenario's fixed cost rates, other flags keep them`() {
        val quick = ScenarioCatalog.load("quick")
        assertThat(quick.costRates).isNotEmpty

        val capacity = applied("quick", "--mode", "capacity")
        assertThat(capacity.mode).isEqualTo(Mode.CAPACITY)
        assertThat(capacity.costRates).isEmpty()
        assertThat(applied("quick", "--forks", "8").costRates).isEqualTo(quick.costRates)
        assertThat(applied("quick", "--mode", "cost").costRates).isEqualTo(quick.costRates)
    }

    @Test
    fun `--forks gives every condition its number, dropping quick's fewer forks at 1mb, while --max-forks and the rounds keep theirs`() {
        val quick = ScenarioCatalog.load("quick")
        val (small, large) = quick.conditions
        assertThat(quick.forksOf(large)).isLessThan(quick.forksOf(small))
        val two = applied("quick", "--forks", "2", "--max-forks", "2")
        assertThat(two.conditions.map { two.forksOf(it) to two.maxForksOf(it) }).containsOnly(2 to 2)
        assertThat(two.roundsOf(large)).isEqualTo(quick.roundsOf(large)).isLessThan(quick.roundsOf(small))
        val more = applied("quick", "--max-forks", "7")
        assertThat(more.maxForksOf(large) - more.forksOf(large)).isEqualTo(2)
        assertThat(more.forksOf(large)).isEqualTo(quick.forksOf(large))
    }

    @Test
    fun `a refused flag is named as the user may have typed it, aliases included, not as a scenario field`() {
        fun refusal(vararg argv: String) = org.assertj.core.api.Assertions.catchThrowable { applied("quick", *argv) }.message!!
        assertThat(refusal("--repetitions", "0")).contains("flag '--forks/--repetitions/-r' = '0'").doesNotContain("field 'forks'")
        assertThat(refusal("--max-forks", "1")).contains("flag '--max-forks' = '1'")
        assertThat(refusal("--protocols", "HTTP/JSON,smoke")).contains("flag '--protocols[1]'")
        assertThat(refusal("--duration", "0s")).contains("flag '--duration' = '0s'")
    }

    @Test
    fun `a scenario made of includes keeps its conditions through the overrides`() {
        for (name in listOf("decision-map", "seeds")) {
            val scenario = ScenarioCatalog.load(name)
            assertThat(applied(name, "--forks", "4").conditions).describedAs(name).isEqualTo(scenario.conditions)
        }
    }
}
