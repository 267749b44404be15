package io.protobench.bench.report

import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.OpenComparison
import io.protobench.bench.measure.PlanningRecord
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.AaCalibration
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ClaimOutcome
import io.protobench.bench.report.CsvReport
import io.protobench.bench.report.LabNoise
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.Numbers
import io.protobench.bench.report.SeedClaims
import io.protobench.bench.report.SelectionGuide
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.Fixtures.NULL_HOP
import io.protobench.bench.testkit.Fixtures.cost
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.Power
import io.protobench.bench.verdict.Verdicts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

/** Analysis and reports from fixed run records: hop isolation, the three outcomes, the guide, the seeds, problems. */
class ReportTest {
    private val grpc = "gRPC/Unary"
    private val binary = "HTTP/Binary"
    private val json = "HTTP/JSON"
    private val jitter = listOf(1.0, 1.03, 0.98, 1.01, 0.99)

    /** Small noise of its own per arm and fork, so no two arms keep an exact ratio. */
    private fun own(arm: String, fork: Int) = 1 + 0.02 * kotlin.math.sin(arm.hashCode() * 0.7 + fork * 2.3)

    /** Harness 300 µs; gRPC's hop 100 µs, HTTP/Binary's 101 µs (equivalent), HTTP/JSON's 200 µs; fork luck shared by all arms. */
    private fun record(forks: Int = 5) = Fixtures.record(
        listOf("size=1kb vus=10"),
        listOf(json, binary, grpc, NULL_HOP),
        forks,
    ) { _, kind, arm, fork ->
        if (kind != TrialKind.COST) return@record null
        val luck = jitter[fork - 1]
        val hop = mapOf(json to 200.0, binary to 101.0, grpc to 100.0, NULL_HOP to 0.0).getValue(arm)
        cost((300 + hop * own(arm, fork)) * luck, hopP50 = if (arm == NULL_HOP) 0.0 else hop * own(arm, fork + 9) / 100)
    }

    @Test
    fun `the hop is the arm minus the null hop of the same fork`() {
        val a = Analysis.of(record()).single()
        val hop = a.cost.associateBy { it.arm }.mapValues { it.value.mean(Figure.HOP_CPU_US)!! }
        assertThat(hop.getValue(json)).isCloseTo(200.0, org.assertj.core.data.Offset.offset(3.0))
        assertThat(hop.getValue(grpc)).isCloseTo(100.0, org.assertj.core.data.Offset.offset(3.0))
        assertThat(hop.getValue(NULL_HOP)).isEqualTo(0.0)
        // Hop share: hop over everything counted per request (k6 150 µs + servers).
        assertThat(a.cost.single { it.arm == json }.mean(Figure.HOP_SHARE)).isBetween(0.25, 0.35)
    }

    @Test
    fun `the planning section says why the planner stopped and names each open comparison with its forks, one fork in the singular`() {
        val open = listOf(
            OpenComparison("size=1kb vus=10", "HTTP/JSON vs gRPC/Unary on Hop CPU/req", 1),
            OpenComparison("size=1kb vus=10", "HTTP/JSON vs HTTP/Binary on Hop p50", 3),
        )
        val md = MarkdownReport.render(
            record().copy(planning = PlanningRecord("2 open comparison(s) would take more than the most forks allowed (5)", open)),
        )
        assertThat(md).contains(
            "Stopped because 2 open comparison(s) would take more than the most forks allowed (5)",
            "- size=1kb vus=10: HTTP/JSON vs gRPC/Unary on Hop CPU/req — about 1 more fork would decide it\n",
            "- size=1kb vus=10: HTTP/JSON vs HTTP/Binary on Hop p50 — about 3 more forks would decide it\n",
        )
    }

    @Test
    fun `a large difference is decided cheaper, a tiny one equivalent, in one Holm family`() {
        val family = Analysis.of(record()).single().family(TrialKind.COST)!!
        assertThat(family.decisions).hasSize(3 * 2) // 3 protocol pairs x 2 figures
        val hopCpu = family.decisions.filter { it.figure == Figure.HOP_CPU_US.key }
        val jsonVsGrpc = hopCpu.single { it.a == json && it.b == grpc }.outcome as Outcome.Better
        assertThat(jsonVsGrpc.winner).isEqualTo(grpc)
        assertThat(jsonVsGrpc.sizePercent).isBetween(45.0, 55.0)
        assertThat(hopCpu.single { it.a == binary && it.b == grpc }.outcome).isEqualTo(Outcome.Equivalent)
    }

    @Test
    fun `the guide names a protocol only where it beat every other, and says equivalent where shown`() {
        val lines = SelectionGuide.lines(Analysis.of(record()))
        assertThat(lines.single()).contains(
            "cheapest hop in CPU: no single winner",
            "equivalent within the margin: HTTP/Binary ≈ gRPC/Unary",
        )
        val withoutBinary = record().let { r -> r.copy(forks = r.forks.map { f -> f.copy(trials = f.trials.filter { it.arm != binary }) }) }
        assertThat(SelectionGuide.lines(Analysis.of(withoutBinary)).single()).contains("cheapest hop in CPU: **gRPC/Unary**")
    }

