package io.protobench.bench.crossover

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.scenario.Axis
import io.protobench.bench.verdict.ComparisonInput
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.PairedRatio
import io.protobench.bench.verdict.Verdicts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.math.ln

/**
 * The search without servers: every point is decided by the lab's own verdicts on
 * synthetic per-fork log ratios (A/B on hop CPU per request; below 0 A is cheaper).
 * With 3 forks and a spread of 0.02 a point is decided "better" from |log ratio| 0.05
 * on, "equivalent" below about 0.015 and undecided in between.
 */
class CrossoverSearchTest {
    private val a = "gRPC/Unary"
    private val b = "HTTP/Binary"
    private val kb = 1024L
    private val from = 10 * kb
    private val to = 2048 * kb

    private fun decision(meanLog: Double, spread: List<Double> = listOf(-0.02, 0.0, 0.02)): Decision = Verdicts.decide(
        listOf(ComparisonInput(a, b, Figure.HOP_CPU_US.key, false, PairedRatio.ofLogRatios(spread.map { meanLog + it }))),
        margin = 0.05,
    ).single()

    /** A fake lab whose true log ratio at a point is [truth]; [measured] collects the positions asked for, in order. */
    private class Fake(val truth: (Long) -> PointMeasurement) {
        val measured = mutableListOf<Long>()
        fun measure(p: Probe): PointMeasurement = truth(p.position).also { measured += p.position }
    }

    private fun fake(logRatio: (Long) -> Double) = Fake { PointMeasurement(decision(logRatio(it)), run = "point") }

    /** A steep flip at [at]: A cheaper below it, B above, decided outside about ±2%. */
    private fun flipAt(at: Long) = { x: Long -> 3 * ln(x.toDouble() / at) }

    private fun search(
        steps: Int = 6,
        resolution: Double = 1.25,
        axis: Axis = Axis.SIZE,
        lo: Long = from,
        hi: Long = to,
        edge: Boolean = false,
    ) = CrossoverSearch(axis, lo, hi, resolution, steps, edge)

    private fun record(result: SearchResult, axis: Axis = Axis.SIZE, lo: Long = from, hi: Long = to, edge: Boolean = false) =
        CrossoverRecord(
            id = "test", pair = listOf(a, b), axis = axis, from = lo, to = hi, resolution = 1.25, steps = 6, edge = edge, mode = "cost",
            figure = Figure.HOP_CPU_US.key, margin = 0.05, fixed = "closed model at 10 VUs", estimatedPointSeconds = 300, maxPoints = 8,
            seed = 1, startedAt = "2026-01-01T00:00:00Z", status = if (result.failed) RunStatus.FAILED else RunStatus.COMPLETE,
            finishedAt = "2026-01-01T00:40:00Z", stoppedBecause = result.stoppedBecause, points = result.points,
        )

    @Test
    fun `a flip at 150kb is bracketed within the resolution by geometric midpoints in whole KB`() {
        val lab = fake(flipAt(150 * kb))
        val result = search().run(lab::measure)
        val f = search().findings(result.points)

        assertThat(lab.measured.take(3)).containsExactly(from, to, 143 * kb) // sqrt(10 × 2048) KB = 143.1 KB
        assertThat(lab.measured.drop(2)).allSatisfy { assertThat(it % kb).isZero() }
        assertThat(lab.measured).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(8)
        assertThat(f.flips).isTrue()
        assertThat(f.lowWinner).isEqualTo(a)
        assertThat(f.highWinner).isEqualTo(b)
        assertThat(f.lastLow!!.position).isLessThan(150 * kb)
        assertThat(f.firstHigh!!.position).isGreaterThan(150 * kb)
        assertThat(f.firstHigh!!.position.toDouble() / f.lastLow!!.position).isLessThanOrEqualTo(1.25)
        assertThat(f.band).isEmpty()
        assertThat(result.failed).isFalse()
        assertThat(result.stoppedBecause).isEqualTo("the bracket is within ×1.25")
        assertThat(CrossoverReport.answer(record(result)))
            .startsWith(
                "**The answer flips between ${Axis.SIZE.display(f.lastLow!!.position)} and " +
                    "${Axis.SIZE.display(f.firstHigh!!.position)}**: " +
                    "gRPC/Unary is cheaper up to ${Axis.SIZE.display(f.lastLow!!.position)}, HTTP/Binary from",
            )
    }

