package io.protobench.bench.crossover

import io.protobench.bench.design.Fork
import io.protobench.bench.design.ForkRunner
import io.protobench.bench.design.Lab
import io.protobench.bench.design.LoadRun
import io.protobench.bench.design.Mix
import io.protobench.bench.design.Sample
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.run.RunStore
import io.protobench.bench.run.toRecord
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Axis
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Target
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.EnglishSentences
import io.protobench.bench.testkit.FakeLabSource
import io.protobench.bench.testkit.Fixtures
import io.protobench.bench.testkit.PROCESS
import io.protobench.bench.testkit.StepClock
import io.protobench.bench.text.Texts
import io.protobench.contract.payload.PayloadSize
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset

/**
 * A whole search through the real [ForkRunner], planner and analysis, on a fake lab whose
 * hop costs depend on the payload size: no servers, a clock that moves only with the work.
 */
class CrossoverRunTest {
    @TempDir
    lateinit var tmp: Path

    /**
     * Each protocol's true hop cost (µs per request) at a payload size; each fork scales every
     * arm by the same luck, each trial adds its own noise. [paths] records what was asked.
     */
    private class SizeLab(val clock: StepClock, val hop: (String, Long) -> Double, val trialNoise: Double = 0.01) : Lab {
        private val random = java.util.Random(11)
        val paths = mutableSetOf<String>()

        override fun startFork(index: Int, variant: Variant?): Fork {
            clock.advance(Duration.ofSeconds(12))
            val luck = 1 + 0.04 * random.nextGaussian()
            return object : Fork {
                override fun measure(run: LoadRun): Sample {
                    clock.advance(run.duration)
                    paths += run.cell.condition.target.gatewayPath(run.cell.arm)
                    val bytes = PayloadSize.parse((run.cell.condition.target as Target.Size).size).bytes.toLong()
                    val arm = run.cell.arm
                    val cost = if (arm is Arm.Of) hop(arm.protocol.label, bytes) * luck * (1 + trialNoise * random.nextGaussian()) else 0.0
                    val total = 300 * luck + cost
                    return Sample(
                        Figures.of(
                            Figure.THROUGHPUT to 2e6 / (total + 150),
                            Figure.TOTAL_CPU_US to total,
                            Figure.DRIVER_CPU_US to 150.0,
                            Figure.HOP_P50 to 0.1 + cost / 1000,
                        ),
                        Fixtures.FINE_ANSWERS,
                        0,
                    )
                }

                override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix = object : Mix {
                    override fun window(length: Duration): SoakWindow {
                        clock.advance(length)
                        return SoakWindow(1000.0, 500.0)
                    }
                    override fun close() = Unit
                }

                override fun alive() = true
                override fun collectGarbage() = io.protobench.contract.metrics.HeapsCollected(null, null)
                override fun effectiveSettings() = emptyMap<String, String>()
                override fun close() = Unit
            }
        }
    }

    private val kb = 1024L

    /** gRPC/Unary 20 + 1.0 µs per KB, HTTP/Binary 95 + 0.5 µs per KB: the same at 150 KB. */
    private val flipAt150 = { protocol: String, bytes: Long ->
        if (protocol == "gRPC/Unary") 20 + bytes / 1024.0 else 95 + 0.5 * bytes / 1024.0
    }

    /** Runs every point with the real fork runner on [lab]; [before] is called as a point starts. */
    private fun points(
        clock: StepClock,
        lab: SizeLab,
        folders: MutableList<String> = mutableListOf(),
        verdict: PointVerdict = PointVerdict(Figure.HOP_CPU_US),
        before: (Int) -> Unit = {},
    ) = PointRunner { n, scenario, folder ->
        before(n)
        folders += folder
        val start = RunRecord(
            runId = folder,
            scenario = scenario.toRecord(),
            options = emptyMap(),
            environment = RunEnvironment(cpuModel = "Test CPU", cpuCores = 2),
            startedAt = clock.instant().toString(),
            status = RunStatus.RUNNING,
            seed = n.toLong(),
        )
        val r = ForkRunner(scenario, lab, verdict.judge, clock, {}).run(start)
        r.copy(status = RunStatus.COMPLETE, finishedAt = clock.instant().toString())
    }

