package io.protobench.bench.compare

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ConditionAnalysis
import io.protobench.bench.report.ForkValues
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Variant
import io.protobench.bench.stats.Estimate
import io.protobench.bench.verdict.Holm
import io.protobench.bench.verdict.Verdicts
import io.protobench.bench.verdict.WelchRatio

/**
 * Two runs of the lab, A (the baseline) and B, compared figure by figure: what changed
 * beyond noise?
 *
 * For every condition and every protocol arm (variant labels included; the null hop and
 * A/A copies are controls, not compared) present in both runs, each compared figure of
 * [COST_FIGURES] and [CAPACITY_FIGURES] is judged on the forks of the two runs. The runs'
 * forks are independent (fork 1 of A has nothing in common with fork 1 of B), so the test
 * is Welch's unequal-variance t on the log scale ([WelchRatio]); all comparisons of one
 * condition and trial kind are one Holm family; the three outcomes are those of the run's
 * own verdicts ([Verdicts.decide]): changed beyond noise, equivalent within ±margin (TOST),
 * or inconclusive. A worse change whose whole Holm-adjusted interval lies beyond the margin
 * is a [Change.Regression]. Beside, each run's own verdicts of the shared conditions are set
 * side by side ([VerdictAgreement]), and the null hop's own cost is compared the same way as
 * a yardstick of the machine ([YARDSTICK_FIGURES]).
 */
object RunComparison {
    /** Compared in cost trials: hop CPU, hop p50, both servers' CPU, end-to-end p99. */
    val COST_FIGURES = listOf(Figure.HOP_CPU_US, Figure.HOP_P50, Figure.TOTAL_CPU_US, Figure.LATENCY_P99)

    /** Compared in capacity trials. */
    val CAPACITY_FIGURES = listOf(Figure.THROUGHPUT)

    private fun figures(kind: TrialKind) = if (kind == TrialKind.COST) COST_FIGURES else CAPACITY_FIGURES

    /**
     * The yardstick's figures: what the null hop costs the load driver and the gateway per
     * request. The null hop runs the same path in every run (driver -> gateway, which answers itself), so
     * when these move between two runs of the same harness, the machine moved.
     */
    val YARDSTICK_FIGURES = listOf(Figure.DRIVER_CPU_US, Figure.API_CPU_US)

    /** The machine facts two compared runs must share, by their names in run.json's environment. */
    private val MACHINE: List<Pair<String, (RunEnvironment) -> Any?>> = listOf(
        "cpuModel" to RunEnvironment::cpuModel,
        "cpuCores" to RunEnvironment::cpuCores,
        "memoryTotalMb" to RunEnvironment::memoryTotalMb,
        "kernel" to RunEnvironment::kernel,
    )