    @Test
    fun `a run mixing sizes and complexity levels gets its flips along each axis, and a report`() {
        val conditions = listOf("size=1kb vus=10", "size=1mb vus=10", "complexity=simple vus=10", "complexity=simple vus=100")
        val r = Fixtures.record(conditions, listOf(json, grpc, NULL_HOP), 5) { condition, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            // gRPC is cheaper at 1mb, HTTP/JSON at 1kb; the complexity conditions agree with each other.
            val jsonCheaper = condition.startsWith("size=1kb")
            val hop = when (arm) {
                NULL_HOP -> 0.0
                json -> if (jsonCheaper) 100.0 else 200.0
                else -> if (jsonCheaper) 200.0 else 100.0
            }
            cost((300 + hop * own(arm, fork)) * jitter[fork - 1])
        }
        val lines = SelectionGuide.lines(Analysis.of(r))
        assertThat(lines.filter { it.contains("Flip along") }).singleElement().asString()
            .contains("Flip along size", "$json at size=1kb", "$grpc at size=1mb")
        assertThat(MarkdownReport.render(r)).contains("Flip along size")
    }

    @Test
    fun `an A-A control that comes out different flags the condition untrustworthy`() {
        val aa = "$grpc (A/A)"
        val r = Fixtures.record(listOf("size=1kb vus=10"), listOf(grpc, binary, NULL_HOP, aa), 5) { _, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val hop = mapOf(grpc to 100.0, binary to 100.0, NULL_HOP to 0.0, aa to 160.0).getValue(arm)
            cost((300 + hop) * jitter[fork - 1])
        }
        val a = Analysis.of(r).single()
        assertThat(a.untrustworthy).isTrue()
        assertThat(MarkdownReport.render(r)).contains("A/A check:", "this condition is untrustworthy")
        assertThat(SelectionGuide.lines(listOf(a)).single()).contains("no verdict here is trusted")
    }

    /** A run with an A/A copy of gRPC/Unary whose hop wanders by [spread] fork by fork, at [condition]. */
    private fun aaRecord(condition: String = "size=1kb vus=10"): io.protobench.bench.measure.RunRecord {
        val aa = "$grpc (A/A)"
        val spread = listOf(1.0, 1.03, 0.98, 1.02, 0.97)
        return Fixtures.record(listOf(condition), listOf(grpc, binary, json, NULL_HOP, aa), 5) { _, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            val hop = mapOf(grpc to 100.0, binary to 120.0, json to 150.0, NULL_HOP to 0.0, aa to 100.0).getValue(arm)
            cost(
                (300 + hop * (if (arm == aa) spread[fork - 1] else 1.0)) * jitter[fork - 1],
                hopP50 = if (arm == aa) spread[fork - 1] else 1.0,
            )
        }
    }

    @Test
    fun `the A-A check is a Holm family of its own, and the report says what it could have caught at the lab's measured noise`() {
        val r = aaRecord()
        val family = Analysis.of(r).single().family(TrialKind.COST)!!
        assertThat(family.aaDecisions).hasSize(2).allSatisfy { assertThat(it.familySize).isEqualTo(2) }
        assertThat(family.protocolDecisions).hasSize(6).allSatisfy { assertThat(it.familySize).isEqualTo(6) }
        val hopCpu = family.aaDecisions.first { it.figure == Figure.HOP_CPU_US.key }
        // Rated at the lab's pooled noise for hop CPU at 1 KB, not at these 5 forks' own spread.
        val lab = LabNoise.POOLED_SD.getValue(Figure.HOP_CPU_US to LabNoise.Payload.SMALL)
        val sensitivity = AaCalibration.sensitivity(hopCpu, "size=1kb vus=10", TrialKind.COST)!!
        assertThat(sensitivity.lab).isTrue()
        assertThat(sensitivity.sd).isEqualTo(lab)
        assertThat(sensitivity.powerForBias).isEqualTo(Power.pairedT(kotlin.math.ln(1.10), lab, 5, Verdicts.ALPHA / 2))
        assertThat(Power.pairedT(kotlin.math.ln(1 + sensitivity.detectablePercent!! / 100), lab, 5, Verdicts.ALPHA / 2))
            .isCloseTo(AaCalibration.POWER, org.assertj.core.api.Assertions.within(1e-6))
        // The forks' own spread is still there, as the secondary figure it is.
        val own = AaCalibration.sensitivity(hopCpu)!!
        assertThat(own.lab).isFalse()
        assertThat(own.sd).isEqualTo(hopCpu.estimate.sdLog!!).isNotEqualTo(lab)
        val report = MarkdownReport.render(r)
        assertThat(report).contains(
            "6 between protocols, 2 A/A, each set one Holm family",
            " — at the lab's measured noise for this figure and size (per-fork sd 0.093, pooled over the published aa runs; " +
                "this comparison's own 5 forks: sd ${Numbers.number(hopCpu.estimate.sdLog)}) would catch a 10% bias with probability " +
                "${Numbers.percentText(sensitivity.powerForBias)}; 80% power from a bias of " +
                "${Numbers.percentText(sensitivity.detectablePercent!! / 100)}",
            "A calibrated lab fails the check by chance in at most 5% of conditions " +
                "(each condition's A/A comparisons are one Holm family). " +
                "At the lab's measured noise between identical arms",
        )
            .doesNotContain("the lab's noise is not measured")
    }