    /** Points run by [BenchmarkPoints] on a fake lab, each a run folder under [root] with its run.json and report in [texts]. */
    private fun pointFolders(clock: StepClock, root: Path, texts: Texts = Texts.EN) = BenchmarkPoints(
        FakeLabSource(SizeLab(clock, flipAt150)),
        root,
        PointVerdict(Figure.HOP_CPU_US),
        seed = 5,
        given = emptyMap(),
        progress = {},
        clock = clock,
        texts = texts,
    )

    /** A search of 3 to 6 forks a point: adaptive, so these tests see the planner add forks where a point is open. */
    private fun plan(
        vararg changes: Pair<String, String>,
        steps: Int = 6,
        figure: String? = null,
        resolution: Double = CrossoverPlan.DEFAULT_RESOLUTION,
        edge: Boolean = false,
    ): CrossoverPlan {
        val m = mapOf("from" to "10kb", "to" to "2mb") + changes
        return CrossoverPlan.of(
            CrossoverRequest(
                "gRPC/Unary,HTTP/Binary",
                "size",
                m.getValue("from"),
                m.getValue("to"),
                resolution = resolution,
                steps = steps,
                figure = figure,
                forks = 3,
                maxForks = 6,
                edge = edge,
            ),
        )
    }

    @Test
    fun `a search through the fork runner brackets the flip and writes a record that renders again`() {
        val clock = StepClock()
        val lab = SizeLab(clock, flipAt150)
        val folders = mutableListOf<String>()
        val store = CrossoverStore(tmp)
        val record = CrossoverRun(plan(), store, points(clock, lab, folders), seed = 5, clock = clock).run()

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        val f = record.findings()
        assertThat(f.flips).isTrue()
        assertThat(f.lowWinner).isEqualTo("gRPC/Unary")
        assertThat(150 * kb).isBetween(f.lastLow!!.position, f.firstHigh!!.position)
        assertThat(folders.take(3)).containsExactly("point-1-10kb", "point-2-2mb", "point-3-143kb")
        assertThat(record.points.map { it.run }).containsExactlyElementsOf(folders)
        assertThat(record.points).allSatisfy { assertThat(it.forks).isBetween(3, 6) }
        assertThat(record.points.filter { it.outcome == PointOutcome.INCONCLUSIVE }).allSatisfy { assertThat(it.forks).isEqualTo(6) }
        assertThat(record.machine.cpuModel).isEqualTo("Test CPU")
        // Only the pair and the null hop, at the points' sizes.
        assertThat(lab.paths.map { it.substringBefore("?") }.toSet())
            .containsExactlyInAnyOrder("/api/data/grpc", "/api/data/http/binary", "/api/data/none")
        assertThat(lab.paths.map { it.substringAfter("?size=") }.toSet())
            .containsExactlyInAnyOrderElementsOf(record.points.map { it.value })

        val md = Files.readString(tmp.resolve("crossover.md"))
        assertThat(md).isEqualTo(CrossoverReport.render(CrossoverRecord.load(tmp)))
        assertThat(CrossoverRecord.load(tmp)).isEqualTo(record)
        assertThat(md).contains(
            "# Proto-Bench crossover: gRPC/Unary vs HTTP/Binary by size",
            "**The answer flips between",
            "| 143kb | 3 | ",
            "[point-3-143kb/](point-3-143kb/report.md)",
            "- Machine: Test CPU, 2 cores",
        )
        // Rows in axis order, whatever the order of probing.
        val rows = md.lines().filter { Regex("""^\| \d+(kb|mb) \|""").containsMatchIn(it) }.map { it.split(" | ")[0].removePrefix("| ") }
        assertThat(rows.map { PayloadSize.parse(it).bytes }).isSorted().hasSize(record.points.size)
    }

