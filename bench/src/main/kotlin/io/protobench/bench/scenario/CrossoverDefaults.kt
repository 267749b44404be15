package io.protobench.bench.scenario

/**
 * What a crossover search's points get unless its flags say otherwise. Here, beside [Axis],
 * because both the search (`crossover`) and the report that proposes one (`report.Flip`)
 * need them, and the search depends on the report, not the other way round.
 */
object CrossoverDefaults {
    /** Forks every point gets at least. */
    const val FORKS = 3

    /** Most forks a point gets while the pair is undecided there. */
    const val MAX_FORKS = 6

    /** Cost mode: each point's rate as a share of the slowest protocol's capacity there (the scenario default). */
    const val UTILISATION = 0.5
}
