package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.stats.Estimate

/** report.md: the seeds' phase tables, from our measurements, with statistics and a derived guide. */
object MarkdownReport {
    private val tableFigures = listOf(
        Figure.THROUGHPUT, Figure.LATENCY_AVG, Figure.LATENCY_P50, Figure.LATENCY_P95, Figure.LATENCY_P99,
        Figure.HOP_P50, Figure.API_CPU_US, Figure.DATA_CPU_US, Figure.API_PEAK_HEAP, Figure.DATA_PEAK_HEAP,
        Figure.API_GC_COUNT, Figure.DATA_GC_COUNT, Figure.ERROR_RATE,
    )

    fun render(record: RunRecord): String {
        val analyses = Analysis.of(record)
        return buildString {
            header(record)
            analyses.forEach { condition(it) }
            guide(analyses)
            cpuEfficiency(analyses)
            seeds(analyses)
            problems(record)
        }
    }

    private fun StringBuilder.header(r: RunRecord) {
        val env = r.environment
        appendLine("# Proto-Bench report: ${r.scenario.name}")
        appendLine()
        appendLine("${r.scenario.description}")
        appendLine()
        appendLine("- Status: **${r.status}**${r.failure?.let { " — $it" } ?: ""}; started ${r.startedAt}, finished ${r.finishedAt ?: "–"}")
        appendLine("- Measured on: ${env["cpuModel"]}, ${env["cpuCores"]} cores, ${env["memoryTotalMb"]} MB, kernel ${env["kernel"]}")
        appendLine("- JDK ${env["jdk"]}; server JVM options `${(env["serverJvmOptions"] as? List<*>)?.joinToString(" ")}`; k6 `${env["k6"]}`")
        appendLine("- Libraries: ${(env["libraries"] as? Map<*, *>)?.entries?.joinToString { "${it.key} ${it.value}" }}")
        appendLine("- Source: commit `${env["gitCommit"]}`${if (env["gitDirty"] == true) " (with uncommitted changes)" else ""}")
        appendLine("- Load: ${r.scenario.loadModel} model; ${r.scenario.repetitions} trials of ${r.scenario.durationMs / 1000.0} s per cell " +
            "after ${r.scenario.warmupMs / 1000.0} s of uncounted warm-up; trials interleaved in shuffled rounds (seed ${r.shuffleSeed})")
        appendLine("- ${env["processesSharingCpus"]}: absolute figures are this machine's; the ratios are what carries over.")
        appendLine()
        appendLine("Figures are medians over trials; `[a–b]` is the 95% confidence interval of the mean (Student's t). " +
            "Latency is end to end as k6 saw it; *hop* is the gateway → data-server call alone. CPU/req is process CPU time " +
            "divided by requests in the window.")
        appendLine()
    }

    private fun StringBuilder.condition(a: ConditionAnalysis) {
        appendLine("## ${a.condition}")
        appendLine()
        appendLine("| Protocol | " + tableFigures.joinToString(" | ") { "${it.title} (${it.unit})" } + " | Rank |")
        appendLine("|---" + "|---:".repeat(tableFigures.size) + "|---:|")
        for (cell in a.cells) {
            val rank = a.ranking.indexOf(cell.protocol).takeIf { it >= 0 }?.plus(1)?.toString() ?: "–"
            val values = tableFigures.joinToString(" | ") { f -> cellValue(cell.estimates[f], f == Figure.THROUGHPUT) }
            val name = if (rank == "1") "**${cell.protocol}**" else cell.protocol
            appendLine("| $name | $values | $rank |")
        }
        appendLine()
        a.comparisons.forEach { appendLine("- ${Verdicts.sentence(it)}") }
        appendLine()
    }

    private fun cellValue(e: Estimate?, withInterval: Boolean): String {
        if (e == null) return "–"
        val interval = if (withInterval && e.ciLow != null) " [${Verdicts.number(e.ciLow)}–${Verdicts.number(e.ciHigh)}]" else ""
        return Verdicts.number(e.median) + interval
    }