    @Test
    fun `a coarse search says how many points its resolution allows, and measures no more`() {
        val clock = StepClock()
        val plan = plan("from" to "100kb", "to" to "500kb", resolution = 1.5)
        val record = CrossoverRun(plan, CrossoverStore(tmp), points(clock, SizeLab(clock, flipAt150)), seed = 5, clock = clock).run()

        assertThat(record.maxPoints).isEqualTo(5)
        assertThat(record.points.size).isBetween(3, 5)
        assertThat(Files.readString(tmp.resolve("crossover.md"))).contains("within ×1.5, at most 3 midpoints (5 points)")
    }

    @Test
    fun `with --edge a lead that fades is searched to where it stops being shown, and the record keeps the flag`() {
        val clock = StepClock()
        // gRPC/Unary's hop is the cheaper below 150 KB; from there both cost the same.
        val fades = { protocol: String, bytes: Long ->
            val kb = bytes / 1024.0
            if (protocol == "gRPC/Unary" && kb < 150) 20 + kb else 95 + 0.5 * kb
        }
        val record = CrossoverRun(
            plan(edge = true),
            CrossoverStore(tmp),
            points(clock, SizeLab(clock, fades)),
            seed = 5,
            clock = clock,
        ).run()

        assertThat(record.edge).isTrue()
        assertThat(CrossoverRecord.load(tmp)).isEqualTo(record)
        val f = record.findings()
        assertThat(f.flips).isFalse()
        assertThat(f.edgeWinner).isEqualTo("gRPC/Unary")
        assertThat(record.points.size).isGreaterThan(2)
        assertThat(f.edgeWon!!.position).isLessThan(150 * kb)
        assertThat(Files.readString(tmp.resolve("crossover.md"))).contains(
            "with `--edge` also while one end is won and the other has no winner",
            "**gRPC/Unary is cheaper up to ${Axis.SIZE.display(f.edgeWon!!.position)}; from ",
        )
    }

    @Test
    fun `a search on the hop's p50 decides every point on it and records the figure it compared`() {
        val clock = StepClock()
        // Hop CPU flips at 150 KB as above, the hop's p50 with it; the null hop's p50 stays at 0.1 ms.
        val plan = plan(figure = "hop-p50")
        val record = CrossoverRun(
            plan,
            CrossoverStore(tmp),
            points(clock, SizeLab(clock, flipAt150), verdict = plan.verdict),
            seed = 5,
            clock = clock,
        ).run()

        assertThat(record.figure).isEqualTo(Figure.HOP_P50.key)
        assertThat(record.points).allSatisfy { assertThat(it.decision).startsWith("Hop p50:") }
        val f = record.findings()
        assertThat(f.lowWinner).isEqualTo("gRPC/Unary")
        assertThat(150 * kb).isBetween(f.lastLow!!.position, f.firstHigh!!.position)
        assertThat(CrossoverReport.answer(record)).contains("lower")
    }

