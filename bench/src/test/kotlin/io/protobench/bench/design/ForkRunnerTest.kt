package io.protobench.bench.design

import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.ForkCount
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.ForkTime
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.PinnedRates
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.SoakRecord
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialLoad
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.measure.WarmInRecord
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ForkValue
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.run.RunStore
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Soak
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.StepClock
import io.protobench.bench.text.Texts
import io.protobench.contract.metrics.GcUsage
import io.protobench.contract.metrics.JvmFacts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset

/** The fork design without servers: a fake lab with known true costs, a clock that only moves when work is done. */
class ForkRunnerTest {
    /**
     * Every arm has a true CPU cost per request (µs) and capacity follows from it. Each
     * fork multiplies every arm by the same random "JVM luck", each trial adds its own noise.
     */
    private class FakeLab(
        val clock: StepClock,
        val cost: Map<String, Double>,
        val forkNoise: Double = 0.04,
        val trialNoise: Double = 0.02,
        val soakWindowsToSettle: Int = 4,
        val dieInForkAtTrial: Pair<Int, Int>? = null,
        seed: Int = 7,
        /** A variant's factor on each protocol's hop cost: variant → protocol → factor (1 when absent). */
        val variantEffect: Map<String, Map<String, Double>> = emptyMap(),
        /** What the servers report for each variant; by default exactly what it asked for. */
        val reported: (Variant) -> Map<String, String> = { it.gateway + it.dataServer },
        /** Variants whose servers refuse to start, with the JVM's words. */
        val refused: Map<String, String> = emptyMap(),
        /** The JIT compilers never go quiet: every window reports them busy. */
        val compilingForever: Boolean = false,
        /** The round trip of the link in front of the data-server, in ms (0: loopback). */
        val roundTripMs: Double = 0.0,
        /** A factor on the throughput of each protocol's first capacity probe in a fork: a disturbed probe. */
        val firstProbeFactor: Map<String, Double> = emptyMap(),
    ) : Lab {
        val random = java.util.Random(seed.toLong())
        fun gaussian() = random.nextGaussian()
        val started = mutableListOf<Int>()

        /** Per fork, the variants started in order. */
        val pairs = mutableListOf<Pair<Int, String?>>()
        val runs = mutableListOf<Pair<Int, LoadRun>>()

        /** Per fork, in order: "mix <load> <arms>" for every mix and "<kind> <arm>" for every trial. */
        val events = mutableMapOf<Int, MutableList<String>>()
        var closed = 0

        override fun startFork(index: Int, variant: Variant?): Fork {
            pairs += index to variant?.name
            variant?.let { refused[it.name] }?.let { throw ServerSettingRejected(it) }
            started += index
            clock.advance(Duration.ofSeconds(10))
            val luck = 1 + forkNoise * gaussian()
            val log = events.getOrPut(index) { mutableListOf() }
            return object : Fork {
                var trials = 0
                var dead = false
                val probedArms = mutableSetOf<String>()

                // The JVMs' warmth persists from one mix to the next within a fork.
                var windows = 0

                override val linkRoundTripMs get() = roundTripMs

                override fun measure(run: LoadRun): Sample {
                    clock.advance(run.duration)
                    runs += index to run
                    log += "${if (run.offered is LoadLevel.Rate) "cost" else "capacity"} ${run.cell.arm.label}"
                    trials++
                    if (dieInForkAtTrial == index to trials) dead = true
                    val harness = 300.0
                    val protocol = protocolOf(run.cell.arm)
                    val effect = variant?.let { variantEffect[it.name]?.get(protocol) } ?: 1.0
                    val hop = cost.getValue(protocol) * effect * luck * (1 + trialNoise * gaussian())
                    val total = harness + hop
                    val disturbed = run.offered is LoadLevel.Vus && probedArms.add(run.cell.arm.label)
                    val figures = Figures.of(
                        Figure.THROUGHPUT to 2e6 / (total + 150) * (if (disturbed) firstProbeFactor[protocol] ?: 1.0 else 1.0),
                        Figure.TOTAL_CPU_US to total,
                        Figure.DRIVER_CPU_US to 150.0,
                        Figure.HOP_P50 to hop / 100,
                    )
                    return Sample(figures, Fixtures.FINE_ANSWERS, 0, dataServer = dataServerUsage)
                }

                override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix = object : Mix {
                    init {
                        log += "mix ${load.label} ${cells.joinToString(",") { it.arm.label }}"
                    }
                    override fun window(length: Duration): SoakWindow {
                        clock.advance(length)
                        windows++
                        // JIT warm-up: throughput climbs until the window given, then holds.
                        val warm = minOf(windows, soakWindowsToSettle).toDouble() / soakWindowsToSettle
                        return SoakWindow(1000 * warm, 500 / warm, jitShare = if (compilingForever) 1.0 else 0.0)
                    }
                    override fun close() = Unit
                }

                override fun runSeedTool(cell: Cell, run: ToolRun): Sample {
                    clock.advance(Duration.ofSeconds(1))
                    log += "tool ${run.tool.label} -n ${run.requests} -c ${run.concurrency}"
                    val throughput = 2e6 / (300.0 + cost.getValue(protocolOf(cell.arm))) * luck
                    return Sample(Figures.of(Figure.THROUGHPUT to throughput, Figure.ERROR_RATE to 0.0), run.requests.toLong(), 0)
                }

                override fun alive() = !dead && !closedNow
                override fun collectGarbage(): io.protobench.contract.metrics.HeapsCollected {
                    log += "gc"
                    return io.protobench.contract.metrics.HeapsCollected(
                        io.protobench.contract.metrics.HeapCollected(90L shl 20, 40),
                        io.protobench.contract.metrics.HeapCollected(60L shl 20, 30),
                    )
                }
                override fun effectiveSettings() = reported(variant!!)
                var closedNow = false
                override fun close() {
                    closed++
                    closedNow = true
                }
            }
        }

        private fun protocolOf(arm: Arm) = when (arm) {
            is Arm.Of -> arm.protocol.label
            is Arm.Replica -> arm.protocol.label
            is Arm.OnClient -> arm.label
            Arm.NullHop -> Arm.NullHop.LABEL
        }
    }

    private fun scenario(extra: String = "", forks: Int = 3, maxForks: Int = 3, sizes: String = "1kb") = ScenarioParser.parse(
        """
        name: fake
        sizes: [$sizes]
        protocols: [HTTP/JSON, gRPC/Unary]
        load: {model: closed, vus: [10]}
        duration: 5s
        forks: $forks
        maxForks: $maxForks
        soak: {window: 3s, min: 6s, max: 30s}
        ${extra.replace("\n", "\n" + " ".repeat(8))}
        """.trimIndent(),
        "fake.yaml",
    )

    private fun start(s: Scenario) = RunRecord(
        runId = "test",
        scenario = s.toRecord(),
        options = emptyMap(),
        environment = RunEnvironment.NONE,
        startedAt = "2026-01-01T00:00:00Z",
        status = RunStatus.RUNNING,
        seed = 42,
    )

    private fun run(s: Scenario, lab: FakeLab, saves: MutableList<RunRecord> = mutableListOf()): RunRecord =
        ForkRunner(s, lab, Analysis.judge, lab.clock, {
            saves +=
                it
        }).run(start(s))

    private val clearCosts = mapOf("HTTP/JSON" to 400.0, "gRPC/Unary" to 150.0, Arm.NullHop.LABEL to 0.0)

    @Test
    fun `every fork soaks, probes each protocol, then measures every arm once at half the slowest capacity`() {
        val s = scenario()
        val lab = FakeLab(StepClock(), clearCosts)
        val saves = mutableListOf<RunRecord>()
        val r = run(s, lab, saves)

        assertThat(r.forks.map { it.status }).containsOnly(ForkStatus.COMPLETE).hasSize(3)
        assertThat(r.forks).allSatisfy { fork ->
            assertThat(fork.soak!!.settled).isTrue()
            assertThat(fork.trials.filter { it.kind == TrialKind.CAPACITY }.map { it.arm })
                .containsExactlyInAnyOrder("HTTP/JSON", "gRPC/Unary")
            assertThat(fork.trials.filter { it.kind == TrialKind.COST }.map { it.arm })
                .containsExactlyInAnyOrder("HTTP/JSON", "gRPC/Unary", Arm.NullHop.LABEL)
        }
        val calibration = r.calibrations.single()
        assertThat(calibration.fork).isEqualTo(1)
        assertThat(calibration.slowestProtocol).isEqualTo("HTTP/JSON")
        assertThat(calibration.ratePerSecond).isEqualTo((calibration.capacityRps * 0.5).toInt())
        assertThat(lab.runs.filter { it.second.offered is LoadLevel.Rate }.map { (it.second.offered as LoadLevel.Rate).perSecond })
            .containsOnly(calibration.ratePerSecond)
        assertThat(lab.closed).isEqualTo(3)
        assertThat(r.planning!!.stoppedBecause).contains("decided")
    }

