package io.protobench.bench.design

import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.ForkPart
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.ForkTime
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.PlanningRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.SoakRecord
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.measure.ToolRunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialLoad
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.measure.WarmInRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Condition
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Probes
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.SeedTool
import io.protobench.bench.scenario.Soak
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.math.roundToInt
import kotlin.random.Random

/**
 * The measurement design as a library: forks as blocks. Each fork is a fresh pair of
 * server JVMs from the [lab] (one pair per variant when the scenario has variants, each
 * checked to run the settings it asked for), soaked until steady; then, for every condition the
 * [Planner] gave it (in shuffled order), each protocol's capacity is probed (closed
 * model), and every arm is measured once at the condition's fixed rate (cost mode), in
 * shuffled order; every trial, probes included, right after its own arm's warm-up at
 * the trial's load (until the JIT is quiet). After every fork the [judge] says which
 * comparisons are still open and the planner decides where the next fork goes. [save]
 * is called at every step of a fork (start, soak, each condition's end, the fork's end) and
 * between trials once [SAVE_EVERY] has passed since the last save, so a run that is cut short
 * keeps what it measured: a signal's hook saves [record] itself, a crash loses at most that much.
 */
class ForkRunner(
    private val scenario: Scenario,
    private val lab: Lab,
    private val judge: Judge,
    private val clock: Clock,
    private val save: (RunRecord) -> Unit,
    private val progress: (String) -> Unit = {},
) {
    private val planner = Planner(scenario)
    private val stopping = AtomicBoolean(false)
    private val announcedShort = mutableSetOf<String>()

    @Volatile private var current: Fork? = null

    /** Where the server pair in progress has spent its time so far ([ForkRecord.time] when it ends). */
    private var spent = ForkTime()

    /** When [save] last ran, on [clock]. */
    private var lastSaved: Instant? = null

    /** The latest record, for a shutdown hook that must seal it. */
    @Volatile var record: RunRecord? = null
        private set

    /** Asks the run to stop: the fork in progress is closed (its servers and driver die) and no new work starts. */
    fun stop() {
        stopping.set(true)
        runCatching { current?.close() }
    }

    fun run(start: RunRecord): RunRecord {
        val random = Random(start.seed)
        val began = clock.instant()
        var r = start.also(::keep)
        while (!stopping.get()) {
            // The verdicts are recomputed from the whole record: once per step, for both uses.
            val open = judge.open(r)
            val elapsed = Duration.between(began, clock.instant())
            when (val step = planner.next(r, open, elapsed)) {
                is Step.Stop -> return keep(r.copy(planning = planning(r, step, open)))

                is Step.NextFork -> {
                    announceLeftShort(r, step.conditions, elapsed)
                    r = fork(r, step.conditions, random)
                    announceTimeLeft(r, Duration.between(began, clock.instant()))
                }
            }
        }
        return r
    }

    /**
     * Says once, when it happens, that the planner has left a condition already measured but
     * still below the minimum forks out of the next fork: the earlier forks ran longer than
     * estimated, and the budget left will not bring it to the minimum beside the others. Such a
     * condition decides nothing, and the report says so only at the end; said now, the user can
     * stop and run again with the budget it needs. Conditions never measured were named at the start.
     */
    private fun announceLeftShort(r: RunRecord, next: List<Condition>, elapsed: Duration) {
        val budget = scenario.budget ?: return
        val short = planner.belowMinimum(r)
        val newlyLeft = short.filter { c -> c.forks > 0 && next.none { it.label == c.condition } && announcedShort.add(c.condition) }
        if (newlyLeft.isEmpty()) return
        val index = (r.forks.maxOfOrNull { it.index } ?: 0) + 1
        val needed = (elapsed.seconds + planner.secondsToMinimum(r, short) + 59) / 60
        val (them, they) = if (newlyLeft.size == 1) "it" to "it" else "them" to "they"
        progress(
            "fork $index leaves out " +
                "${newlyLeft.joinToString {
                    "${it.condition} (${it.forks} of ${scenario.forksOf(scenario.condition(it.condition))} forks)"
                }}" +
                ": the earlier forks took longer than estimated, and the ${(budget - elapsed).toMinutes()} min left of the budget of " +
                "${budget.toMinutes()} min " +
                "cannot bring $them to the minimum beside the others, so $they will decide nothing unless a later fork makes room " +
                "(--budget ${needed}m would cover every condition)",
        )
    }

    /**
     * After each fork, the time the minimum forks still need at this run's own pace: its
     * forks' start-up, soak and each condition as measured, which the scenario's estimate
     * (a model of the reference machine) cannot know: a scenario whose soaks or warm-ups run
     * long (small heaps, a shaped link) takes longer than its estimate
     * (docs/journal/2026-11-30-time-estimates.md).
     */
    private fun announceTimeLeft(r: RunRecord, elapsed: Duration) {
        // Under a budget the budget says when the run ends, and [announceLeftShort] what it leaves out.
        if (stopping.get() || scenario.budget != null) return
        val short = planner.belowMinimum(r).takeIf { it.isNotEmpty() } ?: return
        val index = r.forks.maxOfOrNull { it.index } ?: return
        val left = (planner.secondsToMinimum(r, short) + 59) / 60
        val more = if (scenario.maxForks > scenario.forks) {
            ", more where a comparison stays open " +
                "(up to ${scenario.forksText(atMost = true)} forks)"
        } else {
            ""
        }
        progress(
            "fork $index done after ${elapsed.toMinutes()} min; about $left min left for the minimum of ${scenario.forksText()} forks " +
                "at this run's pace$more",
        )
    }

    private fun planning(r: RunRecord, stop: Step.Stop, open: Map<String, List<OpenComparison>>): PlanningRecord {
        val short = planner.belowMinimum(r)
        return PlanningRecord(stop.reason, open.values.flatten(), short, planner.secondsToMinimum(r, short).takeIf { short.isNotEmpty() })
    }

    private fun keep(r: RunRecord): RunRecord {
        record = r
        save(r)
        lastSaved = clock.instant()
        return r
    }

    /**
     * Keeps [r] between trials: saved only once [SAVE_EVERY] has passed since the last save.
     * Writing run.json is the runner's own time between trials, and the record grows with
     * every trial, so a save after each one costs more with every fork
     * (docs/journal/2026-12-02-time-to-a-verdict.md).
     */
    private fun keepBetweenTrials(r: RunRecord): RunRecord {
        val last = lastSaved
        if (last == null || Duration.between(last, clock.instant()) >= SAVE_EVERY) return keep(r)
        record = r
        return r
    }

    /**
     * One fork: a fresh server pair per variant (one pair without variants), each started,
     * soaked and measured on the fork's conditions; the record after it. The first fork
     * starts with the first variant, whose probes calibrate every condition's rate (each
     * variant its own when they differ in network); later forks take the variants in
     * shuffled order.
     */
    private fun fork(before: RunRecord, conditions: List<Condition>, random: Random): RunRecord {
        val index = (before.forks.maxOfOrNull { it.index } ?: 0) + 1
        val live = liveVariants(before, scenario)
        val order = if (index == 1) live.take(1) + live.drop(1).shuffled(random) else live.shuffled(random)
        var r = before
        for (variant in order) {
            if (stopping.get()) break
            r = pair(r, index, variant, conditions, random)
        }
        return r
    }

    /** One server pair of a fork: start, check its settings, soak, measure the conditions. */
    private fun pair(before: RunRecord, index: Int, variant: Variant?, conditions: List<Condition>, random: Random): RunRecord {
        var fork = ForkRecord(index, conditions.map { it.label }, clock.instant().toString(), ForkStatus.RUNNING, variant = variant?.name)
        spent = ForkTime()
        var r = keep(before.withFork(fork))
        val which = variant?.let { " (variant ${it.name})" } ?: ""
        progress("fork $index: starting fresh server JVMs$which for ${conditions.size} condition(s)")
        val servers = try {
            timed(ForkPart.START) { lab.startFork(index, variant) }
        } catch (e: ServerSettingRejected) {
            if (variant == null) {
                keep(r.withFork(fork.ended(ForkStatus.FAILED, e.message)))
                throw e
            }
            return rejected(r, fork, e.message ?: Texts.EN("rejected.servers"))
        } catch (e: Exception) {
            return keep(r.withFork(fork.ended(ForkStatus.FAILED, Texts.EN("failure.servers-start", e.message))))
        }
        current = servers
        try {
            servers.use {
                if (variant != null) {
                    val effective = try {
                        servers.effectiveSettings()
                    } catch (e: Exception) {
                        return keep(r.withFork(fork.ended(ForkStatus.FAILED, Texts.EN("failure.settings-unread", e.message))))
                    }
                    fork = fork.copy(settings = VariantSettings.recorded(variant, effective))
                    val wrong = VariantSettings.mismatches(variant, effective)
                    if (wrong.isNotEmpty()) return rejected(r, fork, Texts.EN("rejected.not-taken", wrong.joinToString("; ")))
                }
                fork = fork.copy(soak = timed(ForkPart.SOAK) { soak(servers, conditions, index) })
                r = keep(r.withFork(fork))
                for (condition in conditions.shuffled(random)) {
                    val outcome = measureCondition(servers, condition, fork, r, random, variant)
                    fork = outcome.fork
                    r = outcome.record
                    if (outcome.serverDied) return keep(r.withFork(fork.ended(ForkStatus.FAILED, Texts.EN("failure.server-died"))))
                    if (stopping.get()) return keep(r.withFork(fork.ended(ForkStatus.INTERRUPTED, Texts.EN("failure.stopped"))))
                }
            }
        } finally {
            current = null
        }
        return keep(r.withFork(fork.ended(ForkStatus.COMPLETE, null)))
    }

    /** A variant the servers refused: recorded once with their words, and not started again in this run. */
    private fun rejected(r: RunRecord, fork: ForkRecord, why: String): RunRecord {
        progress("fork ${fork.index}: variant ${fork.variant} rejected, the run goes on without it: $why")
        return keep(r.withFork(fork.ended(ForkStatus.REJECTED, why)))
    }

    private class ConditionOutcome(val fork: ForkRecord, val record: RunRecord, val serverDied: Boolean)

    /** Capacity probes of the protocols, calibration when needed, then every arm at the fixed rate once per round. */
    private fun measureCondition(
        servers: Fork,
        condition: Condition,
        start: ForkRecord,
        before: RunRecord,
        random: Random,
        variant: Variant?,
    ): ConditionOutcome {
        var fork = start
        var r = before
        fun measure(cell: Cell, kind: TrialKind, offered: LoadLevel, round: Int = 1): Boolean {
            if (stopping.get()) return true
            val arm = Variant.label(cell.arm.label, variant?.name)
            // Capacity probes too: in cost mode they set the rate of every later trial. Later
            // rounds follow trials at the same load, with every arm's code already warm.
            if (round == 1) {
                fork = fork.copy(warmIns = fork.warmIns + timed(ForkPart.WARM_UPS) { warmUp(servers, cell, arm, offered, fork.index) })
                r = keepBetweenTrials(r.withFork(fork))
            }
            if (stopping.get()) return true
            val sequence = r.trials.size + 1
            val compared = if (scenario.mode == Mode.CAPACITY) TrialKind.CAPACITY else TrialKind.COST
            val rounds = if (kind == compared && scenario.roundsOf(condition) > 1) " round $round/${scenario.roundsOf(condition)}" else ""
            progress(
                "fork ${fork.index} [trial $sequence] $arm ${condition.label} " +
                    "${kind.name.lowercase()} ${offered.label}$rounds",
            )
            val startedAt = clock.instant().toString()
            val sample = timed(partOf(cell, kind)) { servers.measure(LoadRun(cell, offered, scenario.trialDuration(offered))) }
            // A stop closes the servers under a running trial: that is an interruption, not a death.
            val interrupted = stopping.get()
            val alive = interrupted || servers.alive()
            val error = sample.error?.let { if (interrupted) "interrupted: $it" else it }
                ?: if (!alive) "a server died during this trial" else null
            val trial = TrialRecord(
                condition.label, arm, kind, fork.index, sequence, startedAt, TrialLoad.of(offered),
                sample.figures, sample.correctAnswers, sample.wrongAnswers, sample.flags, error, null, sample.gateway, round, sample.driver,
                sample.dataServer,
            )
            fork = fork.copy(trials = fork.trials + trial)
            r = keepBetweenTrials(r.withFork(fork))
            return alive
        }

        val probed = if (scenario.mode == Mode.CAPACITY) scenario.arms else scenario.arms.filterIsInstance<Arm.Of>()
        val closed = condition.load as? LoadLevel.Vus
        // With probes in the first fork only, every variant of that fork is still probed: its capacity is context.
        val calibration = calibrationOf(r, condition, variant)
        val probe = scenario.mode == Mode.CAPACITY || scenario.probes == Probes.EVERY_FORK || calibration == null ||
            calibration.fork == fork.index
        // In capacity mode the probes are the compared trials: they get the rounds.
        val probeRounds = if (scenario.mode == Mode.CAPACITY) scenario.roundsOf(condition) else 1
        if (closed != null && probe) {
            for (round in 1..probeRounds) {
                for (arm in probed.shuffled(random)) {
                    if (!measure(Cell(condition, arm), TrialKind.CAPACITY, closed, round)) return ConditionOutcome(fork, r, true)
                }
            }
            // Only where the probes set the rate: later forks keep the first fork's, and a kept rate (--rates-of) is not cut.
            val reprobe = if (calibration == null && pinnedRate(r, condition, variant) == null) {
                slowestBelowFixedRate(condition, fork, probed, variant)
            } else {
                null
            }
            reprobe?.let { arm ->
                progress(
                    "fork ${fork.index}: ${arm.label} ${condition.label} probed below what the scenario's fixed rate needs; " +
                        "probing it once more",
                )
                // Round 2: the arm is warm from its first probe.
                if (!measure(Cell(condition, arm), TrialKind.CAPACITY, closed, round = 2)) return ConditionOutcome(fork, r, true)
            }
        }
        val (afterTools, toolsAlive) = seedTools(servers, condition, fork, random)
        fork = afterTools
        r = keep(r.withFork(fork))
        if (!toolsAlive) return ConditionOutcome(fork, r, true)
        if (scenario.mode == Mode.COST) {
            val offered = costLoad(condition, fork, r, variant)?.also { (rate, calibration) ->
                if (calibration != null) r = keep(r.copy(calibrations = r.calibrations + calibration))
            }?.first
            if (offered == null) {
                progress("fork ${fork.index}: ${condition.label} has no valid capacity probe to calibrate its rate; cost trials skipped")
            } else {
                for (round in 1..scenario.roundsOf(condition)) {
                    for (arm in scenario.arms.shuffled(random)) {
                        if (!measure(Cell(condition, arm), TrialKind.COST, offered, round)) return ConditionOutcome(fork, r, true)
                    }
                }
            }
        }
        return ConditionOutcome(fork, keep(r), false)
    }

    /**
     * Seed 003's own tools on [condition], as the seed ran them (`-n` the scenario's
     * requests for the condition's virtual users, `-c` those virtual users), each tool
     * once, in shuffled order, after the condition's capacity trials. The fork after
     * them, and false when a server died under one.
     */
    private fun seedTools(servers: Fork, condition: Condition, start: ForkRecord, random: Random): Pair<ForkRecord, Boolean> {
        val vus = (condition.load as? LoadLevel.Vus)?.vus ?: return start to true
        val requests = scenario.seedTools[vus] ?: return start to true
        var fork = start
        for (tool in SeedTool.entries.filter { it.protocol in scenario.protocols }.shuffled(random)) {
            if (stopping.get()) break
            progress("fork ${fork.index} ${tool.label} ${condition.label} -n $requests -c $vus (seed 003's own tool)")
            val startedAt = clock.instant().toString()
            val sample = timed(ForkPart.TOOLS) { servers.runSeedTool(Cell(condition, Arm.Of(tool.protocol)), ToolRun(tool, vus, requests)) }
            val alive = stopping.get() || servers.alive()
            val error = sample.error ?: if (!alive) "a server died during this run" else null
            fork = fork.copy(
                toolRuns = fork.toolRuns + ToolRunRecord(
                    condition.label, tool.label, tool.protocol.label, fork.index, startedAt,
                    vus, requests, sample.figures, sample.correctAnswers, sample.failures, sample.flags, error,
                ),
            )
            if (!alive) return fork to false
        }
        return fork to true
    }

    /**
     * The fixed rate of a condition: as given for an open-model condition, or by the
     * scenario's [Scenario.costRates]; otherwise
     * [Scenario.utilisation] of the slowest protocol's capacity, calibrated once, in the
     * first fork that probed the condition, and kept for every later fork. One rate serves
     * every variant (the same operating point), unless the variants differ in network: then
     * each variant's own probes set its own rate, because a rate that half-loads one link
     * can be beyond the capacity of another (1mb: region's 42/s against wan's ~12/s).
     */
    private fun costLoad(condition: Condition, fork: ForkRecord, r: RunRecord, variant: Variant?): Pair<LoadLevel, Calibration?>? {
        (condition.load as? LoadLevel.Rate)?.let { return it to null }
        val vus = (condition.load as LoadLevel.Vus).vus
        calibrationOf(r, condition, variant)?.let { return fixedRate(it.ratePerSecond, vus) to null }
        pinnedRate(r, condition, variant)?.let { return keptRate(condition, fork, it, r.pinnedRates!!.fromRun, vus) }
        val declared = scenario.costRates[condition.target.name]
        val slowest = bestCapacities(fork, condition).minByOrNull { it.value }
            // A fixed rate needs no probe; without one there is nothing to record its share of.
            ?: return declared?.let { fixedRate(it, vus) to null }
        val rate = declared?.let { onThisMachine(condition, it, slowest.value, slowest.key) }
            ?: maxOf(1, (slowest.value * scenario.utilisation).toInt())
        val load = fixedRate(rate, vus)
        return load to Calibration(
            condition.label, fork.index, slowest.value, slowest.key, load.perSecond, load.maxVus, rateOwner(variant),
            declared = declared != null,
            scenarioRate = declared?.takeIf { it != rate },
        )
    }

    /**
     * Each probed arm's capacity under [condition] in [fork] (arm label to correct answers a
     * second): the best of its valid probes. A disturbance (a wave of compilation, a busy
     * neighbour) can only make a probe read low, and the slowest arm's probe sets the rate of
     * the whole run.
     */
    private fun bestCapacities(fork: ForkRecord, condition: Condition): Map<String, Double> = fork.trials.filter {
        it.condition ==
            condition.label &&
            it.kind == TrialKind.CAPACITY &&
            it.valid
    }
        .mapNotNull { t -> t.figures[Figure.THROUGHPUT]?.let { t.arm to it } }
        .groupBy({ it.first }, { it.second }).mapValues { (_, capacities) -> capacities.max() }

    /**
     * The slowest probed arm when its one probe would cut the scenario's fixed rate for
     * [condition], else null. One probe decided the operating point of a whole run: on a
     * slower VM two runs of one commit an hour apart read 1,359/s and 3,054/s for the slowest
     * 1 KB protocol and measured at 750/s and 1,500/s. Probed once more before the rate is cut,
     * a low reading that was a disturbance does not move the run to another operating point.
     */
    private fun slowestBelowFixedRate(condition: Condition, fork: ForkRecord, probed: List<Arm>, variant: Variant?): Arm? {
        if (scenario.mode != Mode.COST) return null
        val declared = scenario.costRates[condition.target.name] ?: return null
        val slowest = bestCapacities(fork, condition).minByOrNull { it.value } ?: return null
        if (FixedRates.onMachine(declared, slowest.value, FixedRates.ceiling(scenario.utilisation)) >= declared) return null
        // Probed once more only once: a second probe that also reads low is the machine's answer.
        val probes = fork.trials.count { it.condition == condition.label && it.kind == TrialKind.CAPACITY && it.arm == slowest.key }
        return probed.firstOrNull { Variant.label(it.label, variant?.name) == slowest.key }?.takeIf { probes < 2 }
    }

    /** The scenario's fixed rate, halved where this machine's probe puts it near saturation ([FixedRates]); said when it is. */
    private fun onThisMachine(condition: Condition, declared: Int, capacity: Double, slowestArm: String): Int {
        val ceiling = FixedRates.ceiling(scenario.utilisation)
        val rate = FixedRates.onMachine(declared, capacity, ceiling)
        if (rate != declared) {
            fun share(perSecond: Int) = "%.1f%%".format(java.util.Locale.ROOT, 100.0 * perSecond / capacity)
            progress(
                "${condition.label}: the scenario fixes $declared/s, ${share(declared)} of the slowest protocol's capacity " +
                    "on this machine ($slowestArm, ${"%.0f".format(java.util.Locale.ROOT, capacity)}/s), " +
                    "above the ${(ceiling * 100).toInt()}% a fixed rate may take; " +
                    "this run measures at $rate/s (${share(rate)}), so its verdicts are not at the operating point of runs at $declared/s",
            )
        }
        return rate
    }

    /**
     * A cost trial's fixed rate for a condition of [vus] closed-model users. In topology
     * direct the driver starts with [LoadLevel.directStartVus] connections (more when none is idle, up
     * to [LoadLevel.rateVus]) and warms them before the trial (the lab's `DriverPlans.connectionWarmUp`): each
     * trial opens its connections anew, and warming a pool of 50 would cost 150 calls (1 MB
     * across wan: 12 s of the link) where 20 connections hold the rate.
     */
    private fun fixedRate(perSecond: Int, vus: Int): LoadLevel.Rate {
        val maxVus = LoadLevel.rateVus(vus)
        return LoadLevel.Rate(
            perSecond,
            maxVus,
            startVus = if (scenario.topology == Topology.DIRECT) LoadLevel.directStartVus(vus) else maxVus,
        )
    }

    /**
     * An earlier run's rate for [condition] (`--rates-of`), kept whatever this machine's probe
     * says: the point is one operating point for two runs. The probe still gives its share
     * of this run's capacity, and a share above what a fixed rate may take is said.
     */
    private fun keptRate(
        condition: Condition,
        fork: ForkRecord,
        kept: Calibration,
        fromRun: String,
        vus: Int,
    ): Pair<LoadLevel, Calibration> {
        val load = fixedRate(kept.ratePerSecond, vus)
        val slowest = bestCapacities(fork, condition).minByOrNull { it.value }
        val ceiling = FixedRates.ceiling(scenario.utilisation)
        if (slowest != null && load.perSecond > slowest.value * ceiling) {
            progress(
                "${condition.label}: ${load.perSecond}/s, the rate of run $fromRun, is " +
                    "%.1f%%".format(java.util.Locale.ROOT, 100.0 * load.perSecond / slowest.value) +
                    " of the slowest protocol's capacity on this machine (${slowest.key}), above the ${(ceiling * 100).toInt()}% " +
                    "a fixed rate may take; kept as --rates-of asks: see the trials' saturation flags",
            )
        }
        return load to Calibration(
            condition.label, fork.index, slowest?.value ?: kept.capacityRps, slowest?.key ?: kept.slowestProtocol,
            load.perSecond, load.maxVus, kept.variant, declared = kept.declared, pinnedFrom = fromRun,
        )
    }

    /** The rate an earlier run chose for [condition] under [variant]'s rate owner, when this run keeps that run's rates. */
    private fun pinnedRate(r: RunRecord, condition: Condition, variant: Variant?): Calibration? =
        r.pinnedRates?.rates?.firstOrNull { it.condition == condition.label && it.variant == rateOwner(variant) }

    private fun calibrationOf(r: RunRecord, condition: Condition, variant: Variant?): Calibration? = r.calibrations.firstOrNull {
        it.condition ==
            condition.label &&
            it.variant == rateOwner(variant)
    }

    /** The variant that has a rate of its own (when variants differ in network), else null: one rate for all. */
    private fun rateOwner(variant: Variant?): String? = variant?.name?.takeIf { ratePerVariant }

    private val ratePerVariant = scenario.variants.any { it.network != null }

    /** Every endpoint of the fork in one mix at a few virtual users, window after window, until steady or the cap. */
    private fun soak(servers: Fork, conditions: List<Condition>, index: Int): SoakRecord {
        val soak = scenario.soak
        val endpoints = conditions.flatMap(::warmCells)
        val cells = SoakMix.weighted(endpoints)
        val acrossLink = servers.linkRoundTripMs > 0
        val vus = SoakPolicy.vusAcross(soak.vus, servers.linkRoundTripMs)
        val rule = if (acrossLink) {
            "until the JIT is quiet over ${Soak.STEADY_WINDOWS} windows of ${soak.window.seconds} s (across the link's round trip of " +
                "${"%.1f".format(java.util.Locale.ROOT, servers.linkRoundTripMs)} ms: ${soak.vus} users and more, " +
                "and throughput follows the link)"
        } else {
            "until steady (±${(soak.tolerance * 100).toInt()}% and the JIT quiet over ${Soak.STEADY_WINDOWS} windows " +
                "of ${soak.window.seconds} s)"
        }
        progress("fork $index: soaking ${endpoints.size} endpoints at $vus virtual users $rule; ${soak.min.seconds}-${soak.max.seconds} s")
        val steady: (List<SoakWindow>) -> Boolean =
            if (acrossLink) SoakPolicy::quietAcrossLink else { w -> SoakPolicy.steady(w, soak.tolerance) }
        return settle(servers, cells, LoadLevel.Vus(vus), soak.min, soak.max, steady = steady).copy(vus = vus).also {
            progress("fork $index: soak ${if (it.settled) "settled" else "NOT settled"} after ${it.seconds.toLong()} s")
        }
    }

    /**
     * A full collection of both servers' heaps, then one arm alone at its trial's load, in
     * short windows, until the JIT compilers were quiet in the last [Soak.ARM_QUIET_WINDOWS]
     * (see [WarmInRecord]); at most [Soak.WARM_UP_CAP]. The collection first, so that the
     * warm-up brings the heap to this arm's own state: without it a trial inherits what the
     * trials and conditions before it left in the old generation, and pays for collecting
     * it (docs/journal/2026-11-25-collected-heap-before-warm-up.md).
     */
    private fun warmUp(servers: Fork, cell: Cell, arm: String, offered: LoadLevel, index: Int): WarmInRecord {
        val collected = runCatching { servers.collectGarbage() }
        collected.exceptionOrNull()?.let {
            progress("fork $index: could not collect the servers' heaps before $arm's warm-up: ${it.message}")
        }
        val soak = settle(
            servers,
            listOf(cell),
            offered,
            Duration.ZERO,
            minOf(Soak.WARM_UP_CAP, scenario.soak.max),
            Soak.WARM_UP_WINDOW,
            SoakPolicy::armQuiet,
        )
        if (!soak.settled) {
            progress(
                "fork $index: $arm ${cell.condition.label} warm-up at ${offered.label} NOT quiet after ${soak.seconds.toLong()} s",
            )
        }
        return WarmInRecord(
            cell.condition.label,
            TrialLoad.of(offered),
            soak,
            arm,
            collected.getOrNull(),
            collected.exceptionOrNull()?.let { it.message ?: it.javaClass.simpleName } ?: collected.getOrNull()?.dataServerProblem,
        )
    }

    /** The endpoints a condition's arms call; an A/A copy calls its protocol's. */
    private fun warmCells(condition: Condition) = scenario.arms.filter { it !is Arm.Replica }.map { Cell(condition, it) }

    /** Runs a mix at [load], window after window, until [steady] says so (not before [floor]) or [cap]. */
    private fun settle(
        servers: Fork,
        cells: List<Cell>,
        load: LoadLevel,
        floor: Duration,
        cap: Duration,
        window: Duration = scenario.soak.window,
        steady: (List<SoakWindow>) -> Boolean = { SoakPolicy.steady(it, scenario.soak.tolerance) },
    ): SoakRecord {
        val began = clock.instant()
        val windows = mutableListOf<SoakWindow>()
        return try {
            servers.startMix(cells, load, cap.plusSeconds(30)).use { mix ->
                var steady = false
                var elapsed = Duration.ZERO
                while (!stopping.get() && elapsed < cap && !(steady && elapsed >= floor)) {
                    windows += mix.window(window)
                    elapsed = Duration.between(began, clock.instant())
                    steady = steady(windows)
                }
                SoakRecord(windows.toList(), steady, seconds(began))
            }
        } catch (e: Exception) {
            SoakRecord(windows.toList(), false, seconds(began), error = e.message ?: e.javaClass.simpleName)
        }
    }

    private fun seconds(since: Instant) = Duration.between(since, clock.instant()).toMillis() / 1000.0

    /** Runs [block], adding its wall time to [part] of the pair in progress. */
    private fun <T> timed(part: ForkPart, block: () -> T): T {
        val began = clock.instant()
        try {
            return block()
        } finally {
            spent = spent.plus(part, seconds(began))
        }
    }

    /** Which part of a fork's time a trial is: probes set rates in cost mode, the A/A copy's trials are the check. */
    private fun partOf(cell: Cell, kind: TrialKind): ForkPart = when {
        kind == TrialKind.CAPACITY && scenario.mode == Mode.COST -> ForkPart.PROBES
        cell.arm is Arm.Replica -> ForkPart.AA_TRIALS
        else -> ForkPart.TRIALS
    }

    private fun RunRecord.withFork(fork: ForkRecord): RunRecord = copy(
        forks =
        forks.filter { it.index != fork.index || it.variant != fork.variant } + fork,
    )

    private fun ForkRecord.ended(status: ForkStatus, failure: String?): ForkRecord {
        val now = clock.instant()
        val wall = Duration.between(Instant.parse(startedAt), now).toMillis() / 1000.0
        return copy(status = status, failure = failure, finishedAt = now.toString(), time = spent.closed(wall))
    }

    companion object {
        /** Between trials, how much measuring a crash (not a signal) may cost: the longest run.json goes unsaved. */
        val SAVE_EVERY: Duration = Duration.ofSeconds(30)
    }
}

/**
 * The variants a new fork starts pairs for: every variant not yet rejected, in scenario
 * order; a single null (the run's own settings) for a scenario without variants.
 */
fun liveVariants(record: RunRecord, scenario: Scenario): List<Variant?> {
    if (scenario.variants.isEmpty()) return listOf(null)
    val rejected = record.forks.filter { it.status == ForkStatus.REJECTED }.mapNotNull { it.variant }.toSet()
    return scenario.variants.filter { it.name !in rejected }
}