    /**
     * Compares run [a] with run [b]. [margin] overrides the runs' margin of equivalence; [force]
     * compares runs whose machine or settings differ (the differences become warnings).
     */
    fun of(a: RunRecord, b: RunRecord, margin: Double? = null, force: Boolean = false, alpha: Double = Verdicts.ALPHA): CompareResult {
        require(margin == null || margin > 0) { "margin must be positive, got $margin" }
        // A folder's name is not unique: every crossover search names its points point-1-<value>.
        if (a.runId == b.runId && a.startedAt == b.startedAt) return CompareResult.Identical(a.runId, b.runId)
        val analysesA = Analysis.of(a)
        val analysesB = Analysis.of(b)
        if (analysesA.isNotEmpty() && analysesA.map { it.condition to it.values } == analysesB.map { it.condition to it.values }) {
            return CompareResult.Identical(a.runId, b.runId)
        }
        val differences = differences(a, b)
        val conditionsA = analysesA.map { it.condition }
        val conditionsB = analysesB.map { it.condition }
        val shared = conditionsA.filter { it in conditionsB }
        if (shared.isEmpty()) return CompareResult.Refused(differences, conditionsA, conditionsB)
        if (differences.isNotEmpty() && !force) return CompareResult.Refused(differences)

        val usedMargin = margin ?: a.scenario.margin
        val notes = buildList {
            if (margin == null && a.scenario.margin != b.scenario.margin) add(Note.MarginsDiffer(a.scenario.margin, b.scenario.margin))
            listOf(Side.A to a, Side.B to b).filter { (_, r) -> r.status != RunStatus.COMPLETE }.forEach { (side, r) ->
                add(Note.Incomplete(side, r.runId, r.status, r.failure))
            }
            addAll(rateNotes(a, b))
        }
        val armsA = comparedArms(a)
        val armsB = comparedArms(b)
        val arms = armsA.filter { it in armsB }
        val notCompared = conditionsA.filter { it !in conditionsB }.map { NotCompared(it, Side.A, isCondition = true) } +
            conditionsB.filter { it !in conditionsA }.map { NotCompared(it, Side.B, isCondition = true) } +
            armsA.filter { it !in armsB }.map { NotCompared(it, Side.A, isCondition = false) } +
            armsB.filter { it !in armsA }.map { NotCompared(it, Side.B, isCondition = false) }
        val byConditionB = analysesB.associateBy { it.condition }
        val conditions = analysesA.filter { it.condition in shared }.map { ca ->
            val cb = byConditionB.getValue(ca.condition)
            // Cost trials first, then the capacity probes; within each, arm by arm.
            ConditionChanges(
                ca.condition,
                listOf(TrialKind.COST, TrialKind.CAPACITY).flatMap { kind ->
                    family(ca, cb, kind, arms, usedMargin, alpha).sortedBy { arms.indexOf(it.arm) }
                },
            )
        }
        val nullHops = nullHopArms(a).filter { it in nullHopArms(b) }
        val yardstick = analysesA.filter { it.condition in shared }.map { ca ->
            ConditionChanges(
                ca.condition,
                family(ca, byConditionB.getValue(ca.condition), TrialKind.COST, nullHops, usedMargin, alpha, YARDSTICK_FIGURES),
            )
        }.filter { it.changes.isNotEmpty() }
        return CompareResult.Compared(
            Comparison(
                a = facts(Side.A, a), b = facts(Side.B, b), margin = usedMargin, alpha = alpha,
                warnings = differences, notes = notes, versions = versions(a, b), conditions = conditions, notCompared = notCompared,
                verdicts = VerdictAgreement.of(analysesA, analysesB), yardstick = yardstick,
            ),
        )
    }

    /**
     * Conditions whose cost trials ran at rates more than [RATE_TOLERANCE] apart. Each run
     * calibrates its own rate (or halves a fixed one its machine would saturate), and CPU
     * per request depends on it (a load generator's wake-ups are shared by more requests at
     * a higher rate, and so are the servers': docs/journal/2026-11-24-k6-cost-by-rate.md),
     * so such a change may be the rate's, not the code's.
     */
    internal fun rateNotes(a: RunRecord, b: RunRecord): List<Note.RatesApart> {
        val ratesB = b.calibrations.associate { (it.condition to it.variant) to it.ratePerSecond }
        return a.calibrations.mapNotNull { ca ->
            val rateB = ratesB[ca.condition to ca.variant] ?: return@mapNotNull null
            Note.RatesApart(ca.condition, ca.variant, ca.ratePerSecond, rateB).takeIf { it.apart > RATE_TOLERANCE }
        }
    }

    /** Rates of cost trials further apart than this (relative) are named in the notes. */
    const val RATE_TOLERANCE = 0.10

    /** The arms compared: protocols (under each variant), not the null hop and not the A/A copies. */
    private fun comparedArms(record: RunRecord): List<String> = record.scenario.arms.filter { label ->
        val arm = Variant.split(label).first
        arm != Arm.NullHop.LABEL && Arm.replicated(arm) == null
    }

    /** The null hop's arms (one per variant when variants differ in network or servers). */
    private fun nullHopArms(record: RunRecord): List<String> = record.scenario.arms.filter { Variant.split(it).first == Arm.NullHop.LABEL }