    @Test
    fun `where the lab has not measured its noise, the A-A line rates the check at the forks' own spread and says so`() {
        val r = aaRecord("size=10kb vus=10")
        val hopCpu = Analysis.of(r).single().family(TrialKind.COST)!!.aaDecisions.first { it.figure == Figure.HOP_CPU_US.key }
        assertThat(LabNoise.sd("size=10kb vus=10", TrialKind.COST, Figure.HOP_CPU_US.key)).isNull()
        val sensitivity = AaCalibration.sensitivity(hopCpu, "size=10kb vus=10", TrialKind.COST)!!
        assertThat(sensitivity.lab).isFalse()
        assertThat(sensitivity.powerForBias).isEqualTo(Power.pairedT(kotlin.math.ln(1.10), hopCpu.estimate.sdLog!!, 5, Verdicts.ALPHA / 2))
        assertThat(MarkdownReport.render(r)).contains(
            " — the lab's noise is not measured for this figure and size; at this comparison's own 5 forks' spread " +
                "(sd ${Numbers.number(hopCpu.estimate.sdLog)}, a rough measure)",
            "The lab's noise is not measured at these figures and sizes; at this run's own fork spread",
        )
    }

    @Test
    fun `the lab's noise is looked up by payload in cost trials only, 1mb and 1024kb alike`() {
        assertThat(LabNoise.sd("size=1mb vus=10", TrialKind.COST, Figure.HOP_P50.key))
            .isEqualTo(LabNoise.POOLED_SD.getValue(Figure.HOP_P50 to LabNoise.Payload.LARGE))
        assertThat(LabNoise.payload("size=1024kb vus=50")).isEqualTo(LabNoise.Payload.LARGE)
        assertThat(LabNoise.payload("size=1kb rate=1500/s")).isEqualTo(LabNoise.Payload.SMALL)
        assertThat(LabNoise.sd("size=1kb vus=10", TrialKind.CAPACITY, Figure.HOP_CPU_US.key)).`as`("probes at saturation").isNull()
        assertThat(LabNoise.sd("size=1kb vus=10", TrialKind.COST, Figure.THROUGHPUT.key)).isNull()
        assertThat(LabNoise.payload("complexity=simple vus=10")).isNull()
        assertThat(LabNoise.payload("image=1kb")).isNull()
    }

    @Test
    fun `a long A-A run is tallied in blocks of the main job's forks, with an exact interval and its p-values`() {
        val aa = "$grpc (A/A)"
        fun run(forks: Int, bias: Double): io.protobench.bench.measure.RunRecord {
            val noise = java.util.SplittableRandom(11L)
            return Fixtures.record(listOf("size=1kb vus=10", "size=1mb vus=10"), listOf(grpc, NULL_HOP, aa), forks) { _, kind, arm, fork ->
                if (kind != TrialKind.COST) return@record null
                val hop = when (arm) {
                    NULL_HOP -> 0.0
                    aa -> 100.0 * bias
                    else -> 100.0
                }
                cost((300 + hop * (1 + 0.05 * (noise.nextDouble() - 0.5))) * jitter[(fork - 1) % 5], hopP50 = 1 + 0.1 * noise.nextDouble())
            }
        }
        assertThat(AaCalibration.tally(run(5, 1.0))).`as`("one block is the run's own check").isNull()
        val clean = AaCalibration.tally(run(22, 1.0))!!
        assertThat(clean.blocks).isEqualTo(4)
        assertThat(clean.checks).isEqualTo(4 * 2)
        assertThat(clean.pValues).isEqualTo(4 * 2 * 2)
        assertThat(clean.belowTen).isGreaterThanOrEqualTo(clean.belowFive)
        val biased = AaCalibration.tally(run(20, 1.3))!!
        assertThat(biased.failed).`as`("a 30% bias in hop CPU fails most blocks").isGreaterThanOrEqualTo(6)
        assertThat(MarkdownReport.render(run(20, 1.3))).contains("4 blocks of 5 forks, ${biased.failed} of 8 condition checks failed")
        // Clopper–Pearson: 0 of 8 gives 1 − 0.025^(1/8) above; 1 of 10 gives [0.25%, 44.5%].
        assertThat(AaCalibration.clopperPearson(0, 8).second).isCloseTo(0.3694, org.assertj.core.api.Assertions.within(1e-4))
        val one = AaCalibration.clopperPearson(1, 10)
        assertThat(one.first).isCloseTo(0.00253, org.assertj.core.api.Assertions.within(1e-4))
        assertThat(one.second).isCloseTo(0.4450, org.assertj.core.api.Assertions.within(1e-4))
    }

