package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.stats.Estimate

/** report.md: the seeds' phase tables, from our measurements, with statistics and a derived guide. */
object MarkdownReport {
    private val FLAG_MEANING = mapOf(
        "machine" to ": every core was busy, so the protocols competed for exhausted CPU and their differences are compressed;",
        "load generator" to ": k6 itself took a large share of the CPU, starving the servers;",
        "target rate" to ": the open-model target rate was not held, so this is not the latency at that rate;",
        "unsteady" to ": throughput did not settle, so warm-up or interference may bias these trials;",
    )

    /** Table columns: one figure, or the api-server / data-server pair of a per-process figure. */
    private class Column(val title: String, val figures: List<Figure>)
    private val columns = listOf(
        Column("Throughput (req/s) [95% CI]", listOf(Figure.THROUGHPUT)),
        Column("Latency avg (ms)", listOf(Figure.LATENCY_AVG)),
        Column("p50 (ms)", listOf(Figure.LATENCY_P50)),
        Column("p95 (ms)", listOf(Figure.LATENCY_P95)),
        Column("p99 (ms)", listOf(Figure.LATENCY_P99)),
        Column("Hop p50 (ms)", listOf(Figure.HOP_P50)),
        Column("CPU/req µs (api / data)", listOf(Figure.API_CPU_US, Figure.DATA_CPU_US)),
        Column("Peak heap MB (api / data)", listOf(Figure.API_PEAK_HEAP, Figure.DATA_PEAK_HEAP)),
        Column("GCs (api / data)", listOf(Figure.API_GC_COUNT, Figure.DATA_GC_COUNT)),
        Column("Errors", listOf(Figure.ERROR_RATE)),
    )

