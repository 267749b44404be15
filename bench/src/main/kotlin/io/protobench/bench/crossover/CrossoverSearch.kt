package io.protobench.bench.crossover

import io.protobench.bench.measure.Figure
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.scenario.Axis
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome

/** The [n]th point the search measures (1 and 2 are the ends), at [position] on the axis. */
data class Probe(val n: Int, val position: Long)

/**
 * What measuring one point gave: the decision between the pair on the primary figure,
 * or why there is none. [run] names the point's run folder, [seconds] its wall time.
 */
data class PointMeasurement(val decision: Decision?, val run: String? = null, val seconds: Double? = null, val failure: String? = null)

enum class PointOutcome { BETTER, EQUIVALENT, INCONCLUSIVE, FAILED }

/**
 * One probed point as crossover.json keeps it. [ratio] is A/B on the figure (geometric
 * mean over forks) with the decision's interval ([ratioLow], [ratioHigh] at [confidence]);
 * for a winner, [advantagePercent] is its advantage as the verdict states it.
 */
data class PointRecord(
    val n: Int,
    val value: String,
    val position: Long,
    val outcome: PointOutcome,
    val winner: String? = null,
    val advantagePercent: Double? = null,
    val ratio: Double? = null,
    val ratioLow: Double? = null,
    val ratioHigh: Double? = null,
    val confidence: Double? = null,
    /** Forks that paired the two protocols. */
    val forks: Int = 0,
    /** Undecided: about how many more forks would decide it, if the spread held. */
    val moreForks: Int? = null,
    /** The verdict in words, as the point's report.md gives it. */
    val decision: String? = null,
    val run: String? = null,
    val seconds: Double? = null,
    val failure: String? = null,
) {
    companion object {
        fun of(probe: Probe, axis: Axis, measured: PointMeasurement): PointRecord {
            val base = PointRecord(
                probe.n,
                axis.label(probe.position),
                probe.position,
                PointOutcome.FAILED,
                run = measured.run,
                seconds = measured.seconds,
            )
            val d = measured.decision
            if (measured.failure != null || d == null) {
                return base.copy(failure = measured.failure ?: Texts.EN("crossover.failure.no-decision"))
            }
            val outcome = d.outcome
            return base.copy(
                outcome = when (outcome) {
                    is Outcome.Better -> PointOutcome.BETTER
                    Outcome.Equivalent -> PointOutcome.EQUIVALENT
                    is Outcome.Inconclusive -> PointOutcome.INCONCLUSIVE
                },
                winner = (outcome as? Outcome.Better)?.winner,
                advantagePercent = (outcome as? Outcome.Better)?.sizePercent,
                ratio = d.estimate.ratio.takeIf { it.isFinite() },
                ratioLow = d.interval?.low,
                ratioHigh = d.interval?.high,
                confidence = d.interval?.confidence,
                forks = d.estimate.n,
                moreForks = (outcome as? Outcome.Inconclusive)?.moreForks,
                decision = MarkdownReport.sentence(d),
            )
        }
    }
}

/**
 * What the points measured so far say, read in axis order. The pair *flips* when one
 * protocol wins at [from] and the other at [to]; then [lastLow] is the highest point the
 * first won and [firstHigh] the lowest point the other won, and [band] the points between
 * them, each equivalent or undecided. The flip lies between [lastLow] and [firstHigh].
 */
class Findings(
    private val axis: Axis,
    private val from: Long,
    private val to: Long,
    points: List<PointRecord>,
    private val edge: Boolean = false,
) {
    val measured: List<PointRecord> = points.filter { it.outcome != PointOutcome.FAILED }.sortedBy { it.position }
    val atFrom: PointRecord? = measured.firstOrNull { it.position == from }
    val atTo: PointRecord? = measured.firstOrNull { it.position == to }
    val lowWinner: String? = atFrom?.winner
    val highWinner: String? = atTo?.winner
    val flips: Boolean = lowWinner != null && highWinner != null && lowWinner != highWinner
    val lastLow: PointRecord? = if (flips) measured.last { it.winner == lowWinner } else null
    val firstHigh: PointRecord? = if (flips) measured.first { it.winner == highWinner } else null
    val band: List<PointRecord> = if (lastLow == null || firstHigh == null) {
        emptyList()
    } else {
        measured.filter { it.position > lastLow.position && it.position < firstHigh.position }
    }

    /** Undecided points outside the band: inside a region a protocol won on both sides of them. */
    val strays: List<PointRecord> = if (!flips) {
        emptyList()
    } else {
        measured.filter { it.outcome != PointOutcome.BETTER && it !in band }
    }

    /**
     * With [edge], when one end is won and the other has no winner (equivalent or undecided):
     * the protocol that won it. Its lead is followed from its end, through the points it won,
     * to [edgeLost], the first point where it is not shown; [edgeWon] is the point before.
     */
    val edgeWinner: String? = if (!edge || flips || atFrom == null || atTo == null) {
        null
    } else {
        listOf(atFrom, atTo).singleOrNull { it.outcome == PointOutcome.BETTER }?.winner
    }

    /** True when the edge winner won the low end, so its shown lead runs up the axis. */
    val edgeAtLow: Boolean = edgeWinner != null && edgeWinner == lowWinner

    /** The points in order from the edge winner's end towards the other end. */
    private val fromEdgeEnd: List<PointRecord> = when {
        edgeWinner == null -> emptyList()
        edgeAtLow -> measured
        else -> measured.reversed()
    }
    val edgeLost: PointRecord? = fromEdgeEnd.firstOrNull { it.winner != edgeWinner }
    val edgeWon: PointRecord? = edgeLost?.let { fromEdgeEnd[fromEdgeEnd.indexOf(it) - 1] }

    /**
     * The brackets the search can still narrow: between the last point the first winner won
     * and the band (or the other winner's first point), and between the band and that point;
     * with no flip, the edge winner's bracket ([edgeWon] to [edgeLost]) if there is one.
     */
    fun brackets(): List<Pair<Long, Long>> {
        if (!flips) {
            val won = edgeWon?.position ?: return emptyList()
            val lost = edgeLost!!.position
            return listOf(minOf(won, lost) to maxOf(won, lost))
        }
        val low = lastLow?.position ?: return emptyList()
        val high = firstHigh!!.position
        if (band.isEmpty()) return listOf(low to high)
        return listOf(low to band.first().position, band.last().position to high)
    }

    /** The widest bracket still wider than [resolution] that can be split, the lower one on a tie; null when none. */
    fun next(resolution: Double): Pair<Long, Long>? = brackets()
        .filter { (lo, hi) -> !axis.narrow(lo, hi, resolution) && axis.midpoint(lo, hi) != null }
        .maxWithOrNull(compareBy<Pair<Long, Long>> { (lo, hi) -> axis.width(lo, hi) }.thenByDescending { it.first })
}