    @Test
    fun `run json is saved at every step of a fork and between trials once SAVE_EVERY has passed, so a crash loses at most that much`() {
        // 5 rounds of 3 arms at 5 s: a condition measures for well over SAVE_EVERY.
        val s = scenario("rounds: 5")
        val lab = FakeLab(StepClock(), clearCosts)
        val saves = mutableListOf<Pair<Instant, RunRecord>>()
        val r = ForkRunner(s, lab, Analysis.judge, lab.clock, { saves += lab.clock.instant() to it }).run(start(s))

        assertThat(saves.last().second).isEqualTo(r)
        assertThat(saves.size).isLessThan(r.trials.size) // not after every trial
        // The longest step between two trials' starts (a trial, the next arm's warm-up); a trial
        // is saved at the first step after SAVE_EVERY has passed since the save before it.
        val step = r.forks
            .flatMap { fork -> fork.trials.map { Instant.parse(it.startedAt) }.zipWithNext { a, b -> Duration.between(a, b) } }
            .max()
        assertThat(ForkRunner.SAVE_EVERY.plus(step.multipliedBy(2))).isLessThan(Duration.ofSeconds(80))
        for (trial in r.trials) {
            val saved = saves.first { (_, record) -> record.trials.any { it.sequence == trial.sequence } }.first
            assertThat(Duration.between(Instant.parse(trial.startedAt), saved))
                .isLessThanOrEqualTo(ForkRunner.SAVE_EVERY.plus(step.multipliedBy(2)))
        }
        assertThat(r.forks.map { it.index }).allSatisfy { index ->
            assertThat(saves.any { (_, saved) -> saved.forks.any { it.index == index && it.status == ForkStatus.COMPLETE } }).isTrue()
        }
    }

    @Test
    fun `a direct run's cost trials start only the condition's users, so each connection makes many calls, and through the gateway k6 starts its whole pool`() {
        fun costLoads(extra: String) = FakeLab(StepClock(), clearCosts).also { run(scenario(extra), it) }
            .runs.map { it.second.offered }.filterIsInstance<LoadLevel.Rate>()
        assertThat(costLoads("topology: direct")).isNotEmpty().allSatisfy {
            assertThat(it.startVus).isEqualTo(20)
            assertThat(it.maxVus).isEqualTo(LoadLevel.MIN_RATE_VUS)
        }
        assertThat(costLoads("").map { it.startVus }).isNotEmpty().containsOnly(LoadLevel.MIN_RATE_VUS)
    }

    @Test
    fun `a direct run measures no null hop, and its hop CPU is the data-server's whole CPU per request`() {
        val r = run(scenario("topology: direct"), FakeLab(StepClock(), clearCosts))
        assertThat(r.scenario.topology).isEqualTo(Topology.DIRECT)
        assertThat(r.trials.map { it.arm }).doesNotContain(Arm.NullHop.LABEL)
        val cost = Analysis.of(r).single().values.getValue(TrialKind.COST)
        assertThat(cost.getValue("gRPC/Unary").values).allSatisfy { figures ->
            assertThat(figures[Figure.HOP_CPU_US]).isNotNull().isEqualTo(figures[Figure.TOTAL_CPU_US])
        }
        // Through the gateway the same figures lose the null hop's cost; without a null hop there is no hop figure.
        val gateway = Analysis.of(r.copy(scenario = r.scenario.copy(topology = io.protobench.bench.scenario.Topology.GATEWAY)))
            .single().values.getValue(TrialKind.COST)
        assertThat(gateway.getValue("gRPC/Unary").values).allSatisfy { assertThat(it[Figure.HOP_CPU_US]).isNull() }
    }

    @Test
    fun `a trial keeps the data-server's own counters its sample carried, collector and GC figures with them, through run json`(
        @TempDir dir: Path,
    ) {
        val r = run(scenario("topology: direct"), FakeLab(StepClock(), clearCosts))

        assertThat(r.trials).isNotEmpty().allSatisfy { assertThat(it.dataServer).isEqualTo(dataServerUsage) }
        RunStore(dir).save(r)
        assertThat(RunStore.load(dir).trials.map { it.dataServer?.jvm?.collector to it.dataServer?.gc?.pauses })
            .containsOnly("ZGC generational" to 5L)
    }