    @Test
    fun `every midpoint splits the bracket as it stood when it was chosen`() {
        val lab = fake(flipAt(150 * kb))
        val points = mutableListOf<List<PointRecord>>()
        search(steps = 10).run(lab::measure) { points += it }
        for (i in 2 until lab.measured.size) {
            val before = search().findings(points[i - 1])
            val (lo, hi) = before.brackets().single()
            assertThat(lab.measured[i]).isEqualTo(Axis.SIZE.midpoint(lo, hi))
        }
    }

    @Test
    fun `the same winner at both ends is no flip, after measuring the ends alone`() {
        val lab = fake { -0.3 }
        val result = search().run(lab::measure)
        assertThat(lab.measured).containsExactly(from, to)
        assertThat(result.stoppedBecause).isEqualTo("no flip between the ends")
        assertThat(CrossoverReport.answer(record(result)))
            .startsWith(
                "**No flip between 10kb and 2mb**: gRPC/Unary is cheaper at both ends " +
                    "(Hop CPU/req: gRPC/Unary cheaper than HTTP/Binary by 25.9%",
            )
    }

    @Test
    fun `ends that are equivalent, or won by one protocol and equivalent at the other, are no flip either`() {
        val equal = search().run(fake { 0.0 }::measure)
        assertThat(equal.points).hasSize(2).allSatisfy { assertThat(it.outcome).isEqualTo(PointOutcome.EQUIVALENT) }
        assertThat(CrossoverReport.answer(record(equal)))
            .startsWith("**No flip between 10kb and 2mb**: at 10kb equivalent, at 2mb equivalent")

        val fading = search().run(fake { x -> if (x < 100 * kb) -0.3 else 0.0 }::measure)
        assertThat(fading.points).hasSize(2)
        assertThat(CrossoverReport.answer(record(fading)))
            .startsWith("**No flip between 10kb and 2mb**: at 10kb gRPC/Unary cheaper by 25.9%, at 2mb equivalent")
    }

    @Test
    fun `with --edge a lead that fades is followed to where it stops being shown`() {
        val lab = fake { x -> if (x < 100 * kb) -0.3 else 0.0 }
        val result = search(edge = true).run(lab::measure)
        val f = search(edge = true).findings(result.points)

        assertThat(lab.measured.take(3)).containsExactly(from, to, 143 * kb)
        assertThat(f.flips).isFalse()
        assertThat(f.edgeWinner).isEqualTo(a)
        assertThat(f.edgeAtLow).isTrue()
        assertThat(f.edgeWon!!.position).isLessThan(100 * kb)
        assertThat(f.edgeLost!!.position).isGreaterThanOrEqualTo(100 * kb)
        assertThat(f.edgeLost!!.outcome).isEqualTo(PointOutcome.EQUIVALENT)
        assertThat(f.edgeLost!!.position.toDouble() / f.edgeWon!!.position).isLessThanOrEqualTo(1.25)
        assertThat(result.stoppedBecause).isEqualTo("the bracket is within ×1.25")
        val won = Axis.SIZE.display(f.edgeWon!!.position)
        val lost = Axis.SIZE.display(f.edgeLost!!.position)
        assertThat(CrossoverReport.answer(record(result, edge = true))).isEqualTo(
            "**gRPC/Unary is cheaper up to $won; from $lost that is not shown**: at $lost equivalent, at 2mb equivalent. " +
                "No flip: the other end has no winner.",
        )
        // The same points read without --edge are the old answer: what each end decided.
        assertThat(CrossoverReport.answer(record(result))).startsWith("**No flip between 10kb and 2mb**")
    }

    @Test
    fun `with --edge a lead at the high end is followed down, and ends without a winner still stop the search`() {
        val lab = fake { x -> if (x > 300 * kb) 0.3 else 0.0 }
        val result = search(edge = true).run(lab::measure)
        val f = search(edge = true).findings(result.points)

        assertThat(f.edgeWinner).isEqualTo(b)
        assertThat(f.edgeAtLow).isFalse()
        assertThat(f.edgeWon!!.position).isGreaterThan(300 * kb)
        assertThat(f.edgeLost!!.position).isLessThanOrEqualTo(300 * kb)
        assertThat(f.edgeWon!!.position.toDouble() / f.edgeLost!!.position).isLessThanOrEqualTo(1.25)
        assertThat(CrossoverReport.answer(record(result, edge = true)))
            .startsWith("**HTTP/Binary is cheaper from ${Axis.SIZE.display(f.edgeWon!!.position)} on; up to ")

        val equal = search(edge = true).run(fake { 0.0 }::measure)
        assertThat(equal.points).hasSize(2)
        assertThat(equal.stoppedBecause).isEqualTo("no flip between the ends")
        val both = search(edge = true).run(fake { -0.3 }::measure)
        assertThat(both.points).hasSize(2)
    }

