package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ToolRunRecord
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.stats.Estimate
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.PairedRatio

/**
 * A condition's runs of seed 003's own tools, beside the load driver's trials: per tool the geometric
 * mean over forks of its own throughput (95% interval on the log scale, as a 100-request
 * run's rate varies by factors), its latencies and the data-server's CPU
 * per request; then the two tools' throughput ratio, paired by fork; then the seed's own
 * warning. Never a verdict: each tool is a different client with costs of its own.
 */
object SeedToolsReport {

    fun render(out: StringBuilder, r: RunRecord, condition: String, t: Texts): Unit = with(out) {
        val runs = r.toolRuns.filter { it.condition == condition }
        if (runs.isEmpty()) return
        val first = runs.first()
        appendLine(t("tools.title", first.requests, first.concurrency))
        appendLine()
        appendLine(t("tools.header"))
        appendLine("|---|---|---:|---:|---:|---:|---:|")
        val byTool = runs.groupBy { it.tool }
        for ((tool, toolRuns) in byTool) {
            val valid = toolRuns.filter(::usable)
            fun mean(figure: Figure) = Estimate.of(valid.mapNotNull { it.figures[figure] })?.mean
            val throughput = Estimate.ofRates(valid.mapNotNull { it.figures[Figure.THROUGHPUT] })
            val failures = toolRuns.sumOf { run -> run.failures.values.sum() }
            appendLine(
                "| $tool | ${toolRuns.first().protocol} | ${valid.size} | ${withInterval(throughput)} | " +
                    "${Numbers.number(mean(Figure.LATENCY_AVG))} / ${Numbers.number(mean(Figure.LATENCY_P95))} | " +
                    "${Numbers.number(mean(Figure.DATA_CPU_US))} | ${Numbers.number(failures.toDouble())} |",
            )
        }
        appendLine()
        ratio(byTool, t)?.let {
            appendLine(it)
            appendLine()
        }
        leftOut(runs, t).forEach { appendLine(it) }
        appendLine(t("tools.warning"))
        appendLine()
    }

    /** A run that produced figures and whose answers were (almost) all creations. */
    private fun usable(run: ToolRunRecord) = run.error == null && run.flags.none { it is Flag.RowsMismatch } &&
        (run.figures[Figure.ERROR_RATE] ?: 1.0) <= TrialRecord.MAX_WRONG_SHARE

    private fun withInterval(e: Estimate?): String = when {
        e == null -> "–"
        e.ciLow == null || e.ciHigh == null -> Numbers.number(e.mean)
        else -> "${Numbers.number(e.mean)} [${Numbers.number(e.ciLow)}, ${Numbers.number(e.ciHigh)}]"
    }

    /** ghz's throughput against hey's, fork by fork, when both ran. */
    private fun ratio(byTool: Map<String, List<ToolRunRecord>>, t: Texts): String? {
        if (byTool.size != 2) return null
        val (a, b) = byTool.entries.sortedBy { it.key }.map { it.key to it.value.filter(::usable).associateBy { run -> run.fork } }
        val forks = (a.second.keys intersect b.second.keys).sorted()
        val paired = PairedRatio.of(
            forks.map { a.second.getValue(it).figures[Figure.THROUGHPUT] },
            forks.map { b.second.getValue(it).figures[Figure.THROUGHPUT] },
        )
        if (paired.n == 0) return null
        val interval = paired.interval()?.let { t("tools.interval", Numbers.signed(it.lowPercent), Numbers.signed(it.highPercent)) }
            ?: t("tools.no-interval")
        return t("tools.ratio", a.first, b.first, Numbers.signed(paired.percent), interval, paired.n)
    }

    /** Runs that failed or were left out, one line each. */
    private fun leftOut(runs: List<ToolRunRecord>, t: Texts): List<String> = runs.filterNot(::usable).map { run ->
        val why = run.error ?: run.failures.entries.joinToString { (what, count) -> "$count × $what" }
            .ifEmpty { run.flags.joinToString { it.javaClass.simpleName } }
        t("tools.left-out", run.tool, run.fork, why)
    }
}
