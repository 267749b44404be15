package io.protobench.bench.report

import io.protobench.bench.measure.ForkPart
import io.protobench.bench.measure.ForkTime
import io.protobench.bench.measure.RunRecord
import java.time.Duration
import java.time.Instant

/**
 * Where a run's wall time went, from its record: each fork's timed parts ([ForkTime]) summed,
 * and the time outside every fork (choosing the next fork, judging the comparisons, saving the
 * record). Null where the record kept no fork's time (records from before it was kept).
 */
data class RunTime(val wallSeconds: Double, val forks: ForkTime, val betweenForks: Double) {
    companion object {
        fun of(r: RunRecord): RunTime? {
            val forks = r.forks.mapNotNull { it.time }.ifEmpty { return null }.reduce(ForkTime::plus)
            val end = r.finishedAt ?: r.forks.mapNotNull { it.finishedAt }.maxOrNull() ?: return null
            val wall = Duration.between(Instant.parse(r.startedAt), Instant.parse(end)).toMillis() / 1000.0
            return RunTime(wall, forks, (wall - forks.total()).coerceAtLeast(0.0))
        }

        /** The parts a report lists, in the order a fork runs them: those with any time. */
        fun partsWithTime(time: ForkTime): List<ForkPart> = ForkPart.entries.filter { time.of(it) > 0.0 }
    }
}