    @Test
    fun `tables give the arithmetic mean over forks, verdicts the geometric mean of ratios, and the method line names both`() {
        val totals = listOf(400.0, 800.0, 500.0, 1000.0, 450.0)
        val r = Fixtures.record(listOf("size=1kb vus=10"), listOf(grpc, binary, NULL_HOP), 5) { _, kind, arm, fork ->
            if (kind != TrialKind.COST) return@record null
            cost(
                when (arm) {
                    grpc -> totals[fork - 1]
                    binary -> 300.0
                    else -> 100.0
                },
            )
        }
        val a = Analysis.of(r).single()
        val hops = totals.map { it - 100.0 }
        assertThat(a.cost.single { it.arm == grpc }.mean(Figure.HOP_CPU_US))
            .isCloseTo(hops.average(), org.assertj.core.api.Assertions.within(1e-9))
        val verdict = a.family(TrialKind.COST)!!.protocolDecisions.single { it.figure == Figure.HOP_CPU_US.key }
        val geometric = kotlin.math.exp(hops.map { kotlin.math.ln(it / 200.0) }.average())
        assertThat(verdict.estimate.ratio)
            .isCloseTo(if (verdict.a == grpc) geometric else 1 / geometric, org.assertj.core.api.Assertions.within(1e-9))
        assertThat(hops.average() / 200.0).`as`("the two estimators differ here").isGreaterThan(geometric * 1.02)
        assertThat(MarkdownReport.render(r)).contains("the arithmetic mean over forks", "the geometric mean of the per-fork ratios")
    }

    @Test
    fun `seed ratios are labelled by what our interval decides, with magnitude`() {
        assertThat(SeedClaims.judge(1.10, 1.05, 1.20)).isEqualTo(ClaimOutcome.REPRODUCED)
        assertThat(SeedClaims.judge(4.63, 1.05, 1.30)).isEqualTo(ClaimOutcome.SMALLER)
        assertThat(SeedClaims.judge(1.02, 1.05, 1.30)).isEqualTo(ClaimOutcome.LARGER)
        assertThat(SeedClaims.judge(0.5, 0.7, 0.9)).isEqualTo(ClaimOutcome.SMALLER) // both lower, ours by less
        assertThat(SeedClaims.judge(1.5, 0.7, 0.9)).isEqualTo(ClaimOutcome.OPPOSITE)
        // Our interval holds no difference: either it holds the seeds' ratio too, or it rules out a difference as large.
        assertThat(SeedClaims.judge(1.10, 0.95, 1.20)).isEqualTo(ClaimOutcome.COMPATIBLE)
        assertThat(SeedClaims.judge(2.11, 0.893, 1.21)).isEqualTo(ClaimOutcome.OPEN_SMALLER) // was "contradicted": no direction is decided
        assertThat(SeedClaims.judge(0.5, 0.893, 1.21)).isEqualTo(ClaimOutcome.OPEN_SMALLER)
        // Where the seeds saw no difference, ours decided is larger; an interval holding 1.0 reproduces them.
        assertThat(SeedClaims.judge(1.0, 1.05, 1.30)).isEqualTo(ClaimOutcome.LARGER)
        assertThat(SeedClaims.judge(1.0, 0.95, 1.05)).isEqualTo(ClaimOutcome.COMPATIBLE)
        assertThat(SeedClaims.judge(1.5, null, null)).isEqualTo(ClaimOutcome.INCONCLUSIVE)
    }

    @Test
    fun `a closed model's mean latency mirrors its throughput and is counted once, each pair with the seeds' better protocol first`() {
        // Seed phase 2 at 1 KB: gRPC/Unary 5,876.83/s and 0.67 ms, HTTP/JSON 3,428.50/s and 1.42 ms.
        // Ours: 10 users, latency = users / throughput.
        val r = Fixtures.record(listOf("size=1kb vus=10"), listOf(json, grpc), 4) { _, kind, arm, fork ->
            if (kind != TrialKind.CAPACITY) return@record null
            val throughput = (if (arm == grpc) 5800.0 else 3500.0) * jitter[fork - 1] *
                (1 + 0.03 * kotlin.math.sin(arm.length * 1.7 + fork * 2.9))
            Figures.of(Figure.THROUGHPUT to throughput, Figure.LATENCY_AVG to 10_000.0 / throughput)
        }
        val phase2 = r.copy(scenario = r.scenario.copy(conditions = r.scenario.conditions.map { it.copy(phases = listOf("phase2")) }))
        val checks = SeedClaims.check(Analysis.of(phase2))
        val throughput = checks.single { it.claim.figure == "throughput_rps" }
        val latency = checks.single { it.claim.figure == "latency_avg_ms" }
        // Better first: the higher throughput, and the lower latency.
        assertThat(throughput.a to throughput.b).isEqualTo(grpc to json)
        assertThat(latency.a to latency.b).isEqualTo(grpc to json)
        assertThat(latency.seedPercent).isNegative()
        assertThat(throughput.mirrors).isNull()
        assertThat(latency.mirrors).isEqualTo("throughput_rps")
        val report = MarkdownReport.render(phase2)
        assertThat(report).contains(
            "their better protocol first",
            "; the reciprocal of throughput_rps in a closed model, not counted again",
            "Of ${checks.size - 1} seed ratios: ",
            "(1 mirrored ratios not counted again)",
        )
    }