    @Test
    fun `an equivalent band in the middle is kept, and the brackets on both sides of it are narrowed`() {
        val lab = fake { x ->
            when {
                x < 100 * kb -> -0.5
                x > 200 * kb -> 0.5
                else -> 0.0
            }
        }
        val result = search(steps = 12).run(lab::measure)
        val f = search().findings(result.points)

        assertThat(f.band).isNotEmpty.allSatisfy {
            assertThat(it.outcome).isEqualTo(PointOutcome.EQUIVALENT)
            assertThat(it.position).isBetween(100 * kb, 200 * kb)
        }
        assertThat(f.lastLow!!.position).isLessThan(100 * kb)
        assertThat(f.band.first().position.toDouble() / f.lastLow!!.position).isLessThanOrEqualTo(1.25)
        assertThat(f.firstHigh!!.position).isGreaterThan(200 * kb)
        assertThat(f.firstHigh!!.position.toDouble() / f.band.last().position).isLessThanOrEqualTo(1.25)
        assertThat(result.stoppedBecause).isEqualTo("the bracket is within ×1.25")
        val low = Axis.SIZE.display(f.lastLow!!.position)
        val high = Axis.SIZE.display(f.firstHigh!!.position)
        assertThat(CrossoverReport.answer(record(result))).isEqualTo(
            "**The answer flips between $low and $high**: gRPC/Unary is cheaper up to $low, HTTP/Binary from $high; " +
                "between them equivalent within ±5% at ${f.band.joinToString(", ") { Axis.SIZE.display(it.position) }}.",
        )
    }

    @Test
    fun `an undecided end is said as such, not as no flip`() {
        // A wins at the low end; the high end's forks scatter too much to decide.
        val lab = Fake { x -> PointMeasurement(if (x == to) decision(0.0, listOf(-0.4, 0.1, 0.3)) else decision(-0.3)) }
        val result = search().run(lab::measure)
        assertThat(lab.measured).containsExactly(from, to)
        assertThat(result.stoppedBecause).isEqualTo("an end is undecided, so there is no bracket to search")
        assertThat(CrossoverReport.answer(record(result))).startsWith("**Unknown whether the answer flips")
    }

    @Test
    fun `an undecided midpoint joins the band and the search goes on narrowing on both sides of it`() {
        val steep = flipAt(150 * kb)
        // At 143kb the forks scatter too much to decide anything: the point stays undecided.
        val lab = Fake { x ->
            PointMeasurement(if (x == 143 * kb) decision(steep(x), listOf(-0.4, 0.1, 0.3)) else decision(steep(x)))
        }
        val result = search(steps = 12).run(lab::measure)
        val f = search().findings(result.points)

        val undecided = result.points.single { it.position == 143 * kb }
        assertThat(undecided.outcome).isEqualTo(PointOutcome.INCONCLUSIVE)
        assertThat(f.band).containsExactly(undecided)
        // Both sides were searched: points below 143kb (A) and above it (B).
        assertThat(lab.measured.drop(3))
            .anySatisfy { assertThat(it).isLessThan(143 * kb) }
            .anySatisfy { assertThat(it).isGreaterThan(143 * kb) }
        assertThat(f.brackets()).allSatisfy { (lo, hi) -> assertThat(Axis.SIZE.narrow(lo, hi, 1.25)).isTrue() }
        assertThat(CrossoverReport.answer(record(result))).contains("between them undecided at 143kb.")
        assertThat(result.points).hasSizeLessThanOrEqualTo(14)
    }

    @Test
    fun `with noisy forks the bracket stays ordered and nearly always holds the true flip`() {
        // A gentle slope and a spread of 0.1 between forks: points near the flip come out undecided, or now and then wrong.
        val truth = 150 * kb
        var flips = 0
        var holds = 0
        for (seed in 1..40) {
            val random = java.util.Random(seed.toLong())
            val lab = Fake { x -> PointMeasurement(decision(0.15 * ln(x.toDouble() / truth), List(3) { 0.1 * random.nextGaussian() })) }
            val result = search().run(lab::measure)
            val f = search().findings(result.points)
            assertThat(lab.measured).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(8)
            assertThat(lab.measured).allSatisfy { assertThat(it).isBetween(from, to) }
            if (!f.flips) continue
            flips++
            assertThat(f.lastLow!!.position).isLessThan(f.firstHigh!!.position)
            assertThat(f.band).allSatisfy { assertThat(it.outcome).isNotEqualTo(PointOutcome.BETTER) }
            if (truth in f.lastLow!!.position..f.firstHigh!!.position) holds++
        }
        assertThat(flips).isGreaterThanOrEqualTo(30)
        assertThat(holds.toDouble() / flips).isGreaterThanOrEqualTo(0.9)
    }