    /**
     * The comparisons of one condition and trial kind, decided as one Holm family as
     * [Verdicts.decide] does: a difference first (Holm-adjusted two-sided p below α), else
     * equivalence (Holm-adjusted TOST below α), else inconclusive. Comparisons with fewer
     * than 2 usable forks in a run have no test and do not count in the family.
     */
    private fun family(
        ca: ConditionAnalysis,
        cb: ConditionAnalysis,
        kind: TrialKind,
        arms: List<String>,
        margin: Double,
        alpha: Double,
        compared: List<Figure> = figures(kind),
    ): List<FigureChange> {
        val valuesA = ca.values[kind].orEmpty()
        val valuesB = cb.values[kind].orEmpty()
        val measured = arms.filter { it in valuesA || it in valuesB }
        data class Input(val arm: String, val figure: Figure, val a: List<Double?>, val b: List<Double?>, val welch: WelchRatio)
        // A figure neither run recorded for an arm (e.g. hop figures without a null hop) has nothing to say.
        val inputs = compared.flatMap { figure ->
            measured.mapNotNull { arm ->
                val a = perFork(valuesA[arm], figure)
                val b = perFork(valuesB[arm], figure)
                if (a.all { it == null } && b.all { it == null }) null else Input(arm, figure, a, b, WelchRatio.of(b, a))
            }
        }
        val testable = inputs.indices.filter { inputs[it].welch.testable }
        val slot = testable.withIndex().associate { (k, i) -> i to k }
        val diffHolm = Holm.of(testable.map { inputs[it].welch.pValue!! })
        val eqHolm = Holm.of(testable.map { inputs[it].welch.tostPValue(margin)!! })
        return inputs.mapIndexed { i, input ->
            val w = input.welch
            val k = slot[i]
            val estimateA = Estimate.of(input.a.filterNotNull().filter { it.isFinite() })
            val estimateB = Estimate.of(input.b.filterNotNull().filter { it.isFinite() })
            if (k == null) {
                val untested = FigureChange(
                    input.arm, kind, input.figure, estimateA, estimateB, w, null, null, null, Change.Inconclusive(emptyList(), null),
                )
                val few = listOfNotNull(Side.A.takeIf { untested.forksA < 2 }, Side.B.takeIf { untested.forksB < 2 })
                untested.copy(change = Change.Inconclusive(few, null))
            } else {
                val diffLevel = diffHolm.stepLevel(k, alpha)
                val eqLevel = eqHolm.stepLevel(k, alpha)
                val diffInterval = w.interval(1 - diffHolm.intervalLevel(k, alpha))!!
                val eqInterval = w.interval(1 - 2 * eqHolm.intervalLevel(k, alpha))!!
                val change = when {
                    diffHolm.adjusted[k] < alpha -> {
                        // The ratio is B/A: above 1 is worse for a figure where lower is better.
                        val worse = if (input.figure.higherIsBetter) w.meanLog < 0 else w.meanLog > 0
                        val beyond =
                            if (input.figure.higherIsBetter) diffInterval.high < 1 / (1 + margin) else diffInterval.low > 1 + margin
                        when {
                            !worse -> Change.Improvement
                            beyond -> Change.Regression
                            else -> Change.Worse
                        }
                    }

                    eqHolm.adjusted[k] < alpha -> Change.Equivalent

                    else -> Change.Inconclusive(emptyList(), w.forksPerRunToDecide(diffLevel, eqLevel, margin))
                }
                FigureChange(
                    input.arm, kind, input.figure, estimateA, estimateB, w,
                    if (change == Change.Equivalent) eqInterval else diffInterval,
                    diffHolm.adjusted[k], eqHolm.adjusted[k], change,
                )
            }
        }
    }

    /** One arm's values of [figure], one per fork in fork order (null where the fork has none). */
    private fun perFork(forks: ForkValues?, figure: Figure): List<Double?> = forks.orEmpty().toSortedMap().values.map { it[figure] }