/** The points in probe order and why the search stopped; [failed] when a point's run failed or was cut short. */
data class SearchResult(val points: List<PointRecord>, val stoppedBecause: String, val failed: Boolean)

/**
 * Where does the answer flip? Measures both ends of the range first. When the same
 * protocol wins at both (or neither end is won by a protocol the other end is not), there
 * is no flip in range and the search stops. Otherwise it bisects the bracket between the
 * last point won by the first winner and the first point won by the other (geometric
 * midpoints on a log scale, middle level for complexity), until every bracket is narrower
 * than [resolution] or [steps] midpoints are spent. A midpoint that comes out equivalent or
 * undecided (each point's run has already spent its extra forks on an undecided
 * comparison) joins the band between the two; the search goes on narrowing the brackets on
 * either side of the band, the wider first. With [edge], one end won and the other without a
 * winner is a bracket too: the search narrows where that end's lead stops being shown.
 *
 * Pure logic: [measure] measures one point; nothing here starts a process.
 */
class CrossoverSearch(
    private val axis: Axis,
    private val from: Long,
    private val to: Long,
    private val resolution: Double,
    private val steps: Int,
    /** Also search where one end's lead stops being shown when the other end has no winner (`--edge`). */
    private val edge: Boolean = false,
) {
    init {
        require(from < to) { "from must be below to" }
        require(steps >= 0) { "steps must not be negative" }
    }

    /** Runs the search; [saved] is called with the points after every point, so a caller can keep them. */
    fun run(measure: (Probe) -> PointMeasurement, saved: (List<PointRecord>) -> Unit = {}): SearchResult {
        val points = mutableListOf<PointRecord>()
        fun probe(position: Long): PointRecord {
            val probe = Probe(points.size + 1, position)
            return PointRecord.of(probe, axis, measure(probe)).also {
                points += it
                saved(points.toList())
            }
        }
        fun failed(p: PointRecord) =
            SearchResult(points.toList(), Texts.EN("crossover.stop.failed", p.n, axis.display(p.position), p.failure), true)

        for (end in listOf(from, to)) probe(end).let { if (it.outcome == PointOutcome.FAILED) return failed(it) }
        val ends = findings(points)
        if (!ends.flips && ends.edgeWinner == null) {
            // An undecided end leaves nothing to bisect: that is not the same as no flip.
            val undecided = points.any { it.outcome == PointOutcome.INCONCLUSIVE }
            return SearchResult(
                points.toList(),
                Texts.EN(if (undecided) "crossover.stop.end-undecided" else "crossover.stop.no-flip"),
                false,
            )
        }
        repeat(steps) {
            val (lo, hi) = findings(points).next(resolution) ?: return SearchResult(points.toList(), finished(points), false)
            probe(axis.midpoint(lo, hi)!!).let { if (it.outcome == PointOutcome.FAILED) return failed(it) }
        }
        val open = findings(points).next(resolution)
        return SearchResult(points.toList(), if (open == null) finished(points) else Texts.EN("crossover.stop.steps", steps), false)
    }

    fun findings(points: List<PointRecord>) = Findings(axis, from, to, points, edge)

    private fun finished(points: List<PointRecord>): String {
        val wide = findings(points).brackets().filter { (lo, hi) -> !axis.narrow(lo, hi, resolution) }
        return Texts.EN(
            when {
                wide.isNotEmpty() -> if (axis == Axis.SIZE) "crossover.stop.whole-kb" else "crossover.stop.whole"
                axis == Axis.COMPLEXITY -> "crossover.stop.adjacent"
                else -> "crossover.stop.resolution"
            },
            resolution,
        )
    }

    companion object {
        /** The word a verdict on [figure] uses for "better". */
        fun word(figure: Figure, t: Texts = Texts.EN) = MarkdownReport.betterWord(figure.key, t)
    }
}