    fun render(record: RunRecord): String {
        val analyses = Analysis.of(record)
        return buildString {
            header(record)
            analyses.forEach { condition(it, record) }
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
        val warmupRounds = r.warmups.maxOfOrNull { it.round } ?: 0
        appendLine("- Load: ${r.scenario.loadModel} model; ${r.scenario.repetitions} trials of ${r.scenario.durationMs / 1000.0} s per cell, " +
            "interleaved in shuffled rounds (seed ${r.shuffleSeed}); before them $warmupRounds uncounted warm-up round(s) of " +
            "${r.scenario.warmupMs / 1000.0} s per cell (at most ${r.scenario.warmupRounds}, ending early once every cell's " +
            "throughput changed by at most 10% from its previous round)")
        appendLine("- ${env["processesSharingCpus"]}: absolute figures are this machine's; the ratios are what carries over.")
        appendLine("- CPU placement: ${env["placement"] ?: "not recorded"}")
        appendLine()
        appendLine("Figures are medians over trials; `[a, b]` is the 95% confidence interval of the mean (Student's t). " +
            "Latency is end to end as k6 saw it; *hop* is the gateway → data-server call alone. CPU/req is process CPU time " +
            "divided by requests in the window.")
        appendLine()
    }

    private fun StringBuilder.condition(a: ConditionAnalysis, record: RunRecord) {
        appendLine("## ${a.condition}")
        appendLine()
        appendLine("| Protocol | " + columns.joinToString(" | ") { it.title } + " | Rank |")
        appendLine("|---" + "|---:".repeat(columns.size) + "|---:|")
        for (cell in a.cells + a.controls) {
            val rank = a.ranking.indexOf(cell.protocol).takeIf { it >= 0 }?.plus(1)?.toString() ?: "–"
            val values = columns.joinToString(" | ") { column -> column.figures.joinToString(" / ") { f -> cellValue(cell.estimates[f], f) } }
            val name = if (rank == "1") "**${cell.protocol}**" else cell.protocol
            appendLine("| $name | $values | $rank |")
        }
        appendLine()
        a.comparisons.forEach { appendLine("- ${Verdicts.sentence(it)}") }
        // On the other ranked figures, only the best protocol against each other one.
        for (ranking in a.rankings.values.filter { it.figure != Figure.THROUGHPUT }) {
            val best = ranking.order.firstOrNull() ?: continue
            ranking.comparisons.filter { it.a == best }.forEach { appendLine("- ${Verdicts.sentence(it, ranking.figure)}") }
        }
        a.controlComparisons.forEach {
            appendLine("- Noise control: ${it.a} against ${it.b} — ${Verdicts.signed(it.differencePercent)}" +
                (it.ciLowPercent?.let { low -> ", 95% CI ${Verdicts.pct(low)} to ${Verdicts.pct(it.ciHighPercent!!)}" } ?: "") +
                "; noise floor here ±${a.noiseFloorPercent?.let(Verdicts::pct) ?: "–"}")
        }
        if (a.controls.isEmpty()) appendLine("- No A/A control in this run: the noise floor was not measured (`--noise-control` adds one).")
        appendLine()
        flags(record.trials.filter { it.condition == a.condition })
    }

    /** Doubts about this condition's trials, by kind, with the worst case of each. */
    private fun StringBuilder.flags(trials: List<TrialRecord>) {
        val byKind = trials.flatMap { t -> t.flags.map { it.substringBefore(":") to "${t.protocol}: ${it.substringAfter(": ")}" } }
            .groupBy({ it.first }, { it.second })
        for ((kind, details) in byKind) {
            val meaning = FLAG_MEANING[kind] ?: ""
            appendLine("> **Flag — $kind** in ${details.size} of ${trials.size} trials$meaning e.g. ${details.first()}")
        }
        if (byKind.isNotEmpty()) appendLine()
    }

    private fun cellValue(e: Estimate?, figure: Figure): String {
        if (e == null) return "–"
        if (figure == Figure.ERROR_RATE) return Verdicts.pct(100 * e.median)
        val interval = if (figure == Figure.THROUGHPUT && e.ciLow != null) " [${Verdicts.number(e.ciLow)}, ${Verdicts.number(e.ciHigh)}]" else ""
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
        appendLine("| Condition | Protocol | api-server CPU/req (µs) | data-server CPU/req (µs) | Sum (µs) | Requests per CPU-second | k6 / api / data cores used | Machine busy |")
        appendLine("|---|---|---:|---:|---:|---:|---:|---:|")
        for (a in analyses) for (cell in a.cells.sortedByDescending { it.median(Figure.REQ_PER_CPU_SECOND) ?: 0.0 }) {
            appendLine("| ${a.condition} | ${cell.protocol} | ${Verdicts.number(cell.median(Figure.API_CPU_US))} | " +
                "${Verdicts.number(cell.median(Figure.DATA_CPU_US))} | ${Verdicts.number(cell.median(Figure.TOTAL_CPU_US))} | " +
                "${Verdicts.number(cell.median(Figure.REQ_PER_CPU_SECOND))} | " +
                "${Verdicts.number(cell.median(Figure.K6_CORES))} / ${Verdicts.number(cell.median(Figure.API_CORES))} / " +
                "${Verdicts.number(cell.median(Figure.DATA_CORES))} | ${cell.median(Figure.MACHINE_BUSY)?.let { Verdicts.pct(it * 100) } ?: "–"} |")
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
        val unsettled = WarmUpVerdict.unsettled(r)
        if (failed.isEmpty() && withErrors.isEmpty() && warmupErrors.isEmpty() && unsettled.isEmpty()) return
        appendLine("## Problems")
        appendLine()
        failed.forEach { appendLine("- Trial ${it.sequence} (${it.protocol} ${it.condition}) failed: ${it.error}") }
        withErrors.forEach {
            appendLine("- Trial ${it.sequence} (${it.protocol} ${it.condition}): ${Verdicts.pct(100 * it.figures.getValue(Figure.ERROR_RATE.key)!!)} of checks failed")
        }
        warmupErrors.forEach { appendLine("- Warm-up of ${it.protocol} ${it.condition} failed: ${it.error}") }
        unsettled.forEach { (last, firstTrial) ->
            appendLine("- Warm-up of ${last.protocol} ${last.condition} had not settled: its last round (${last.round}) still moved " +
                "${Verdicts.signed(100 * last.changeFromPrevious!!)} from the one before" +
                (firstTrial?.let { ", and the first trial differed from it by ${Verdicts.signed(it)}" } ?: "") +
                "; its trials may still include JIT warm-up")
        }
        appendLine()
    }
}