    @Test
    fun `a point whose run failed stops the search and is kept with its failure`() {
        val steep = flipAt(150 * kb)
        val lab = Fake { x ->
            if (x == 541 * kb) {
                PointMeasurement(null, run = "point-4-541kb", failure = "its run ended failed: no fork completed")
            } else {
                PointMeasurement(decision(steep(x)))
            }
        }
        val result = search().run(lab::measure)
        assertThat(result.failed).isTrue()
        assertThat(result.points.map { it.position }).containsExactly(from, to, 143 * kb, 541 * kb)
        assertThat(result.points.last().outcome).isEqualTo(PointOutcome.FAILED)
        assertThat(result.stoppedBecause).isEqualTo("point 4 at 541kb failed: its run ended failed: no fork completed")
        assertThat(CrossoverReport.answer(record(result)))
            .startsWith("**The answer flips between 143kb and 2mb**")
            .endsWith("The search did not finish at point 4 (541kb): its run ended failed: no fork completed.")

        val first = search().run(Fake { PointMeasurement(null, failure = "servers did not start") }::measure)
        assertThat(first.points).hasSize(1)
        assertThat(CrossoverReport.answer(record(first))).startsWith("No answer: the ends were not both measured.")
    }

    @Test
    fun `without midpoints the ends are the bracket`() {
        val result = search(steps = 0).run(fake(flipAt(150 * kb))::measure)
        assertThat(result.points).hasSize(2)
        assertThat(result.stoppedBecause).isEqualTo("the step budget of 0 midpoints is spent")
        assertThat(CrossoverReport.answer(record(result))).startsWith("**The answer flips between 10kb and 2mb**")
    }

    @Test
    fun `complexity levels are bisected by index until adjacent`() {
        // simple 0, medium 1, complex 2, ultra 3, extreme 4: A wins up to medium, B from complex.
        val lab = fake { level -> if (level <= 1) -0.3 else 0.3 }
        val result = search(axis = Axis.COMPLEXITY, lo = 0, hi = 4).run(lab::measure)
        assertThat(lab.measured).containsExactly(0L, 4L, 2L, 1L)
        assertThat(result.stoppedBecause).isEqualTo("the bracket is down to adjacent levels")
        assertThat(CrossoverReport.answer(record(result, Axis.COMPLEXITY, 0, 4)))
            .startsWith("**The answer flips between medium and complex**: gRPC/Unary is cheaper up to medium, HTTP/Binary from complex.")
    }

    @Test
    fun `midpoints are geometric and rounded to what the axis measures, or none when nothing lies between`() {
        assertThat(Axis.SIZE.midpoint(10 * kb, 2048 * kb)).isEqualTo(143 * kb)
        assertThat(Axis.SIZE.midpoint(100, 400)).isEqualTo(200) // below 1 KB: whole bytes
        assertThat(Axis.SIZE.midpoint(kb, 2 * kb)).isNull() // 1448 bytes rounds to 1kb
        assertThat(Axis.VUS.midpoint(10, 500)).isEqualTo(71)
        assertThat(Axis.RATE.midpoint(1, 2)).isNull()
        assertThat(Axis.COMPLEXITY.midpoint(0, 4)).isEqualTo(2)
        assertThat(Axis.COMPLEXITY.midpoint(1, 2)).isNull()
        assertThat(Axis.SIZE.narrow(143 * kb, 155 * kb, 1.25)).isTrue()
        assertThat(Axis.SIZE.narrow(143 * kb, 199 * kb, 1.25)).isFalse()
        assertThat(Axis.COMPLEXITY.narrow(1, 2, 1.25)).isTrue()
        assertThat(Axis.COMPLEXITY.narrow(1, 3, 100.0)).isFalse()
    }

    @Test
    fun `a bracket that rounding cannot split ends the search with that reason`() {
        val result = search(lo = kb, hi = 2 * kb, resolution = 1.1).run(fake { x -> if (x < 1500) -0.3 else 0.3 }::measure)
        assertThat(result.points).hasSize(2)
        assertThat(result.stoppedBecause).isEqualTo("the bracket cannot be split further at whole KB")
    }
}