    /**
     * What must be the same for two runs to be compared: the machine (CPU model, cores,
     * memory, kernel) and the settings of the measurement (mode, trial length, load share,
     * the servers' JVM options, JDKs and arguments, and the settings of variants both have).
     */
    internal fun differences(a: RunRecord, b: RunRecord): List<Difference> {
        val fields = MACHINE.map { (key, fact) -> key to { r: RunRecord -> text(fact(r.environment)) } } + listOf(
            "scenario-mode" to { r: RunRecord -> r.scenario.mode.id },
            // Direct and through the gateway, "hop" names two different things.
            "topology" to { r: RunRecord -> r.scenario.topology.id },
            "durationMs" to { r: RunRecord -> r.scenario.durationMs.toString() },
            "utilisation" to { r: RunRecord -> r.scenario.utilisation.toString() },
            "jvm-options" to { r: RunRecord -> text(r.resume?.jvmOptions ?: r.environment.serverJvmOptions) },
            "gateway-arguments" to { r: RunRecord ->
                text(r.resume?.gatewayArguments ?: r.options["gateway"]?.split(" ")?.filter { it.isNotBlank() }?.map { "--$it" })
            },
            "data-server-arguments" to { r: RunRecord ->
                text(r.resume?.dataServerArguments ?: r.options["dataServer"]?.split(" ")?.filter { it.isNotBlank() }?.map { "--$it" })
            },
        )
        val variantsB = b.scenario.variants.associateBy { it.name }
        val shared = a.scenario.variants.filter { it.name in variantsB }
        // The servers' JDK, and that of each variant both runs have ("serverJdk · name").
        val jdks = (listOf(null) + shared.map { it.name }).map { variant ->
            Variant.label("serverJdk", variant) to { r: RunRecord ->
                text(if (variant == null) r.environment.serverJdk else r.environment.serverJdkByVariant[variant])
            }
        }
        val variants = shared.map { v ->
            Difference("variant", null, null, v.name) to { r: RunRecord -> text(r.scenario.variants.first { it.name == v.name }.settings) }
        }
        return ((fields + jdks).map { (field, read) -> Difference(field, null, null) to read } + variants).mapNotNull { (field, read) ->
            val x = read(a)
            val y = read(b)
            if (x != y) field.copy(a = x, b = y) else null
        }
    }

    /** What differs besides, for information: source revision, libraries, the load generator (k6 in older records), the CLI's JDK. */
    private fun versions(a: RunRecord, b: RunRecord): List<Difference> {
        val libsA = a.environment.libraries.orEmpty()
        val libsB = b.environment.libraries.orEmpty()
        val libraries = (libsA.keys + libsB.keys).distinct().sorted().map { name -> Difference(name, text(libsA[name]), text(libsB[name])) }
        val tools = listOf<Pair<String, (RunEnvironment) -> Any?>>(
            "commit" to RunEnvironment::gitCommit,
            "uncommitted" to RunEnvironment::gitDirty,
            "load-generator" to RunEnvironment::loadGenerator,
            "cli-jdk" to RunEnvironment::jdk,
            "autogroup" to RunEnvironment::schedAutogroup,
            "cpu-idle" to RunEnvironment::cpuIdle,
        ).map { (field, fact) -> Difference(field, text(fact(a.environment)), text(fact(b.environment))) }
        return (tools + libraries).filter { it.a != it.b }
    }

    private fun facts(side: Side, r: RunRecord) = RunFacts(
        side = side, runId = r.runId, scenario = r.scenario.name,
        commit = r.environment.gitCommit, dirty = r.environment.gitDirty,
        cpuModel = r.environment.cpuModel, cpuCores = r.environment.cpuCores, memoryTotalMb = r.environment.memoryTotalMb,
        kernel = r.environment.kernel, jdk = (r.environment.serverJdk ?: r.environment.jdk)?.substringBefore(";"),
        startedAt = r.startedAt, status = r.status, failure = r.failure, margin = r.scenario.margin,
    )

    /** A recorded value as text, lists joined by spaces; null where nothing was recorded. */
    private fun text(value: Any?): String? = when (value) {
        null -> null
        is Collection<*> -> value.joinToString(" ") { it.toString() }
        else -> value.toString()
    }
}