    @Test
    fun `seed claims are matched by phase and condition and carry the seeds' own spread`() {
        val claims = SeedClaims.all
        assertThat(claims.filter { it.phase == "phase4" && it.condition == "size=10kb vus=10" && it.figure == "throughput_rps" }).hasSize(1)
        val r = Fixtures.record(listOf("size=10kb vus=10"), listOf(binary, grpc), 4) { _, kind, arm, fork ->
            if (kind != TrialKind.CAPACITY) {
                null
            } else {
                Figures.of(
                    Figure.THROUGHPUT to (if (arm == grpc) 5750.0 else 4000.0) * jitter[fork - 1] *
                        (1 + 0.04 * kotlin.math.sin(arm.length * 1.9 + fork * 2.1)),
                )
            }
        }
        val phase2 = r.copy(scenario = r.scenario.copy(conditions = r.scenario.conditions.map { it.copy(phases = listOf("phase2")) }))
        val checks = SeedClaims.check(Analysis.of(phase2)).filter { it.claim.figure == "throughput_rps" }
        val pair = checks.single { it.a == grpc && it.b == binary }
        assertThat(pair.claim.phase).isEqualTo("phase2")
        assertThat(pair.seedElsewhere.map { it.first }).contains("phase4")
        assertThat(pair.outcome).isEqualTo(ClaimOutcome.REPRODUCED) // seeds +42.8%, ours about +44% with a few percent of noise
    }

    @Test
    fun `the header points to the variants where they set the servers' JDK and heap, not to the run's defaults`() {
        val base = record(3)
        val options = listOf("-Xms1g", "-Xmx1g", "-XX:+ExitOnOutOfMemoryError")
        val run = base.copy(environment = base.environment.copy(serverJdk = "openjdk version \"17.0.15\"", serverJvmOptions = options))
        fun header(vararg variants: Variant) =
            MarkdownReport.render(run.copy(scenario = run.scenario.copy(variants = variants.toList()))).lines()
                .single { it.startsWith("- Servers' JDK") }

        assertThat(header(Variant("g1", heap = "256m", jdk = "25"), Variant("zgc", heap = "4g", jdk = "25")))
            .startsWith("- Servers' JDK: each variant's own (see Variants);")
            .contains("server JVM options `-XX:+ExitOnOutOfMemoryError`, the heap set by each variant (see Variants);")
        assertThat(header(Variant("g1", heap = "256m", jdk = "25"), Variant("default")))
            .contains(
                "openjdk version \"17.0.15\", or the variant's own where it names one (see Variants)",
                "`-Xms1g -Xmx1g -XX:+ExitOnOutOfMemoryError`;",
            )
            .doesNotContain("the heap set by each variant")
        assertThat(MarkdownReport.render(run).lines().single { it.startsWith("- Servers' JDK") })
            .startsWith("- Servers' JDK: openjdk version \"17.0.15\"; CLI JDK").contains("`-Xms1g -Xmx1g -XX:+ExitOnOutOfMemoryError`;")
    }

    @Test
    fun `the header says whether the kernel shared the cores between sessions first, and nothing where it was not recorded`() {
        val base = record(3)
        fun scheduler(autogroup: Boolean?) =
            MarkdownReport.render(base.copy(environment = base.environment.copy(schedAutogroup = autogroup)))
                .lines().filter { it.startsWith("- Scheduler:") }
        assertThat(scheduler(true)).singleElement().asString().startsWith("- Scheduler: autogroup on").contains("one session's share")
        assertThat(scheduler(false)).singleElement().asString().startsWith("- Scheduler: autogroup off")
        assertThat(scheduler(null)).isEmpty()
    }

    @Test
    fun `the header says how idle cores wait, where the run recorded it`() {
        val base = record(3)
        fun idle(cpuIdle: String?) = MarkdownReport.render(base.copy(environment = base.environment.copy(cpuIdle = cpuIdle)))
            .lines().filter { it.startsWith("- Idle cores:") }
        assertThat(idle("haltpoll, polls 0 ns before halting")).singleElement().asString()
            .startsWith("- Idle cores: haltpoll, polls 0 ns before halting (cpuidle)").contains("twice per request")
        assertThat(idle(null)).isEmpty()
    }