    @Test
    fun `a fixed-rate trial runs long enough to hold the minimum requests, a probe runs the duration`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("minRequests: 10000"), lab)

        val rate = r.calibrations.single().ratePerSecond
        assertThat(rate * 5).isLessThan(10_000) // 5 s at this rate would hold too few
        val (cost, probes) = lab.runs.map { it.second }.partition { it.offered is LoadLevel.Rate }
        assertThat(cost.map { it.duration }.distinct()).containsExactly(Duration.ofMillis((10_000L * 1000 + rate - 1) / rate))
        assertThat(probes.map { it.duration }.distinct()).containsExactly(Duration.ofSeconds(5))
        assertThat(r.scenario.minRequests).isEqualTo(10_000)
        assertThat(MarkdownReport.render(r)).contains("too low to hold 10000 requests")

        val plain = FakeLab(StepClock(), clearCosts)
        run(scenario("minRequests: 0"), plain)
        assertThat(plain.runs.map { it.second.duration }.distinct()).containsExactly(Duration.ofSeconds(5))
    }

    @Test
    fun `a trial never runs beyond the longest trial, however low the rate`() {
        val s = scenario("minRequests: 100000")
        assertThat(s.trialDuration(LoadLevel.Rate(1, 2))).isEqualTo(Scenario.MAX_TRIAL)
        assertThat(s.trialDuration(LoadLevel.Rate(1_000_000, 2))).isEqualTo(Duration.ofSeconds(5))
        assertThat(s.trialDuration(LoadLevel.Vus(1))).isEqualTo(Duration.ofSeconds(5))
    }

    @Test
    fun `a clear difference is decided within the minimum forks, so no fork is added`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario(forks = 3, maxForks = 8), lab)
        assertThat(r.forks).hasSize(3)
        val hopCpu = Analysis.of(r).single().family(TrialKind.COST)!!.decisions.single { it.figure == Figure.HOP_CPU_US.key }
        assertThat(hopCpu.isBetter).isTrue()
        assertThat(r.planning!!.open).isEmpty()
    }

    @Test
    fun `after each fork short of the minimum the run says how long the rest takes at its own pace`() {
        val plain = scenario(forks = 3, maxForks = 3, sizes = "1kb, 1mb")
        // projectA's shape: a server pair per variant, capacity probed in the first fork only.
        val paired = scenario("probes: first-fork", forks = 3, maxForks = 3, sizes = "1kb, 1mb").copy(variants = listOf(zeroCopy, copyFrom))
        for (s in listOf(plain, paired)) {
            val said = mutableListOf<String>()
            val lab = FakeLab(StepClock(), clearCosts)
            val r = ForkRunner(s, lab, Analysis.judge, lab.clock, {}, progress = { said += it }).run(start(s))
            val lines = said.filter { "min left" in it }
            // After forks 1 and 2, none after the last: the minimum is reached.
            assertThat(lines).describedAs(s.variantNames.toString()).hasSize(2)
            assertThat(lines.first()).startsWith("fork 1 done after ").endsWith("min left for the minimum of 3 forks at this run's pace")
            // The fake lab's later forks take equal time: after fork 2 the forecast is fork 3's own time (all its pairs), to the minute
            // above.
            val third = r.forks.filter { it.index == 3 }
            val took = Duration.between(Instant.parse(third.minOf { it.startedAt }), Instant.parse(third.maxOf { it.finishedAt!! })).seconds
            fun minutesLeft(line: String) = Regex("about (\\d+) min left").find(line)!!.groupValues[1].toLong()
            assertThat(minutesLeft(lines[1]) * 60).describedAs(lines[1]).isBetween(took, took + 60)
            assertThat(minutesLeft(lines[0])).isGreaterThan(minutesLeft(lines[1]))
        }
    }

    @Test
    fun `an undecided comparison gets forks up to the maximum and is named with the forks it would take`() {
        val nearlyEqual = mapOf("HTTP/JSON" to 200.0, "gRPC/Unary" to 196.0, Arm.NullHop.LABEL to 0.0)
        val lab = FakeLab(StepClock(), nearlyEqual, forkNoise = 0.0, trialNoise = 0.15)
        val r = run(scenario(forks = 3, maxForks = 5), lab)
        assertThat(r.forks.filter { it.status == ForkStatus.COMPLETE }).hasSizeBetween(3, 5)
        assertThat(r.planning!!.open).isNotEmpty.allSatisfy {
            assertThat(it.condition).isEqualTo("size=1kb vus=10")
            assertThat(it.moreForks).isNotNull()
        }
    }

    @Test
    fun `after the minimum, a fork goes only to a condition whose open comparison would be decided within the maximum`() {
        val s = scenario(forks = 3, maxForks = 5, sizes = "1kb, 1mb")
        val conditions = s.conditions.map { it.label }
        val done = (1..3).map {
            ForkRecord(it, conditions, "2026-01-01T00:0$it:00Z", ForkStatus.COMPLETE, finishedAt = "2026-01-01T00:0$it:50Z")
        }
        val record = start(s).copy(forks = done)
        fun open(condition: String, moreForks: Int?) = OpenComparison(condition, "HTTP/JSON vs gRPC/Unary on Hop CPU/req", moreForks)
        val (small, large) = conditions
        val planner = Planner(s)

        val near = planner.next(record, mapOf(small to listOf(open(small, 40)), large to listOf(open(large, 2))), Duration.ZERO)
        assertThat(near).isEqualTo(Step.NextFork(listOf(s.conditions[1])))
        assertThat(planner.next(record, mapOf(small to listOf(open(small, null))), Duration.ZERO))
            .isEqualTo(Step.NextFork(listOf(s.conditions[0])))

        val farOnly = planner.next(record, mapOf(small to listOf(open(small, 40)), large to listOf(open(large, 3))), Duration.ZERO)
        assertThat(farOnly).isInstanceOf(Step.Stop::class.java)
        assertThat((farOnly as Step.Stop).reason).isEqualTo(
            "2 open comparison(s) would take more than the most forks allowed (5), so no fork was added for them",
        )

        val atMax = start(s).copy(
            forks = done + (4..5).map {
                ForkRecord(it, conditions, "2026-01-01T00:0$it:00Z", ForkStatus.COMPLETE, finishedAt = "2026-01-01T00:0$it:50Z")
            },
        )
        val reason = (planner.next(atMax, mapOf(large to listOf(open(large, 1))), Duration.ZERO) as Step.Stop).reason
        assertThat(reason).isEqualTo("1 condition(s) reached the most forks allowed (5) with comparisons still open")
    }

    @Test
    fun `the budget stops the planner before a fork that would not fit`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("budget: 2m", forks = 3, maxForks = 3), lab)
        assertThat(r.forks.size).isLessThan(3)
        assertThat(r.planning!!.stoppedBecause)
            .contains("cannot bring another condition to the minimum of 3 forks (the nearest needs 3 more")
    }

    @Test
    fun `a budget too small for every condition's minimum brings the first conditions to it and names the rest`() {
        fun twoSizes(budget: String) = scenario("budget: $budget", sizes = "1kb, 1mb")
        // Estimated: 27 s per fork (its first condition's 5 warm-ups 3 s longer each) and 55.5 s per condition (5 arms
        // of 11.1 s), so 3 forks of one condition take 247.5 s, of both 414 s.
        assertThat(Planner(twoSizes("6m")).firstFork()).hasSize(1)
        assertThat(Planner(twoSizes("7m")).firstFork()).hasSize(2)
        val s = twoSizes("5m")
        val (small, large) = s.conditions.map { it.label }
        assertThat(Planner(s).firstFork().map { it.label }).containsExactly(small)

        val r = run(s, FakeLab(StepClock(), clearCosts))
        assertThat(r.forks.filter { it.status == ForkStatus.COMPLETE })
            .hasSize(3).allSatisfy { assertThat(it.conditions).containsExactly(small) }
        assertThat(r.planning!!.stoppedBecause)
            .contains("cannot bring another condition to the minimum of 3 forks (the nearest needs 3 more")
        assertThat(r.planning!!.belowMinimum).containsExactly(ForkCount(large, 0))
        assertThat(r.planning!!.secondsToMinimum).isPositive()
        val measured = Analysis.of(r).single { it.condition == small }
        assertThat(measured.family(TrialKind.COST)!!.decisions.single { it.figure == Figure.HOP_CPU_US.key }.isBetter).isTrue()
        assertThat(MarkdownReport.render(r)).contains(
            "Below the minimum of 3 forks when the run stopped (1 condition(s)",
            "- $large: not measured",
            "## $large\n\nNot measured: the run stopped",
        )
    }

    @Test
    fun `under a budget a condition already measured goes on before a new one joins`() {
        val s = scenario("budget: 4m", sizes = "1kb, 10kb, 1mb")
        val (first, second, third) = s.conditions.map { it.label }
        // The third condition was measured once (a resumed run): 100 s a fork, 12 s of start-up and 88 s for its condition.
        val record = start(s).copy(
            forks = listOf(
                ForkRecord(1, listOf(third), "2026-01-01T00:00:00Z", ForkStatus.COMPLETE, finishedAt = "2026-01-01T00:01:40Z"),
            ),
        )
        val planner = Planner(s)
        val next = planner.next(record, emptyMap(), Duration.ZERO) as Step.NextFork
        // The third goes on because its two forks to the minimum fit (2 x 12 + 2 x 88 = 200 s of 240); with the first too they would take
        // 3 x 12 + 5 x 88 s.
        assertThat(next.conditions.map { it.label }).containsExactly(third)
        assertThat(planner.belowMinimum(record)).containsExactly(ForkCount(first, 0), ForkCount(second, 0), ForkCount(third, 1))
        // With 140 s left its next fork (100 s) would fit, but its two forks to the minimum would not: the reason says so.
        assertThat((planner.next(record, emptyMap(), Duration.ofSeconds(100)) as Step.Stop).reason)
            .isEqualTo(
                "the 2 min left of the budget of 4 min cannot bring another condition to the minimum of 3 forks " +
                    "(the nearest needs 2 more, about 4 min)",
            )
    }

    @Test
    fun `under a budget the time left goes to the conditions that can still reach the minimum`() {
        val s = scenario("budget: 10m", maxForks = 5, sizes = "1kb, 10kb, 1mb")
        val (first, second, third) = s.conditions.map { it.label }
        // The first fork ran longer than estimated: 12 s of start-up and 100 s per condition.
        val record = start(s).copy(
            forks = listOf(
                ForkRecord(
                    1,
                    listOf(first, second, third),
                    "2026-01-01T00:00:00Z",
                    ForkStatus.COMPLETE,
                    finishedAt = "2026-01-01T00:05:12Z",
                ),
            ),
        )
        val planner = Planner(s)
        // 300 s left: two conditions' next fork would fit (212 s), but two more forks of even
        // one condition take 224 s; two conditions left at two forks would decide nothing.
        val next = planner.next(record, emptyMap(), Duration.ofSeconds(300)) as Step.NextFork
        assertThat(next.conditions.map { it.label }).containsExactly(first)
        assertThat(planner.next(record, emptyMap(), Duration.ofSeconds(377))).isInstanceOf(Step.Stop::class.java)

        // A condition at the minimum with a comparison open gets an extra fork only where a shorter one can still reach its minimum too.
        val firstAtMinimum = record.copy(
            forks = record.forks + (2..3).map {
                ForkRecord(it, listOf(first), "2026-01-01T00:0$it:00Z", ForkStatus.COMPLETE, finishedAt = "2026-01-01T00:0${it + 1}:52Z")
            },
        )
        val open = mapOf(first to listOf(OpenComparison(first, "HTTP/JSON vs gRPC/Unary on Hop CPU/req", 1)))
        fun nextAfter(elapsed: Long) =
            (planner.next(firstAtMinimum, open, Duration.ofSeconds(elapsed)) as Step.NextFork).conditions.map { it.label }
        assertThat(nextAfter(300)).containsExactly(second)
        assertThat(nextAfter(250)).containsExactly(first, second)
        assertThat((planner.next(firstAtMinimum, open, Duration.ofSeconds(500)) as Step.Stop).reason).isEqualTo(
            "the 1 min left of the budget of 10 min cannot bring another condition to the minimum of 3 forks " +
                "(the nearest needs 2 more, about 4 min), " +
                "nor pay for the next fork (about 2 min) of a condition past it",
        )

        // Every condition at the minimum: only an extra fork is left to buy, and the reason is its cost (112 s).
        val allAtMinimum = record.copy(
            forks = record.forks + (2..3).map {
                ForkRecord(
                    it,
                    listOf(first, second, third),
                    "2026-01-01T00:0$it:00Z",
                    ForkStatus.COMPLETE,
                    finishedAt = "2026-01-01T00:0${it + 5}:12Z",
                )
            },
        )
        assertThat((planner.next(allAtMinimum, open, Duration.ofSeconds(500)) as Step.Stop).reason)
            .isEqualTo("the budget of 10 min would be exceeded by the next fork (about 2 min)")
    }

    @Test
    fun `when the budget leaves a condition already measured short of the minimum, the run says so once, as it happens`() {
        val s = scenario("budget: 10m", sizes = "1kb, 10kb, 1mb")
        val (first, second, third) = s.conditions.map { it.label }
        // Taken up again after a first fork that ran long: 12 s of start-up and 100 s per condition.
        // With 600 s left two conditions reach the minimum (424 s), all three would take 624 s.
        val resumed = start(s).copy(
            forks = listOf(
                ForkRecord(
                    1,
                    listOf(first, second, third),
                    "2026-01-01T00:00:00Z",
                    ForkStatus.COMPLETE,
                    finishedAt = "2026-01-01T00:05:12Z",
                ),
            ),
        )
        val said = mutableListOf<String>()
        val lab = FakeLab(StepClock(), clearCosts)
        ForkRunner(s, lab, Analysis.judge, lab.clock, {}, progress = { said += it }).run(resumed)

        val leftOut = said.filter { "leaves out" in it }
        assertThat(leftOut).hasSize(1)
        assertThat(leftOut.single()).startsWith("fork 2 leaves out $third (1 of 3 forks): ")
            .contains(
                "the 10 min left of the budget of 10 min cannot bring it to the minimum",
                "(--budget 11m would cover every condition)",
            )
            .doesNotContain(first, second)

        // A condition the budget never let in was named before the run began, not again here.
        val never = mutableListOf<String>()
        val twoSizes = scenario("budget: 5m", sizes = "1kb, 1mb")
        val fresh = FakeLab(StepClock(), clearCosts)
        val r = ForkRunner(twoSizes, fresh, Analysis.judge, fresh.clock, {}, progress = { never += it }).run(start(twoSizes))
        assertThat(r.planning!!.belowMinimum).isNotEmpty()
        assertThat(never).noneMatch { "leaves out" in it }
    }

    @Test
    fun `under a budget each condition measured so far costs what its own trials took`() {
        val s = scenario("budget: 30m", sizes = "1kb, 10kb, 1mb")
        val (small, middle, large) = s.conditions.map { it.label }
        val start = Instant.parse("2026-01-01T00:00:00Z")

        // A fork of 42 s of start-up (timed: 12 s) and soak, then each condition's two cost trials, each after
        // a warm-up of 5 s; a condition's trials and warm-ups take [seconds] in all.
        fun fork(index: Int, startSecond: Long, seconds: Map<String, Long>): ForkRecord {
            var t = startSecond + 42
            val trials = mutableListOf<TrialRecord>()
            val warmIns = mutableListOf<WarmInRecord>()
            seconds.forEach { (condition, total) ->
                listOf("HTTP/JSON", "gRPC/Unary").forEach { arm ->
                    warmIns += WarmInRecord(condition, TrialLoad.rate(100), SoakRecord(emptyList(), true, 5.0), arm)
                    trials += TrialRecord(
                        condition,
                        arm,
                        TrialKind.COST,
                        index,
                        trials.size + 1,
                        start.plusSeconds(t + 5).toString(),
                        TrialLoad.rate(100),
                        Figures.NONE,
                    )
                    t += total / 2
                }
            }
            return ForkRecord(
                index, seconds.keys.toList(), start.plusSeconds(startSecond).toString(), ForkStatus.COMPLETE,
                soak = SoakRecord(emptyList(), true, 30.0), trials = trials,
                finishedAt = start.plusSeconds(t).toString(), warmIns = warmIns,
                time = ForkTime(start = 12.0, soak = 30.0),
            )
        }
        // 1 MB took five times as long as the others; the second fork left it out.
        val record = start(s).copy(
            forks = listOf(
                fork(1, 0, mapOf(small to 60, middle to 60, large to 300)),
                fork(2, 600, mapOf(small to 60, middle to 60)),
            ),
        )
        val planner = Planner(s)
        fun nextWith(secondsLeft: Long) = planner.next(record, emptyMap(), Duration.ofSeconds(1800 - secondsLeft))

        // Bringing all three to the minimum takes 2 x 42 + 60 + 60 + 2 x 300 = 804 s. An average
        // per condition (140 s in the first fork, 60 in the second) would have put it at 484 s,
        // taken 1 MB back with 600 s left, and left it short of the minimum after this fork.
        assertThat(planner.secondsToMinimum(record, planner.belowMinimum(record))).isEqualTo(804)
        assertThat((nextWith(600) as Step.NextFork).conditions.map { it.label }).containsExactly(small, middle)
        assertThat((nextWith(900) as Step.NextFork).conditions.map { it.label }).containsExactly(small, middle, large)
        assertThat((nextWith(90) as Step.Stop).reason).isEqualTo(
            "the 1 min left of the budget of 30 min cannot bring another condition to the minimum of 3 forks " +
                "(the nearest needs 1 more, about 2 min)",
        )
    }

    @Test
    fun `with probes in the first fork only, the forks that probed nothing set the cost of the next`() {
        val s = scenario("budget: 60m\nprobes: first-fork", sizes = "1kb, 10kb")
        val (small, large) = s.conditions.map { it.label }
        val probes = s.estimatedProbeSeconds()
        assertThat(probes).isPositive()
        fun probe(condition: String, arm: String) =
            TrialRecord(condition, arm, TrialKind.CAPACITY, 1, 1, "2026-01-01T00:00:00Z", TrialLoad.vus(10), Figures.NONE)
        // Fork 1 probed both conditions: 12 s of start-up (as the fork timed it), 100 s per condition and each condition's probes.
        val probed = ForkRecord(
            1,
            listOf(small, large),
            "2026-01-01T00:00:00Z",
            ForkStatus.COMPLETE,
            trials = listOf(probe(small, "HTTP/JSON"), probe(small, "gRPC/Unary"), probe(large, "HTTP/JSON")),
            finishedAt = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(212 + (2 * probes).toLong() + 1).toString(),
            time = ForkTime(start = 12.0),
        )
        val planner = Planner(s)
        val afterFirst = start(s).copy(forks = listOf(probed))
        assertThat(planner.estimateForkSeconds(afterFirst, 1)).isBetween(112, 113)

        val unprobed = ForkRecord(
            2,
            listOf(small, large),
            "2026-01-01T01:00:00Z",
            ForkStatus.COMPLETE,
            finishedAt = "2026-01-01T01:02:52Z",
            time = ForkTime(start = 12.0),
        )
        assertThat(planner.estimateForkSeconds(afterFirst.copy(forks = listOf(probed, unprobed)), 1)).isEqualTo(12 + 80)

        // A record from before forks timed their start-up: the estimate's start-up and runner's part stand in for it.
        val fixed = Scenario.SERVER_START_SECONDS + Scenario.RUNNER_SECONDS
        val untimed = unprobed.copy(
            time = null,
            finishedAt = Instant.parse("2026-01-01T01:00:00Z").plusSeconds(fixed.toLong() + 160).toString(),
        )
        assertThat(planner.estimateForkSeconds(afterFirst.copy(forks = listOf(probed.copy(time = null), untimed)), 1))
            .isEqualTo(fixed.toLong() + 80)
    }

    @Test
    fun `the seed's tools run once per fork after the condition's trials, and the report shows them beside k6 with the seed's warning`() {
        val s = ScenarioParser.parse(
            """
            name: fake-seed003
            members: {images: [88], batch: 1}
            protocols: [HTTP/JSON, gRPC/Unary]
            load: {model: closed, vus: [10, 100]}
            mode: capacity
            topology: direct
            duration: 5s
            forks: 3
            maxForks: 3
            soak: {window: 3s, min: 6s, max: 30s}
            seedTools: {10: 100}
            """.trimIndent(),
            "fake.yaml",
        )
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(s, lab)

        // Only the condition whose virtual users have a request count; each tool once per fork, after its capacity trials.
        assertThat(r.toolRuns.map { it.condition }.distinct()).containsExactly(s.conditions.first { it.label.endsWith("vus=10") }.label)
        assertThat(r.toolRuns.groupBy { it.fork }.values).hasSize(3).allSatisfy { runs ->
            assertThat(runs.map { it.tool to it.protocol }).containsExactlyInAnyOrder("hey" to "HTTP/JSON", "ghz" to "gRPC/Unary")
            assertThat(runs).allSatisfy { assertThat(it.requests to it.concurrency).isEqualTo(100 to 10) }
        }
        val fork1 = lab.events.getValue(1)
        val tenUsers = fork1.indexOfFirst { it.startsWith("tool") }
        assertThat(fork1[tenUsers - 1]).startsWith("capacity")
        assertThat(fork1.filter { it.startsWith("tool") }).containsExactlyInAnyOrder("tool hey -n 100 -c 10", "tool ghz -n 100 -c 10")

        val report = MarkdownReport.render(r)
        assertThat(report).contains(
            "**Seed 003's own tools**",
            "| hey | HTTP/JSON | 3 |",
            "| ghz | gRPC/Unary | 3 |",
            "ghz against hey in requests/s:",
            "(paired over 3 forks)",
            "not the protocols'",
        )
        // Never a verdict: the tools are not among the compared arms.
        assertThat(Analysis.of(r).flatMap { a -> a.families.flatMap { f -> f.decisions.map { it.a + it.b } } })
            .noneMatch { "hey" in it || "ghz" in it }
    }

    @Test
    fun `a server that dies fails its trial and its fork, and a fresh fork replaces it`() {
        val lab = FakeLab(StepClock(), clearCosts, dieInForkAtTrial = 2 to 3)
        val r = run(scenario(), lab)
        val failed = r.forks.single { it.status == ForkStatus.FAILED }
        assertThat(failed.index).isEqualTo(2)
        assertThat(failed.trials.last().error).contains("died")
        assertThat(failed.trials.last().valid).isFalse()
        assertThat(r.forks.count { it.status == ForkStatus.COMPLETE }).isEqualTo(3)
        assertThat(lab.started).containsExactly(1, 2, 3, 4)
    }

    @Test
    fun `a soak that never settles stops at its cap and says so`() {
        val lab = FakeLab(StepClock(), clearCosts, soakWindowsToSettle = 1000)
        val r = run(scenario(), lab)
        assertThat(r.forks).allSatisfy {
            assertThat(it.soak!!.settled).isFalse()
            assertThat(it.soak!!.seconds).isEqualTo(30.0)
        }
    }

    @Test
    fun `a warm-up whose compilers never go quiet stops at its cap, says so, and its trial is still measured`() {
        val lab = FakeLab(StepClock(), clearCosts, compilingForever = true)
        val r = run(scenario(), lab)
        val fork = r.forks.first()
        assertThat(fork.warmIns).isNotEmpty.allSatisfy {
            assertThat(it.soak.settled).isFalse()
            // The soak's cap (30 s in this scenario) bounds the warm-up's own (Soak.WARM_UP_CAP) when lower.
            assertThat(it.soak.seconds).isEqualTo(minOf(30L, Soak.WARM_UP_CAP.seconds).toDouble())
        }
        assertThat(fork.trials).hasSize(fork.warmIns.size)
        assertThat(MarkdownReport.render(r)).contains("had not settled after 30 s")
    }

    @Test
    fun `in cost mode every arm warms up alone at the trials' rate right before its own cost trial`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("noiseControl: true"), lab)
        val rate = r.calibrations.single().let { LoadLevel.Rate(it.ratePerSecond, it.maxVus).label }
        for (fork in r.forks) {
            val log = lab.events.getValue(fork.index)
            val costs = log.indices.filter { log[it].startsWith("cost ") }
            assertThat(costs).hasSize(4)
            for (i in costs) {
                assertThat(log[i - 1]).`as`("fork ${fork.index}: %s", log).isEqualTo("mix $rate " + log[i].removePrefix("cost "))
            }
            val beforeCosts = fork.warmIns.filter { it.load.label == rate }
            assertThat(beforeCosts.map { it.arm }).isEqualTo(costs.map { log[it].removePrefix("cost ") })
            assertThat(beforeCosts).allSatisfy {
                assertThat(it.condition).isEqualTo("size=1kb vus=10")
                assertThat(it.load.label).isEqualTo(rate)
                assertThat(it.soak.settled).isTrue()
                // Already warm from the soak: quiet in its first two windows.
                assertThat(it.soak.windows).hasSize(Soak.ARM_QUIET_WINDOWS)
            }
        }
        // The probes of the first fork (two protocols) warm up too, at their own virtual users: they set the rate.
        val first = lab.events.getValue(1)
        assertThat(first.filter { it.startsWith("mix") }).hasSize(1 + 2 + 4)
        first.indices.filter { first[it].startsWith("capacity ") }.forEach {
            assertThat(first[it - 1]).isEqualTo("mix vus=10 " + first[it].removePrefix("capacity "))
        }
    }

    @Test
    fun `every warm-up starts from both servers' heaps collected, the soak and later rounds do not collect`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("rounds: 2"), lab)
        for (fork in r.forks) {
            val log = lab.events.getValue(fork.index)
            val mixes = log.indices.filter { log[it].startsWith("mix") }
            // The soak is the fork's first mix, of every arm: no collection before it.
            assertThat(log.first()).startsWith("mix")
            assertThat(mixes.drop(1)).isNotEmpty.allSatisfy { assertThat(log[it - 1]).isEqualTo("gc") }
            assertThat(log.count { it == "gc" }).isEqualTo(fork.warmIns.size)
            assertThat(fork.warmIns).allSatisfy {
                assertThat(it.collected!!.gateway!!.heapUsedBytes).isEqualTo(90L shl 20)
                assertThat(it.collectionProblem).isNull()
            }
        }
    }

    @Test
    fun `capacity mode warms each arm up at its own virtual users before its trial`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("mode: capacity"), lab)
        for (fork in r.forks) {
            val log = lab.events.getValue(fork.index)
            val trials = log.indices.filter { log[it].startsWith("capacity ") }
            assertThat(trials).isNotEmpty.allSatisfy {
                assertThat(log[it - 1]).isEqualTo("mix vus=10 " + log[it].removePrefix("capacity "))
            }
            assertThat(fork.warmIns).hasSize(trials.size)
        }
    }

    @Test
    fun `stop ends the run at once, closing the fork in progress and starting no other`() {
        val clock = StepClock()
        val lab = FakeLab(clock, clearCosts)
        val s = scenario()
        lateinit var runner: ForkRunner
        runner = ForkRunner(s, lab, Analysis.judge, clock, {}, progress = { if ("[trial 4]" in it) runner.stop() })
        val r = runner.run(start(s))
        assertThat(lab.started).containsExactly(1)
        assertThat(r.forks.single().status).isEqualTo(ForkStatus.INTERRUPTED)
        assertThat(lab.closed).isGreaterThanOrEqualTo(1)
    }

    @Test
    fun `with probes in the first fork only, later forks measure cost alone at the same rate`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("probes: first-fork"), lab)
        assertThat(r.forks.first().trials.count { it.kind == TrialKind.CAPACITY }).isEqualTo(2)
        assertThat(r.forks.drop(1)).allSatisfy { fork ->
            assertThat(fork.trials).allSatisfy { assertThat(it.kind).isEqualTo(TrialKind.COST) }
        }
        assertThat(r.trials.filter { it.kind == TrialKind.COST }.map { it.load }.distinct()).hasSize(1)
    }

    @Test
    fun `rounds measure every arm once per round, each round in its own order, warming an arm up only before its first`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("rounds: 3\nprobes: first-fork"), lab)
        val rate = r.calibrations.single().let { LoadLevel.Rate(it.ratePerSecond, it.maxVus).label }
        val orders = mutableSetOf<List<String>>()
        for (fork in r.forks) {
            val costs = fork.trials.filter { it.kind == TrialKind.COST }
            assertThat(costs.groupBy { it.arm }.mapValues { (_, ts) -> ts.map { it.round } })
                .containsOnlyKeys("HTTP/JSON", "gRPC/Unary", Arm.NullHop.LABEL)
                .allSatisfy { _, rounds -> assertThat(rounds).containsExactly(1, 2, 3) }
            assertThat(costs.map { it.round }).isSorted
            costs.groupBy { it.round }.values.forEach { orders += it.map { t -> t.arm } }
            assertThat(fork.warmIns.filter { it.load.label == rate }.map { it.arm }).hasSize(3).doesNotHaveDuplicates()
            // Round 2 and 3 follow the trial before them with no warm-up in between.
            val log = lab.events.getValue(fork.index)
            assertThat(log.takeLast(6)).allSatisfy { assertThat(it).startsWith("cost ") }
        }
        assertThat(orders).`as`("rounds are shuffled afresh").hasSizeGreaterThan(1)
        assertThat(MarkdownReport.render(r)).contains("in each of 3 rounds")
    }

    @Test
    fun `a target with forks and rounds of its own gets just those, the last fork measures the others alone, and the report says so`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("rounds: 3\nprobes: first-fork\nforksByTarget: {1mb: 2}\nroundsByTarget: {1mb: 2}", sizes = "1kb, 1mb"), lab)
        val (small, large) = r.scenario.conditions.map { it.label }
        assertThat(r.forks.map { it.conditions }).containsExactly(listOf(small, large), listOf(small, large), listOf(small))
        fun rounds(condition: String) = r.trials.filter { it.kind == TrialKind.COST && it.condition == condition }
            .groupBy { it.fork to it.arm }.values.map { ts -> ts.map { it.round } }.distinct()
        assertThat(rounds(small)).containsExactly(listOf(1, 2, 3))
        assertThat(rounds(large)).containsExactly(listOf(1, 2))
        val analyses = Analysis.of(r).associateBy { it.condition }
        assertThat(analyses.getValue(large).cost.map { it.forks }).containsOnly(2)
        assertThat(analyses.getValue(small).cost.map { it.forks }).containsOnly(3)
        assertThat(r.planning!!.stoppedBecause).contains("minimum of 2–3 forks")
        assertThat(MarkdownReport.render(r))
            .contains("Forks and rounds of their own", "$large: at least 2, at most 2 forks, 2 round(s) each")
    }

    @Test
    fun `a fork's value of an arm is the median of its rounds, so one disturbed round does not move it`() {
        val steady = ForkValue(mapOf(Figure.TOTAL_CPU_US to 300.0, Figure.HOP_P50 to 0.30), mapOf(Figure.TOTAL_CPU_US to 4.0))
        val rounds = listOf(
            steady,
            ForkValue(mapOf(Figure.TOTAL_CPU_US to 900.0, Figure.HOP_P50 to 1.5), mapOf(Figure.TOTAL_CPU_US to 1.0)),
            ForkValue(mapOf(Figure.TOTAL_CPU_US to 310.0), mapOf(Figure.TOTAL_CPU_US to 9.0)),
        )
        val fork = Analysis.medianOfRounds(rounds)
        assertThat(fork[Figure.TOTAL_CPU_US]).isEqualTo(310.0)
        // A figure only some rounds have: the median of those that have it.
        assertThat(fork[Figure.HOP_P50]).isEqualTo(0.9)
        // The rounding variances ride along, each the median of its own.
        assertThat(fork.rounding[Figure.TOTAL_CPU_US]).isEqualTo(4.0)
        assertThat(Analysis.medianOfRounds(listOf(steady))).isEqualTo(steady)
    }

    @Test
    fun `a rate the scenario fixes replaces the calibration, and the probe still gives its share of capacity`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("costRates: {1kb: 777}\nprobes: first-fork"), lab)
        val calibration = r.calibrations.single()
        assertThat(calibration.declared).isTrue()
        assertThat(calibration.ratePerSecond).isEqualTo(777)
        assertThat(calibration.capacityRps).isGreaterThan(0.0)
        assertThat(lab.runs.filter { it.second.offered is LoadLevel.Rate }.map { (it.second.offered as LoadLevel.Rate).perSecond })
            .containsOnly(777)
        val share = Regex("""the rate the scenario fixes: ([0-9.]+)% of the capacity""").find(MarkdownReport.render(r))
        assertThat(share).isNotNull
        assertThat(share!!.groupValues[1].toDouble()).isCloseTo(77700 / calibration.capacityRps, org.assertj.core.data.Offset.offset(0.1))
    }

    @Test
    fun `a fixed rate above the share a calibration would take, but below the ceiling, is measured as fixed, and the report says so`() {
        val capacity = run(scenario("costRates: {1kb: 777}\nprobes: first-fork"), FakeLab(StepClock(), clearCosts))
            .calibrations.single().capacityRps
        val nearCeiling = (capacity * 0.6).toInt() // the same seed probes the same capacity
        val r = run(scenario("costRates: {1kb: $nearCeiling}\nprobes: first-fork"), FakeLab(StepClock(), clearCosts))
        assertThat(r.calibrations.single().ratePerSecond).isEqualTo(nearCeiling)
        assertThat(r.calibrations.single().scenarioRate).isNull()
        assertThat(MarkdownReport.render(r)).contains("above the 50% a calibrated rate would take")
    }

    @Test
    fun `a fixed rate this machine would saturate is halved until it is below the ceiling, for every fork, and said`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val said = mutableListOf<String>()
        val s = scenario("costRates: {1kb: 100000}\nprobes: first-fork")
        val r = ForkRunner(s, lab, Analysis.judge, lab.clock, {}, progress = { said += it }).run(start(s))
        val calibration = r.calibrations.single()
        assertThat(calibration.scenarioRate).isEqualTo(100000)
        assertThat(calibration.ratePerSecond.toDouble()).isBetween(calibration.capacityRps * 0.325, calibration.capacityRps * 0.65)
        assertThat(generateSequence(100000) { it / 2 }.takeWhile { it >= 1 }.toList()).describedAs("the fixed rate and its halvings")
            .contains(calibration.ratePerSecond)
        assertThat(lab.runs.filter { it.second.offered is LoadLevel.Rate }.map { (it.second.offered as LoadLevel.Rate).perSecond })
            .containsOnly(calibration.ratePerSecond)
        assertThat(said).anySatisfy {
            assertThat(it).contains("the scenario fixes 100000/s").contains("this run measures at ${calibration.ratePerSecond}/s")
        }
        val report = MarkdownReport.render(r)
        assertThat(report).contains("not the 100000/s the scenario fixes").contains("above the 65% a fixed rate may take")
        assertThat(report).contains("a rate above 65% of it is halved until it is not")
        // Said in the header too, and only after the slowest protocol was probed a second time.
        assertThat(report.lines().single { it.contains("too small for the scenario's fixed rates") })
            .contains("size=1kb vus=10 at ${calibration.ratePerSecond}/s instead of 100000/s")
        val probes = lab.events.getValue(1).filter { it.startsWith("capacity ") }
        assertThat(probes.count { it == "capacity ${calibration.slowestProtocol}" }).isEqualTo(2)
        assertThat(probes).hasSize(3)
    }

    @Test
    fun `a slowest probe that would cut the fixed rate is probed once more, and a disturbance alone does not cut it`() {
        val lab = FakeLab(StepClock(), clearCosts, firstProbeFactor = mapOf("HTTP/JSON" to 0.2))
        val said = mutableListOf<String>()
        val s = scenario("costRates: {1kb: 777}\nprobes: first-fork")
        val r = ForkRunner(s, lab, Analysis.judge, lab.clock, {}, progress = { said += it }).run(start(s))
        val calibration = r.calibrations.single()
        assertThat(calibration.ratePerSecond).isEqualTo(777)
        assertThat(calibration.scenarioRate).isNull()
        // The better of the two probes: the undisturbed one.
        val probes = r.forks.first().trials.filter { it.kind == TrialKind.CAPACITY && it.arm == "HTTP/JSON" }
        assertThat(probes).hasSize(2)
        assertThat(calibration.capacityRps).isEqualTo(probes.maxOf { it.figures[Figure.THROUGHPUT]!! })
        assertThat(said).anySatisfy {
            assertThat(it).contains("HTTP/JSON size=1kb vus=10 probed below what the scenario's fixed rate needs")
        }
        assertThat(MarkdownReport.render(r)).doesNotContain("too small for the scenario's fixed rates")
    }

    @Test
    fun `an earlier run's rate is kept whatever this machine's probe says, neither halved nor reprobed, and said with its share`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val said = mutableListOf<String>()
        // The scenario's own rate would be halved here and its slowest protocol probed again.
        val s = scenario("costRates: {1kb: 100000}\nprobes: first-fork")
        val earlier = Calibration("size=1kb vus=10", 1, 900.0, "HTTP/JSON", 60000, 20, declared = true)
        val kept = start(s).copy(pinnedRates = PinnedRates("20261201-120000-quick", listOf(earlier)))
        val r = ForkRunner(s, lab, Analysis.judge, lab.clock, {}, progress = { said += it }).run(kept)
        val calibration = r.calibrations.single()
        assertThat(calibration.ratePerSecond).isEqualTo(60000)
        assertThat(calibration.pinnedFrom).isEqualTo("20261201-120000-quick")
        assertThat(calibration.scenarioRate).isNull()
        // This run's own probe, not the earlier run's, gives the share.
        assertThat(calibration.capacityRps).isNotEqualTo(900.0).isGreaterThan(0.0)
        assertThat(lab.runs.filter { it.second.offered is LoadLevel.Rate }.map { (it.second.offered as LoadLevel.Rate).perSecond })
            .containsOnly(60000)
        // Each protocol probed once: a kept rate is not cut, so its slowest protocol is not probed again.
        assertThat(lab.events.getValue(1).filter { it.startsWith("capacity ") }).hasSize(2)
        assertThat(said).anySatisfy {
            assertThat(it).contains("60000/s, the rate of run 20261201-120000-quick").contains("kept as --rates-of asks")
        }
        val report = MarkdownReport.render(r)
        assertThat(report).contains("Rates kept from run 20261201-120000-quick").contains("size=1kb vus=10 60000/s")
        assertThat(report).contains("the rate of run 20261201-120000-quick (`--rates-of`)").contains("above the 50% a calibrated rate")
            .doesNotContain("too small for the scenario's fixed rates")
    }

    @Test
    fun `a condition the earlier run chose no rate for is calibrated here, and the header names it`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val s = scenario("probes: first-fork")
        val other = Calibration("size=1mb vus=10", 1, 90.0, "HTTP/JSON", 40, 20)
        val r = ForkRunner(s, lab, Analysis.judge, lab.clock, {}).run(start(s).copy(pinnedRates = PinnedRates("before", listOf(other))))
        val calibration = r.calibrations.single()
        assertThat(calibration.pinnedFrom).isNull()
        assertThat(calibration.ratePerSecond).isEqualTo((calibration.capacityRps * 0.5).toInt())
        assertThat(MarkdownReport.render(r).lines().single { it.contains("Rates kept from run before") })
            .contains("none of its rates was used yet").contains("Calibrated here, as that run had no rate for them: size=1kb vus=10")
    }

    @Test
    fun `a plateau is steady only once the JIT is quiet, and noise within the tolerance is allowed`() {
        fun w(rps: Double, cpu: Double, jit: Double) = SoakWindow(rps, cpu, 0, jit)
        val plateauWhileCompiling = listOf(w(590.0, 3100.0, 1.6), w(594.0, 3040.0, 1.7), w(586.0, 3085.0, 1.5))
        assertThat(SoakPolicy.steady(plateauWhileCompiling, 0.05)).isFalse()
        val settled = listOf(w(1150.0, 1460.0, 0.1), w(1205.0, 1395.0, 0.01), w(1171.0, 1427.0, 0.03))
        assertThat(SoakPolicy.steady(settled, 0.05)).isTrue()
        assertThat(SoakPolicy.steady(settled.take(2), 0.05)).isFalse() // too few windows
        val stillClimbing = listOf(w(1000.0, 1460.0, 0.1), w(1100.0, 1395.0, 0.01), w(1200.0, 1300.0, 0.03))
        assertThat(SoakPolicy.steady(stillClimbing, 0.05)).isFalse()
    }

    @Test
    fun `across a link the fork's soak gets a user more per millisecond of round trip, and the warm-ups and trials keep theirs`() {
        assertThat(SoakPolicy.vusAcross(2, 0.0)).isEqualTo(2)
        assertThat(SoakPolicy.vusAcross(2, 10.7)).isEqualTo(23)
        assertThat(SoakPolicy.vusAcross(2, 80.0)).isEqualTo(SoakPolicy.MAX_VUS_ACROSS)
        assertThat(SoakPolicy.vusAcross(150, 40.0)).isEqualTo(150) // a soak that asks more than the cap keeps its own

        val lab = FakeLab(StepClock(), clearCosts, roundTripMs = 40.8)
        val r = run(scenario(), lab)
        val fork1 = lab.events.getValue(1)
        assertThat(fork1.first()).startsWith("mix vus=84 ")
        assertThat(fork1.drop(1).filter { it.startsWith("mix") }).isNotEmpty().allSatisfy { assertThat(it).doesNotStartWith("mix vus=84") }
        assertThat(r.forks.map { it.soak?.vus }).containsOnly(84)
        assertThat(run(scenario(), FakeLab(StepClock(), clearCosts)).forks.map { it.soak?.vus }).containsOnly(Soak.DEFAULT_VUS)
    }

    @Test
    fun `each fork records where its time went, part by part, and the report sums it in the header and per fork`() {
        val lab = FakeLab(StepClock(), clearCosts)
        val r = run(scenario("noiseControl: true"), lab)
        for (fork in r.forks) {
            val time = fork.time!!
            val runs = lab.runs.filter { it.first == fork.index }.map { it.second }
            fun seconds(which: (LoadRun) -> Boolean) = runs.filter(which).sumOf { it.duration.toMillis() / 1000.0 }
            assertThat(time.start).isEqualTo(10.0) // the fake lab's start-up
            assertThat(time.soak).isEqualTo(fork.soak!!.seconds).isPositive()
            assertThat(time.warmUps).isEqualTo(fork.warmIns.sumOf { it.soak.seconds }).isPositive()
            assertThat(time.probes).isEqualTo(seconds { it.offered is LoadLevel.Vus }).isPositive()
            assertThat(time.aaTrials).isEqualTo(seconds { it.cell.arm is Arm.Replica }).isPositive()
            assertThat(time.trials).isEqualTo(seconds { it.offered is LoadLevel.Rate && it.cell.arm !is Arm.Replica }).isPositive()
            assertThat(time.tools).isZero()
            // The fake clock moves only in the timed parts: nothing is left for the runner.
            assertThat(time.runner).isZero()
            assertThat(time.total())
                .isEqualTo(Duration.between(Instant.parse(fork.startedAt), Instant.parse(fork.finishedAt)).toMillis() / 1000.0)
        }
        val report = MarkdownReport.render(r)
        val minutes = r.forks.sumOf { it.time!!.total() } / 60
        assertThat(report.lines().single { it.startsWith("- Time:") })
            .startsWith("- Time: ${"%.1f".format(java.util.Locale.ROOT, minutes)} min from start to end: server start ")
            .contains("A/A trials").doesNotContain("seed tools")
        assertThat(report).contains("| 1 | 10.0 | ${"%.1f".format(java.util.Locale.ROOT, r.forks[0].soak!!.seconds)} |")
    }

    @Test
    fun `a record from before fork times were kept has no time line`() {
        val r = run(scenario(), FakeLab(StepClock(), clearCosts))
        val old = r.copy(forks = r.forks.map { it.copy(time = null) })
        assertThat(MarkdownReport.render(old)).doesNotContain("- Time:").doesNotContain(Texts.EN("forks.time.intro"))
    }

    @Test
    fun `across a link the soak ends when the JIT is quiet, however the link moves throughput`() {
        // Throughput keeps climbing for 20 windows: on loopback the soak waits for it, across a link it does not.
        val loopback = run(scenario(), FakeLab(StepClock(), clearCosts, soakWindowsToSettle = 20)).forks.first().soak!!
        val acrossLink = run(scenario(), FakeLab(StepClock(), clearCosts, soakWindowsToSettle = 20, roundTripMs = 40.8))
            .forks.first().soak!!
        assertThat(loopback.settled).isFalse() // the soak's cap came first
        assertThat(acrossLink.settled).isTrue()
        assertThat(acrossLink.windows.size).isLessThan(loopback.windows.size)
        val compiling = run(scenario(), FakeLab(StepClock(), clearCosts, roundTripMs = 40.8, compilingForever = true)).forks.first().soak!!
        assertThat(compiling.settled).isFalse()
    }

    @Test
    fun `at a light rate the JIT counts against the CPU the servers used, not against the clock`() {
        fun w(jit: Double) = SoakWindow(191.0, 5000.0, 0, jit) // the servers use 0.955 cores
        // 0.12 of the wall clock is 12.6% of the servers' CPU: still compiling.
        assertThat(SoakPolicy.steady(listOf(w(0.02), w(0.12), w(0.03)), 0.05)).isFalse()
        assertThat(SoakPolicy.steady(listOf(w(0.02), w(0.09), w(0.03)), 0.05)).isTrue()
    }

    @Test
    fun `a run taken up again keeps its forks and trials and measures only the forks still missing`() {
        val s = scenario()
        val clock = StepClock()
        val first = FakeLab(clock, clearCosts)
        lateinit var runner: ForkRunner
        runner = ForkRunner(s, first, Analysis.judge, clock, {}, progress = { if ("[trial 9]" in it) runner.stop() })
        val cut = runner.run(start(s))
        val kept = cut.trials.size
        // As `protobench resume` hands it over: the fork that was cut short marked interrupted.
        val resumed = cut.copy(
            forks = cut.forks.map { if (it.status == ForkStatus.RUNNING) it.copy(status = ForkStatus.INTERRUPTED) else it },
        )

        val second = FakeLab(clock, clearCosts)
        val r = ForkRunner(s, second, Analysis.judge, clock, {}).run(resumed)
        assertThat(r.trials.take(kept)).isEqualTo(cut.trials)
        assertThat(r.forks.count { it.status == ForkStatus.COMPLETE }).isEqualTo(3)
        assertThat(second.started).containsExactly(3, 4) // fork 1 was complete, fork 2 was cut short
        assertThat(r.calibrations).hasSize(1) // the rate calibrated before the cut is kept
    }

    @Test
    fun `the scenario record keeps the design`() {
        val record: ScenarioRecord = scenario().toRecord()
        assertThat(record.arms).containsExactly("HTTP/JSON", "gRPC/Unary", Arm.NullHop.LABEL)
        assertThat(record.margin).isEqualTo(0.05)
        assertThat(record.mode).isEqualTo(Mode.COST)
    }

    private val zeroCopy = Variant("zero-copy", dataServer = mapOf("protobench.data.grpc-payload-mode" to "shared"))
    private val copyFrom = Variant("copyFrom", dataServer = mapOf("protobench.data.grpc-payload-mode" to "copy"))

    @Test
    fun `every fork starts a pair per variant, the first variant first in fork 1, and trials pair across variants by fork`() {
        val s = scenario().copy(variants = listOf(zeroCopy, copyFrom))
        val lab = FakeLab(StepClock(), clearCosts, variantEffect = mapOf("copyFrom" to mapOf("gRPC/Unary" to 2.0)))
        val r = run(s, lab)

        assertThat(lab.pairs.filter { it.first == 1 }.map { it.second }).containsExactly("zero-copy", "copyFrom")
        assertThat(lab.pairs.groupBy({ it.first }, { it.second }).values).allSatisfy {
            assertThat(it).containsExactlyInAnyOrder("zero-copy", "copyFrom")
        }
        assertThat(r.forks.map { it.index to it.variant }).hasSize(6)
        assertThat(r.forks).allSatisfy {
            assertThat(it.settings)
                .containsEntry("protobench.data.grpc-payload-mode", if (it.variant == "zero-copy") "shared" else "copy")
        }
        assertThat(r.trials.filter { it.kind == TrialKind.COST }.map { it.arm }.toSet()).containsExactlyInAnyOrder(
            "HTTP/JSON · zero-copy",
            "gRPC/Unary · zero-copy",
            "Null hop · zero-copy",
            "HTTP/JSON · copyFrom",
            "gRPC/Unary · copyFrom",
            "Null hop · copyFrom",
        )
        // One rate for every variant: calibrated once, by the first variant's probes in fork 1.
        assertThat(r.calibrations).hasSize(1)
        assertThat(r.trials.filter { it.kind == TrialKind.COST }.map { it.load }.distinct()).hasSize(1)

        val family = Analysis.of(r).single().family(TrialKind.COST)!!
        // Variants are weighed by both servers' CPU per request: the null hop needs not be subtracted.
        val unary = family.variantDecisions.single { it.a == "gRPC/Unary · zero-copy" && it.figure == Figure.TOTAL_CPU_US.key }
        assertThat(family.variantDecisions.map { it.figure }.distinct())
            .containsExactlyInAnyOrder(Figure.TOTAL_CPU_US.key, Figure.HOP_P50.key)
        assertThat((unary.outcome as io.protobench.bench.verdict.Outcome.Better).winner).isEqualTo("gRPC/Unary · zero-copy")
        // The variant comparisons are their own Holm family: deciding them alone changes nothing.
        val alone = io.protobench.bench.verdict.Verdicts.decide(
            family.variantDecisions.map {
                io.protobench.bench.verdict.ComparisonInput(it.a, it.b, it.figure, it.higherIsBetter, it.estimate)
            },
            margin = s.margin,
        )
        assertThat(alone.map { it.differenceP }).isEqualTo(family.variantDecisions.map { it.differenceP })
        // Never a protocol under one setting against another protocol under another.
        assertThat(family.decisions).allSatisfy { d ->
            assertThat(
                Variant.split(d.a).first == Variant.split(d.b).first || Variant.split(d.a).second == Variant.split(d.b).second,
            ).isTrue()
        }
        assertThat(family.protocolDecisions.map { it.a to it.b }.distinct())
            .containsExactlyInAnyOrder(
                "HTTP/JSON · zero-copy" to "gRPC/Unary · zero-copy",
                "HTTP/JSON · copyFrom" to "gRPC/Unary · copyFrom",
            )

        val report = io.protobench.bench.report.MarkdownReport.render(r)
        assertThat(report).contains(
            "## Variants",
            "| copyFrom | – | `protobench.data.grpc-payload-mode=copy` |",
            "- Variants: Both servers CPU/req: gRPC/Unary · zero-copy cheaper than gRPC/Unary · copyFrom by",
        )
        val guide = io.protobench.bench.report.SelectionGuide.lines(Analysis.of(r))
        assertThat(guide).anySatisfy {
            assertThat(it).contains(
                "which setting mattered: on gRPC/Unary, copyFrom: +",
                "CPU per request of both servers against zero-copy [+",
            )
        }
        assertThat(guide.first()).contains("under zero-copy: cheapest hop in CPU: **gRPC/Unary**", "under copyFrom:")
    }

    @Test
    fun `variants on different networks each run at half their own capacity, settings variants share one rate`() {
        val region = Variant("region", network = "region")
        val wan = Variant("wan", network = "wan")
        // wan's link makes every protocol four times as slow: region's rate would be twice wan's capacity.
        val lab = FakeLab(StepClock(), clearCosts, variantEffect = mapOf("wan" to clearCosts.mapValues { 20.0 }))
        val r = run(scenario("probes: first-fork").copy(variants = listOf(region, wan)), lab)

        assertThat(r.calibrations.map { it.variant }).containsExactly("region", "wan")
        assertThat(r.calibrations).allSatisfy { assertThat(it.fork).isEqualTo(1) }
        val (regionRate, wanRate) = r.calibrations.map { it.ratePerSecond }
        assertThat(wanRate).isLessThan(regionRate / 2)
        val costLoads = r.trials.filter { it.kind == TrialKind.COST }.groupBy({ Variant.split(it.arm).second }, { it.load.label })
        assertThat(costLoads.getValue("region").distinct()).containsExactly(LoadLevel.Rate(regionRate, r.calibrations[0].maxVus).label)
        assertThat(costLoads.getValue("wan").distinct()).containsExactly(LoadLevel.Rate(wanRate, r.calibrations[1].maxVus).label)
        // Probes in the first fork only: each variant probed there, and nowhere else.
        assertThat(r.trials.filter { it.kind == TrialKind.CAPACITY }.map { it.fork }.distinct()).containsExactly(1)
        assertThat(io.protobench.bench.report.MarkdownReport.render(r)).contains(
            "Variant wan (its own network, its own rate): Cost trials at **$wanRate/s**",
            "Variants on different networks are compared on latency and throughput only",
        )
        // At other rates, CPU per request is not the network's to compare: region against wan on latency only.
        val variantFigures = Analysis.of(r).single().family(TrialKind.COST)!!.variantDecisions.map { it.figure }.distinct()
        assertThat(variantFigures).containsExactly(Figure.HOP_P50.key)
    }

    @Test
    fun `a variant writing to an external database is compared with H2 on latency only, as its database's CPU is not counted`() {
        val r = run(
            scenario().copy(variants = listOf(Variant("h2", database = "h2"), Variant("pg", database = "postgresql"))),
            FakeLab(StepClock(), clearCosts),
        )
        fun variantFigures(record: io.protobench.bench.measure.RunRecord) =
            Analysis.of(record).single().family(TrialKind.COST)!!.variantDecisions.map { it.figure }.distinct()
        // A throw-away cluster's processes are counted: H2 and PostgreSQL compare on CPU.
        assertThat(variantFigures(r)).containsExactlyInAnyOrder(Figure.TOTAL_CPU_US.key, Figure.HOP_P50.key)

        val external = r.copy(
            externalDatabase = io.protobench.bench.measure.ExternalDatabaseRecord(
                "jdbc:postgresql://db.example/staging",
                "bench",
                "protobench",
                "16.4",
                variants = listOf("pg"),
            ),
        )
        assertThat(variantFigures(external)).containsExactly(Figure.HOP_P50.key)
        assertThat(io.protobench.bench.report.MarkdownReport.render(external)).contains(
            "Database: PostgreSQL 16.4 at jdbc:postgresql://db.example/staging as bench, schema protobench: " +
                "an external database (`--db-url`), " +
                "not started by the run, written to by the data-servers of pg.",
            "A variant writing to the external database is compared on CPU only with another writing there, not with H2",
        )
        assertThat(
            io.protobench.bench.report.MarkdownReport.render(external, io.protobench.bench.text.Texts.of(io.protobench.bench.text.Lang.KO)),
        ).contains("외부 데이터베이스(`--db-url`)")
    }

    @Test
    fun `a variant whose setting did not take effect is rejected once and the run goes on with the others`() {
        val s = scenario().copy(variants = listOf(zeroCopy, copyFrom))
        val lab = FakeLab(
            StepClock(),
            clearCosts,
            reported = { v -> if (v.name == "copyFrom") mapOf("protobench.data.grpc-payload-mode" to "shared") else v.dataServer },
        )
        val r = run(s, lab)

        val rejected = r.forks.filter { it.status == ForkStatus.REJECTED }
        assertThat(rejected).singleElement().satisfies({ assertThat(it.variant).isEqualTo("copyFrom") })
        assertThat(rejected.single().failure).contains("asked 'copy', the server runs 'shared'")
        assertThat(lab.pairs.count { it.second == "copyFrom" }).isEqualTo(1)
        assertThat(r.forks.filter { it.variant == "zero-copy" && it.status == ForkStatus.COMPLETE }).hasSize(3)
        assertThat(r.trials.map { it.arm }).noneMatch { it.endsWith("copyFrom") }
    }

    @Test
    fun `a variant whose JVM refuses its options fails with the JVM's words, and when every variant is refused the run stops`() {
        val s = scenario().copy(variants = listOf(zeroCopy, copyFrom.copy(jvmOptions = listOf("-XX:+UseZGCX"))))
        val lab = FakeLab(StepClock(), clearCosts, refused = mapOf("copyFrom" to "Unrecognized VM option 'UseZGCX'"))
        val r = run(s, lab)
        assertThat(r.forks.single { it.status == ForkStatus.REJECTED }.failure).contains("UseZGCX")
        assertThat(r.forks.count { it.status == ForkStatus.COMPLETE }).isEqualTo(3)

        val all = FakeLab(StepClock(), clearCosts, refused = mapOf("zero-copy" to "no", "copyFrom" to "no"))
        val none = run(s, all)
        assertThat(none.planning!!.stoppedBecause).contains("every variant was rejected")
        assertThat(all.pairs).hasSize(2)
    }
}

/** What the fake lab's data-server reports over a trial: its collector and what it did. */
private val dataServerUsage = Fixtures.usage(120.0, gcs = 7).copy(
    jvm = JvmFacts(
        "25.0.3",
        listOf("ZGC Minor Cycles", "ZGC Minor Pauses", "ZGC Major Cycles", "ZGC Major Pauses"),
        1L shl 30,
        "ZGC generational",
    ),
    gc = GcUsage(pauses = 5, pauseTimeMs = 0, cycles = 2, concurrentCpuMs = 31.5, heapAfterGcMb = 48.0),
)