    @Test
    fun `points run through the run shell each get a run folder with run_json and a report`() {
        val clock = StepClock()
        val root = tmp.resolve("search")
        val points = BenchmarkPoints(
            FakeLabSource(SizeLab(clock, flipAt150)),
            root,
            PointVerdict(Figure.HOP_CPU_US),
            seed = 5,
            given = mapOf("test" to "crossover"),
            progress = {},
            clock = clock,
        )
        val record = CrossoverRun(plan(steps = 3), CrossoverStore(Files.createDirectories(root)), points, seed = 5, clock = clock).run()

        assertThat(record.status).describedAs(record.stoppedBecause).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.points).hasSizeGreaterThanOrEqualTo(3).allSatisfy { point ->
            val run = RunStore.load(root.resolve(point.run))
            assertThat(run.status).isEqualTo(RunStatus.COMPLETE)
            assertThat(run.options).containsEntry("point", point.n.toString())
            assertThat(root.resolve(point.run).resolve("report.md")).exists()
        }
        assertThat(record.findings().flips).isTrue()
    }

    @Test
    fun `a point left undecided gets its minimum forks, more only while they could decide it, and counts as undecided`() {
        val clock = StepClock()
        // 2% apart with 15% noise per trial: no number of forks up to 6 decides it, so the
        // planner adds forks only while its estimate says they could (never beyond 6).
        val lab = SizeLab(clock, { p, _ -> if (p == "gRPC/Unary") 100.0 else 102.0 }, trialNoise = 0.15)
        val record = CrossoverRun(plan(), CrossoverStore(tmp), points(clock, lab), seed = 5, clock = clock).run()

        assertThat(record.points).hasSize(2).allSatisfy {
            assertThat(it.outcome).isEqualTo(PointOutcome.INCONCLUSIVE)
            assertThat(it.forks).isBetween(3, 6)
        }
        assertThat(record.stoppedBecause).isEqualTo("an end is undecided, so there is no bracket to search")
        assertThat(CrossoverReport.answer(record))
            .startsWith("**Unknown whether the answer flips between 10kb and 2mb**: at 10kb undecided")
    }

    @Test
    fun `a point whose run fails ends the search as failed, keeping every point measured`() {
        val clock = StepClock()
        val run = CrossoverRun(
            plan(),
            CrossoverStore(tmp),
            points(clock, SizeLab(clock, flipAt150)) { n ->
                if (n == 3) throw java.io.IOException("disk full")
            },
            seed = 5,
            clock = clock,
        )
        val record = run.run()

        assertThat(record.status).isEqualTo(RunStatus.FAILED)
        assertThat(record.points).hasSize(3)
        assertThat(record.points.last().failure).isEqualTo("IOException: disk full")
        assertThat(record.stoppedBecause).isEqualTo("point 3 at 143kb failed: IOException: disk full")
        assertThat(Files.readString(tmp.resolve("crossover.md")))
            .contains("The search did not finish at point 3 (143kb): IOException: disk full.")
    }

    @Test
    @Tag(PROCESS)
    fun `children a dead search left in a point's folder are reaped by the next run`() {
        fun line(p: ProcessHandle) = "${p.pid()} ${p.info().startInstant().get().toEpochMilli()}"
        val owner = ProcessBuilder("true").start().also { it.waitFor() }.toHandle()
        val ownerLine = "${owner.pid()} 1" // a CLI that is gone
        val child = ProcessBuilder("sleep", "60").start()
        try {
            val point = Files.createDirectories(tmp.resolve("results/20260101-000000-crossover/point-1-10kb"))
            Files.write(point.resolve(io.protobench.bench.process.ChildProcesses.FILE_NAME), listOf(ownerLine, line(child.toHandle())))
            val reaped = io.protobench.bench.process.ChildProcesses.reapStale(tmp.resolve("results"))
            assertThat(reaped).containsExactly("killed pid ${child.pid()} left running by point-1-10kb")
            assertThat(child.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue()
        } finally {
            child.destroyForcibly()
        }
    }

    @Test
    fun `a signal during a point seals the record as interrupted at that point, and nothing later overwrites it`() {
        val clock = StepClock()
        lateinit var run: CrossoverRun
        val interruptedRun = PointRunner { n, scenario, folder ->
            val r = points(clock, SizeLab(clock, flipAt150)).run(n, scenario, folder)
            if (n == 2) {
                run.interrupted() // as the shutdown hook would, while the point's run is being stopped
                r.copy(
                    status = RunStatus.INTERRUPTED,
                    failure = "stopped by a signal (Ctrl-C or SIGTERM)",
                    forks = r.forks.map { it.copy(status = ForkStatus.INTERRUPTED) },
                )
            } else {
                r
            }
        }
        run = CrossoverRun(plan(), CrossoverStore(tmp), interruptedRun, seed = 5, clock = clock)
        val returned = run.run()

        val kept = CrossoverRecord.load(tmp)
        assertThat(kept.status).isEqualTo(RunStatus.INTERRUPTED)
        assertThat(kept.stoppedBecause).isEqualTo("interrupted during point 2 at 2mb")
        assertThat(kept.points.map { it.n }).containsExactly(1, 2)
        assertThat(kept.points[1].failure).contains("interrupted by a signal", "point-2-2mb/run.json")
        assertThat(returned.status).isEqualTo(RunStatus.INTERRUPTED)
    }

    @Test
    fun `a Korean search writes crossover_md and each point's report in Korean, none with a sentence of the English catalogue`() {
        val clock = StepClock()
        val root = Files.createDirectories(tmp.resolve("search"))
        val points = pointFolders(clock, root, korean)
        val record = CrossoverRun(plan(steps = 2), CrossoverStore(root, korean), points, seed = 5, clock = clock).run()

        assertThat(record.findings().flips).isTrue()
        // The record keeps its sentences in English; crossover.md says them in Korean.
        assertThat(record.stoppedBecause).isEqualTo("the step budget of 2 midpoints is spent")
        assertThat(record.fixed).startsWith("closed model at 10 VUs; cost trials at")
        val md = Files.readString(root.resolve("crossover.md"))
        assertThat(md).isEqualTo(CrossoverReport.render(record, korean))
            .contains("# Proto-Bench 역전점 탐색: size에 따른 gRPC/Unary vs HTTP/Binary", "중간점 2개의 단계 예산을 다 씀", "VU 10에서 폐쇄 모델", "사이에서 답이 뒤집힘")
        assertThat(EnglishSentences.foundIn(md)).isEmpty()
        assertThat(EnglishSentences.foundIn(CrossoverReport.summary(record, korean).joinToString("\n"))).isEmpty()
        assertThat(md).contains("지점마다 포크 3–6개")
        val fixedDesign = record.copy(fixed = record.fixed.replace("3–6 forks per point", "5 forks per point"))
        assertThat(CrossoverReport.render(fixedDesign, korean)).contains("지점마다 포크 5개")
        for (point in record.points) {
            val report = Files.readString(root.resolve(point.run).resolve("report.md"))
            assertThat(report).contains("# Proto-Bench 보고서", "역전점 탐색 size에 따른 gRPC/Unary vs HTTP/Binary: ")
            assertThat(EnglishSentences.foundIn(report)).describedAs(point.run).isEmpty()
        }
        // The same record in English holds them: the check is not empty-handed.
        assertThat(EnglishSentences.foundIn(CrossoverReport.render(record))).contains("the step budget of", "The ratio is")
    }

    @Test
    fun `report on a search folder decides every point again from its run_json and names a point crossover_json disagrees with`() {
        val clock = StepClock()
        val root = Files.createDirectories(tmp.resolve("search"))
        val points = pointFolders(clock, root)
        val record = CrossoverRun(plan(steps = 1), CrossoverStore(root), points, seed = 5, clock = clock).run()
        val written = Files.readString(root.resolve("crossover.md"))
        Files.delete(root.resolve("crossover.md"))
        Files.delete(root.resolve(record.points.first().run).resolve("report.md"))

        val again = CrossoverRebuild.rebuild(root)

        assertThat(again.changed).isEmpty()
        assertThat(again.points).isEqualTo(record.points.size)
        assertThat(Files.readString(again.markdown)).isEqualTo(written)
        assertThat(root.resolve(record.points.first().run).resolve("report.md")).exists()

        // A crossover.json whose point says otherwise than its run is caught, and crossover.md follows the run.
        val tampered = record.copy(points = record.points.map { if (it.n == 2) it.copy(decision = "gRPC/Unary is better") else it })
        Files.write(root.resolve("crossover.json"), io.protobench.bench.json.JsonFiles.mapper.writeValueAsBytes(tampered))
        val caught = CrossoverRebuild.rebuild(root)
        assertThat(caught.changed.map { it.n }).containsExactly(2)
        assertThat(caught.changed.single().recorded).isEqualTo("gRPC/Unary is better")
        assertThat(Files.readString(caught.markdown)).isEqualTo(written)
    }

    @Test
    fun `a search along every axis renders in both languages, its bisection said in the catalogue's words`() {
        val clock = StepClock()
        val record = CrossoverRun(
            plan(steps = 1),
            CrossoverStore(tmp),
            points(clock, SizeLab(clock, flipAt150)),
            seed = 5,
            clock = clock,
        ).run()
        for (axis in io.protobench.bench.scenario.Axis.entries) {
            val along = record.copy(axis = axis, from = 1, to = 3, points = emptyList())
            assertThat(
                CrossoverReport.render(along),
            ).describedAs(axis.id).contains(Texts.EN("crossover.bisect.${axis.id}", along.resolution))
            assertThat(
                CrossoverReport.render(along, korean),
            ).describedAs(axis.id).contains(korean("crossover.bisect.${axis.id}", along.resolution))
        }
    }

    @Test
    fun `an undecided, a failed and an interrupted search read back in Korean from their English records`() {
        val clock = StepClock()
        val undecided = CrossoverRun(
            plan(),
            CrossoverStore(Files.createDirectories(tmp.resolve("u"))),
            points(clock, SizeLab(clock, { p, _ -> if (p == "gRPC/Unary") 100.0 else 102.0 }, trialNoise = 0.15)),
            seed = 5,
            clock = clock,
        ).run()
        val failed = CrossoverRun(
            plan(),
            CrossoverStore(Files.createDirectories(tmp.resolve("f"))),
            points(clock, SizeLab(clock, flipAt150)) { n ->
                if (n == 3) throw java.io.IOException("disk full")
            },
            seed = 5,
            clock = clock,
        ).run()
        lateinit var cut: CrossoverRun
        val interrupted = PointRunner { n, scenario, folder ->
            points(clock, SizeLab(clock, flipAt150)).run(n, scenario, folder).also { if (n == 2) cut.interrupted() }
        }
        cut = CrossoverRun(plan(), CrossoverStore(Files.createDirectories(tmp.resolve("i"))), interrupted, seed = 5, clock = clock)
        cut.run()
        val sealed = CrossoverRecord.load(tmp.resolve("i"))

        for ((record, words) in listOf(
            undecided to "한쪽 끝이 미결이라 탐색할 구간이 없음",
            failed to "지점 3(143kb) 실패: IOException: disk full",
            sealed to "지점 2(2mb) 측정 중 중단됨",
        )) {
            val md = CrossoverReport.render(record, korean)
            assertThat(md).contains(words)
            assertThat(EnglishSentences.foundIn(md)).describedAs(record.stoppedBecause).isEmpty()
        }
        assertThat(CrossoverReport.render(sealed, korean)).contains("신호(Ctrl-C 또는 SIGTERM)로 중단됨; 측정한 것은 point-2-2mb/run.json에 있음")
        // What no sentence of the code matches is shown as recorded.
        assertThat(CrossoverReport.render(sealed.copy(stoppedBecause = "no sentence of the code"), korean))
            .contains("**중단됨** — no sentence of the code;")
        assertThat(CrossoverReport.answer(undecided, korean)).startsWith("**10kb–2mb 구간에서 답이 뒤집히는지 알 수 없음**: 10kb에서 미판정")
    }

    private val korean = io.protobench.bench.text.Texts.of(io.protobench.bench.text.Lang.KO)
}