    @Test
    fun `the seeds' GC counts are judged per request against the gateway's pauses in cost trials, under each variant`() {
        val variants = listOf("small", "large")
        val arms = variants.flatMap { v -> listOf(json, grpc).map { Variant.label(it, v) } }
        val base = Fixtures.record(listOf("complexity=simple vus=10"), arms, 4) { _, kind, label, fork ->
            if (kind != TrialKind.COST) return@record null
            val (arm, variant) = Variant.split(label)
            // A tenth of the pauses with the large heap; gRPC/Unary 8 to HTTP/JSON's 30 with either.
            val pauses = (if (arm == json) 30.0 else 8.0) * (if (variant == "large") 0.1 else 1.0) *
                (1 + 0.05 * kotlin.math.sin(arm.length * 1.3 + fork * 2.3))
            Figures.of(Figure.API_GC_PAUSES to pauses, Figure.API_PEAK_HEAP to 200.0 * jitter[fork - 1])
        }
        val r = base.copy(scenario = base.scenario.copy(protocols = listOf(json, grpc), variants = variants.map { Variant(it) }))

        val checks = SeedClaims.check(Analysis.of(r), variants).filter { it.claim.id == "phase5-simple-gc-count" }

        // Seed 002, simple: HTTP/JSON 119 collections at 3,601.55 answers/s, gRPC/Unary 53 at 6,006.67/s.
        val seedPerRequest = (53 / 6006.67) / (119 / 3601.55)
        assertThat(checks.map { it.a to it.b }).containsExactly("$grpc · small" to "$json · small", "$grpc · large" to "$json · large")
        assertThat(checks).allSatisfy {
            assertThat(it.perRequest).isTrue()
            assertThat(it.seedPercent).isCloseTo((seedPerRequest - 1) * 100, org.assertj.core.data.Offset.offset(1e-9))
            assertThat(it.outcome).isEqualTo(ClaimOutcome.REPRODUCED) // ours 8/30, theirs 0.265 per request
        }
        assertThat(MarkdownReport.render(r)).contains(
            "| gc_count per request | $grpc · small vs $json · small |",
            "The seeds' collections and peak heap come from one 30 s run per protocol and level",
        )
    }

    @Test
    fun `an invalid trial is listed under problems and left out of every verdict`() {
        val base = record()
        val broken = base.copy(
            forks = base.forks.map { f ->
                if (f.index != 2) {
                    f
                } else {
                    f.copy(
                        trials = f.trials.map { t ->
                            val hopFailures = Fixtures.window(Fixtures.usage(100.0), Fixtures.usage(50.0))
                                .copy(failuresByKind = mapOf("data-server timeout" to 100L))
                            val counts = io.protobench.driver.Counts(900, 100, 0)
                            val driver = io.protobench.driver.Summary(
                                counts,
                                counts,
                                1000,
                                null,
                                emptyMap(),
                                4,
                                failures = mapOf("status 504, expected 200" to 90L, "\"payloadSize\" was 0, expected 1024" to 10L),
                                failureSamples = mapOf("status 504, expected 200" to "<h1>`Gateway` Timeout</h1>"),
                            )
                            if (t.arm ==
                                json
                            ) {
                                t.copy(correctAnswers = 900, wrongAnswers = 100, gateway = hopFailures, driver = driver)
                            } else {
                                t
                            }
                        },
                    )
                }
            },
        )
        val a = Analysis.of(broken).single()
        assertThat(a.cost.single { it.arm == json }.forks).isEqualTo(4)
        assertThat(MarkdownReport.render(broken)).contains(
            "## Problems",
            "is invalid and left out of every verdict: 10.00% of answers were wrong (limit 0.1%); the driver's reasons: " +
                "status 504, expected 200 × 90 (the first answer began `<h1>'Gateway' Timeout</h1>`); " +
                "\"payloadSize\" was 0, expected 1024 × 10; " +
                "the gateway's failed hops: data-server timeout × 100",
        )
    }

    @Test
    fun `a trial that did not hold its rate is kept, listed, left out of the verdicts, and counted at the top`() {
        val base = record()
        val rateNotHeld = io.protobench.bench.measure.Flag.RateNotHeld(1210.0, 1500, 340.0)
        val busy = io.protobench.bench.measure.Flag.MachineBusy(0.8, 0.7, 2)
        val flagged = base.copy(
            forks = base.forks.map { f ->
                f.copy(
                    trials = f.trials.map { t ->
                        when {
                            f.index == 3 && t.arm == grpc -> t.copy(flags = listOf(busy, rateNotHeld))
                            f.index == 4 && t.arm == json -> t.copy(flags = listOf(busy))
                            else -> t
                        }
                    },
                )
            },
        )
        val left = flagged.trials.single { it.flags.contains(rateNotHeld) }
        assertThat(left.valid).isFalse()
        assertThat(left.leftOutAs()).isEqualTo("rate-not-held")
        // Machine-busy alone marks doubt and stays in.
        assertThat(flagged.trials.single { it.flags == listOf(busy) }.valid).isTrue()
        val a = Analysis.of(flagged).single()
        assertThat(a.cost.single { it.arm == grpc }.forks).isEqualTo(4)
        assertThat(a.cost.single { it.arm == json }.forks).isEqualTo(5)
        val report = MarkdownReport.render(flagged)
        assertThat(report).contains(
            "- Flags: 2 of ${flagged.trials.size} trials carry at least one (machine-busy 2, rate-not-held 1); " +
                "left out of the verdicts: 1 (rate-not-held 1), each listed under Problems",
            "($grpc, size=1kb vus=10, fork 3) is invalid and left out of every verdict: achieved 1210/s of 1500/s, 340 iterations dropped",
        )
        assertThat(MarkdownReport.render(base))
            .contains("- Flags: none of the ${base.trials.size} trials carries one; none is left out of the verdicts")
    }

