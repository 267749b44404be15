package io.protobench.bench.scenario

/**
 * What a crossover search's points get unless its flags say otherwise. Here, beside [Axis],
 * because both the search (`crossover`) and the report that proposes one (`report.Flip`)
 * need them, and the search depends on the report, not the other way round.
 */
object CrossoverDefaults {
    /**
     * Forks every point gets, and its most unless `--max-forks` asks for more looks: a fixed
     * design, one look at the full α. Searches of 3 to 6 forks (α over 4 looks) left an end
     * undecided twice, at 500 KB and at 1 item, and so found no bracket
     * (docs/journal/2026-12-04-decision-map-design.md says why looks cost more than they save).
     */
    const val FORKS = 5

    /** Cost mode: each point's rate as a share of the slowest protocol's capacity there (the scenario default). */
    const val UTILISATION = 0.5
}