    private fun StringBuilder.guide(analyses: List<ConditionAnalysis>) {
        appendLine("## Protocol selection guide (derived from this run)")
        appendLine()
        appendLine("Winner = highest median throughput; a winner is named only when it is significantly faster than every other protocol.")
        appendLine()
        SelectionGuide.lines(analyses).forEach { appendLine(it) }
        appendLine()
    }

    private fun StringBuilder.cpuEfficiency(analyses: List<ConditionAnalysis>) {
        appendLine("## CPU efficiency (both servers)")
        appendLine()
        appendLine("Requests served per CPU-second of api-server + data-server together (seed phase 7 measured the gateway only).")
        appendLine()
        appendLine("| Condition | Protocol | api-server CPU/req (µs) | data-server CPU/req (µs) | Sum (µs) | Requests per CPU-second |")
        appendLine("|---|---|---:|---:|---:|---:|")
        for (a in analyses) for (cell in a.cells.sortedByDescending { it.median(Figure.REQ_PER_CPU_SECOND) ?: 0.0 }) {
            appendLine("| ${a.condition} | ${cell.protocol} | ${Verdicts.number(cell.median(Figure.API_CPU_US))} | " +
                "${Verdicts.number(cell.median(Figure.DATA_CPU_US))} | ${Verdicts.number(cell.median(Figure.TOTAL_CPU_US))} | " +
                "${Verdicts.number(cell.median(Figure.REQ_PER_CPU_SECOND))} |")
        }
        appendLine()
    }

    private fun StringBuilder.seeds(analyses: List<ConditionAnalysis>) {
        appendLine("## Beside the seeds' published results")
        appendLine()
        val pairs = SeedReference.compare(analyses)
        if (pairs.isEmpty()) {
            appendLine("No condition of this run matches one the seeds published.")
            appendLine()
            return
        }
        appendLine("Throughput ratio of each protocol pair, the seeds' faster protocol first. *Reproduced* = our run finds " +
            "the same protocol significantly faster; *reversed* = significantly the other way.")
        appendLine()
        appendLine("| Seed | Condition | Pair | Seeds | This run | Outcome |")
        appendLine("|---|---|---|---:|---:|---|")
        pairs.forEach {
            appendLine("| ${it.source} | ${it.condition} | ${it.a} vs ${it.b} | ${Verdicts.signed(it.seedPercent)} | " +
                "${it.ourPercent?.let(Verdicts::signed) ?: "–"} | ${it.outcome} |")
        }
        val reproduced = pairs.count { it.outcome == "reproduced" }
        val reversed = pairs.count { it.outcome == "reversed" }
        appendLine()
        appendLine("Of ${pairs.size} seed comparisons: $reproduced reproduced, $reversed reversed, ${pairs.size - reproduced - reversed} inconclusive.")
        appendLine()
    }

    private fun StringBuilder.problems(r: RunRecord) {
        val failed = r.trials.filter { it.error != null }
        val withErrors = r.trials.filter { (it.figures[Figure.ERROR_RATE.key] ?: 0.0) > 0 }
        val warmupErrors = r.warmups.filter { it.error != null }
        if (failed.isEmpty() && withErrors.isEmpty() && warmupErrors.isEmpty()) return
        appendLine("## Problems")
        appendLine()
        failed.forEach { appendLine("- Trial ${it.sequence} (${it.protocol} ${it.condition}) failed: ${it.error}") }
        withErrors.forEach {
            appendLine("- Trial ${it.sequence} (${it.protocol} ${it.condition}): ${Verdicts.pct(100 * it.figures.getValue(Figure.ERROR_RATE.key)!!)} of checks failed")
        }
        warmupErrors.forEach { appendLine("- Warm-up of ${it.protocol} ${it.condition} failed: ${it.error}") }
        appendLine()
    }
}