    @Test
    fun `a direct run says its latency is on warm connections only when its calls were told apart, and names a trial with too few`() {
        val base = record().let { it.copy(scenario = it.scenario.copy(topology = io.protobench.bench.scenario.Topology.DIRECT)) }
        assertThat(MarkdownReport.render(base)).contains("topology direct").doesNotContain("Latency on warm connections")
        val metrics = """{"grpc_req_duration":{"values":{"count":40}},"grpc_req_duration{connection:warm}":{"values":{"count":10}}}"""
        val summary = com.fasterxml.jackson.databind.ObjectMapper().readTree("""{"metrics":$metrics}""")
        val tagged = base.copy(
            forks = base.forks.map { f ->
                f.copy(
                    trials = f.trials.map { t ->
                        t.copy(
                            k6 = summary.path("metrics"),
                            flags = listOf(
                                io.protobench.bench.measure.Flag.ColdConnections(
                                    10,
                                    40,
                                    TrialFigures.COLD_CALLS,
                                    TrialFigures.MIN_TIMED_CALLS,
                                ),
                            ),
                        )
                    },
                )
            },
        )
        assertThat(MarkdownReport.render(tagged)).contains(
            "Latency on warm connections: each connection's first 3 calls",
            "10 of 40 calls came after their connection's first 3",
        )
        assertThat(MarkdownReport.render(tagged)).doesNotContain("warm-up before its fixed rate")
        // Since cost trials warm their users first, those calls are out of their throughput too, and the header says so.
        val warmedFirst = com.fasterxml.jackson.databind.ObjectMapper().readTree(
            """{"metrics":${metrics.dropLast(1)},"iterations{scenario:warmup}":{"values":{"count":30}}}}""",
        )
        val warmed = base.copy(
            forks = base.forks.map { f ->
                f.copy(trials = f.trials.map { t -> t.copy(k6 = warmedFirst.path("metrics")) })
            },
        )
        assertThat(MarkdownReport.render(warmed)).contains(
            "each connection's first 3 calls, which open and warm it, are left out of the latency figures. " +
                "A cost trial's connections make them in a warm-up before its fixed rate is timed",
        )
        // The driver's summaries say the same: steps timed, and a warm-up's answers.
        val latency = io.protobench.driver.Latency(10, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)
        val driven = io.protobench.driver.Summary(
            io.protobench.driver.Counts(30, 0, 0),
            io.protobench.driver.Counts(40, 0, 0),
            1000,
            latency,
            mapOf("warm" to latency),
            2,
            emptyMap(),
            bySteps = mapOf("1" to latency),
        )
        val byDriver = base.copy(forks = base.forks.map { f -> f.copy(trials = f.trials.map { t -> t.copy(driver = driven) }) })
        assertThat(MarkdownReport.render(byDriver)).contains("A cost trial's connections make them in a warm-up", "**New connections**")
    }

    @Test
    fun `a direct run shows what a new connection cost by the user's call, as a range over forks`() {
        val base = record().let { it.copy(scenario = it.scenario.copy(topology = io.protobench.bench.scenario.Topology.DIRECT)) }
        assertThat(MarkdownReport.render(base)).doesNotContain("New connections")
        val mapper = com.fasterxml.jackson.databind.ObjectMapper()
        fun places(first: Double, next: Double, later: Double) = mapper.readTree(
            """{
            "grpc_req_duration{user_call:1}":{"values":{"med":$first,"count":20}},
            "grpc_req_duration{user_call:2}":{"values":{"med":0,"count":0}},
            "grpc_req_duration{user_call:next}":{"values":{"med":$next,"count":60}},
            "grpc_req_duration{user_call:later}":{"values":{"med":$later,"count":40}}}""",
        )
        val tagged = base.copy(
            forks = base.forks.map { f ->
                f.copy(
                    trials = f.trials.map { t ->
                        t.copy(k6 = places(first = 100.0 + f.index, next = 21.5, later = 20.0 + f.index / 10.0))
                    },
                )
            },
        )
        val report = MarkdownReport.render(tagged)
        val forks = tagged.forks.map { it.index }
        assertThat(report).contains("**New connections**", "| call 1 | call 2 | call 3 | calls 4–6 | calls 7+ |")
        // Each arm's row: call 1 over the forks' range, no call 2 or 3 sampled, calls 4-6 alike in every fork.
        val later = "${Numbers.number(20.0 + forks.min() / 10.0)}–${Numbers.number(20.0 + forks.max() / 10.0)}"
        assertThat(report).contains("| ${100 + forks.min()}–${100 + forks.max()} | – | – | 21.50 | $later |")
    }

    @Test
    fun `a figure that is not finite does not break the report`() {
        val base = record()
        val odd = base.copy(
            forks = base.forks.map { f ->
                f.copy(
                    trials = f.trials.map { t ->
                        t.copy(figures = t.figures + (Figure.LATENCY_P99 to Double.POSITIVE_INFINITY) + (Figure.HOP_P50 to Double.NaN))
                    },
                )
            },
        )
        assertThat(MarkdownReport.render(odd)).contains("## size=1kb vus=10")
    }

    @Test
    fun `the cost table shows GC pauses and concurrent GC CPU apart where trials have them, the beans' sums where they do not`() {
        val base = record()
        val older = MarkdownReport.render(base)
        assertThat(older).contains("GCs / GC ms api", "GCs / GC ms data").doesNotContain("pause ms", "Concurrent GC CPU")

        val gc = Figures.of(
            Figure.API_GC_PAUSES to 6.0,
            Figure.API_GC_PAUSE_TIME to 2.0,
            Figure.API_GC_CONCURRENT_CPU to 41.5,
            Figure.DATA_GC_PAUSES to 4.0,
            Figure.DATA_GC_PAUSE_TIME to 35.0,
            Figure.DATA_GC_CONCURRENT_CPU to 0.0,
        )
        val newer = base.copy(forks = base.forks.map { f -> f.copy(trials = f.trials.map { it.copy(figures = it.figures + gc) }) })
        val header = MarkdownReport.render(newer).lines().first { it.startsWith("| ") && "Hop CPU" in it }
        assertThat(header).contains("GC pauses / pause ms api", "GC pauses / pause ms data", "Concurrent GC CPU ms api / data")
            .doesNotContain("GCs / GC ms")
        val row = MarkdownReport.render(newer).lines().first { it.startsWith("| $grpc |") }
        assertThat(row).contains("| 6 / 2 | 4 / 35 | 41.50 / 0 |")
    }

    @Test
    fun `run json round-trips and the csv has one row per arm and kind`(@TempDir dir: Path) {
        val store = RunStore(dir)
        store.save(record())
        val back = RunStore.load(dir)
        assertThat(back.trials).hasSize(4 * 5)
        val csv = CsvReport.render(back).lines().filter { it.isNotBlank() }
        assertThat(csv).hasSize(1 + 4)
        assertThat(csv[0]).startsWith("condition,kind,arm,forks,throughput_rps_mean")
        assertThat(MarkdownReport.render(back)).contains("Measured on: Test CPU, 2 cores")
    }

    @Test
    fun `a label with a comma or a quote stays one csv field`() {
        val condition = "size=1kb \"odd\", vus=10"
        val arms = listOf("gRPC/Unary · a,b", "HTTP/JSON", Fixtures.NULL_HOP)
        val record = Fixtures.record(listOf(condition), arms, forks = 3) { _, kind, arm, fork ->
            if (kind == TrialKind.COST) Fixtures.cost(if (arm == Fixtures.NULL_HOP) 300.0 else 400.0 + fork) else null
        }
        val rows = com.fasterxml.jackson.dataformat.csv.CsvMapper().readerForListOf(String::class.java)
            .with(com.fasterxml.jackson.dataformat.csv.CsvParser.Feature.WRAP_AS_ARRAY)
            .readValues<List<String>>(CsvReport.render(record)).readAll()

        assertThat(rows[0].take(4)).containsExactly("condition", "kind", "arm", "forks")
        assertThat(rows.drop(1).map { it.take(3) }).contains(listOf(condition, "cost", "gRPC/Unary · a,b"))
        assertThat(rows).allSatisfy { assertThat(it).hasSameSizeAs(rows[0]) }
    }

    @Test
    fun `a missing, foreign or older run json is a clear error`(@TempDir dir: Path) {
        assertThat(runCatching { RunStore.load(dir) }.exceptionOrNull()).hasMessageContaining("no run.json")
        dir.resolve("run.json").toFile().writeText("[1,2]")
        assertThat(runCatching { RunStore.load(dir) }.exceptionOrNull()).hasMessageContaining("not a Proto-Bench run record")
        dir.resolve("run.json").toFile().writeText("""{"schemaVersion": 1}""")
        assertThat(runCatching { RunStore.load(dir) }.exceptionOrNull()).hasMessageContaining("schema 1")
    }

    @Test
    fun `a rate every variant shares is given as a share of each variant's slowest capacity, flagged above utilisation`() {
        val condition = "image=1kb vus=10"
        val capacity = mapOf(
            "HTTP/JSON · h2" to 2000.0,
            "gRPC/Unary · h2" to 2400.0,
            "HTTP/JSON · pg" to 1300.0,
            "gRPC/Unary · pg" to 900.0,
        )
        val base = Fixtures.record(listOf(condition), capacity.keys.toList(), 1) { _, kind, arm, _ ->
            if (kind == TrialKind.CAPACITY) Figures.of(Figure.THROUGHPUT to capacity.getValue(arm)) else null
        }
        val r = base.copy(
            scenario = base.scenario.copy(variants = listOf(Variant("h2"), Variant("pg"))),
            // Set by the first variant's probes: half of h2's slowest.
            calibrations = listOf(Calibration(condition, 1, 2000.0, "HTTP/JSON · h2", 1000, 20)),
        )

        val md = MarkdownReport.render(r)

        assertThat(md).contains("- under h2: 50% of its slowest protocol, HTTP/JSON · h2 (2,000 correct answers/s)\n")
        assertThat(md).contains(
            "- under pg: 111.1% of its slowest protocol, gRPC/Unary · pg (900 correct answers/s) — above the scenario's utilisation of 50%",
        )
    }
}
