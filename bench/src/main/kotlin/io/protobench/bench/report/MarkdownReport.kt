package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.stats.Estimate
import io.protobench.bench.verdict.Decision
import io.protobench.bench.verdict.Outcome
import io.protobench.bench.verdict.Verdicts

/** report.md: per condition the hop's cost and latency, capacity, the decisions, the guide, the seeds, the problems. */
object MarkdownReport {
    private class Column(val title: String, val figures: List<Figure>)

    private val costColumns = listOf(
        Column("Hop CPU µs/req", listOf(Figure.HOP_CPU_US)),
        Column("Hop p50 / p99 ms", listOf(Figure.HOP_P50, Figure.HOP_P99)),
        Column("End-to-end p50 / p99 ms", listOf(Figure.LATENCY_P50, Figure.LATENCY_P99)),
        Column("CPU µs/req k6 / api / data", listOf(Figure.K6_CPU_US, Figure.API_CPU_US, Figure.DATA_CPU_US)),
        Column("Hop share", listOf(Figure.HOP_SHARE)),
        Column("Alloc/req api / data (B)", listOf(Figure.API_ALLOC, Figure.DATA_ALLOC)),
        Column("GCs / GC ms api", listOf(Figure.API_GC_COUNT, Figure.API_GC_TIME)),
        Column("GCs / GC ms data", listOf(Figure.DATA_GC_COUNT, Figure.DATA_GC_TIME)),
        Column("Machine busy", listOf(Figure.MACHINE_BUSY)),
    )
    private val capacityColumns = listOf(
        Column("Correct answers/s", listOf(Figure.THROUGHPUT)),
        Column("End-to-end p50 / p95 ms", listOf(Figure.LATENCY_P50, Figure.LATENCY_P95)),
        Column("CPU µs/req api / data", listOf(Figure.API_CPU_US, Figure.DATA_CPU_US)),
        Column("Peak heap MB api / data", listOf(Figure.API_PEAK_HEAP, Figure.DATA_PEAK_HEAP)),
        Column("GCs api / data", listOf(Figure.API_GC_COUNT, Figure.DATA_GC_COUNT)),
    )

    /** What a part of the report is about: the HTML report places charts by it and moves the guide to the top. */
    enum class Part { HEADER, VARIANTS, CONDITION, GUIDE, DECISION_MAP, SEEDS, FORKS, PLANNING, PROBLEMS }

    /** One part of the report in Markdown; [condition] names a condition's part. */
    data class Section(val part: Part, val markdown: String, val condition: String? = null)

    fun render(record: RunRecord): String = sections(record).joinToString("") { it.markdown }

    fun sections(record: RunRecord, analyses: List<ConditionAnalysis> = Analysis.of(record)): List<Section> {
        fun section(part: Part, condition: String? = null, write: StringBuilder.() -> Unit) = Section(part, buildString(write), condition)
        return listOf(section(Part.HEADER) { header(record, analyses) }, section(Part.VARIANTS) { variants(record) }) +
            analyses.map { a -> section(Part.CONDITION, a.condition) { condition(a, record) } } +
            listOf(
                section(Part.GUIDE) { guide(analyses) },
                section(Part.DECISION_MAP) { decisionMaps(analyses, record) },
                section(Part.SEEDS) { seeds(analyses) },
                section(Part.FORKS) { forks(record) },
                section(Part.PLANNING) { planning(record) },
                section(Part.PROBLEMS) { problems(record) },
            )
    }

    private fun StringBuilder.header(r: RunRecord, analyses: List<ConditionAnalysis>) {
        val env = r.environment
        val s = r.scenario
        appendLine("# Proto-Bench report: ${s.name}")
        appendLine()
        appendLine(s.description)
        appendLine()
        appendLine("- Status: **${r.status.name.lowercase()}**${r.failure?.let { " — $it" } ?: ""}; started ${r.startedAt}, finished ${r.finishedAt ?: "–"}")
        appendLine("- Measured on: ${env["cpuModel"]}, ${env["cpuCores"]} cores, ${env["memoryTotalMb"]} MB, kernel ${env["kernel"]}")
        appendLine("- Servers' JDK: ${env["serverJdk"] ?: env["jdk"]}; CLI JDK ${env["jdk"]}; server JVM options `${(env["serverJvmOptions"] as? List<*>)?.joinToString(" ")}`; k6 `${env["k6"]}`")
        appendLine("- Libraries: ${(env["libraries"] as? Map<*, *>)?.entries?.joinToString { "${it.key} ${it.value}" }}")
        appendLine("- Source: commit `${env["gitCommit"]}`${if (env["gitDirty"] == true) " (with uncommitted changes)" else ""}")
        appendLine("- ${env["processesSharingCpus"]}; CPU placement: ${env["placement"] ?: "not recorded"}")
        appendLine("- Design: ${s.mode} mode; forks (fresh JVM pairs) are the unit: at least ${s.forks}, at most ${s.maxForks} per condition" +
            (s.budgetMs?.let { ", budget ${it / 60000} min" } ?: "") + "; each fork soaks every endpoint until throughput and CPU " +
            "per request hold within ±${Numbers.percentText(s.soak["tolerance"] as? Double)} (${s.soak["min"]}–${s.soak["max"]}); " +
            "then per condition each protocol's capacity is probed (closed model)" +
            (if (s.mode == "cost") ", every arm warms in together at the fixed rate until steady again," else "") +
            " and every arm runs ${s.durationMs / 1000.0} s " +
            (if (s.mode == "cost") "at ${Numbers.percentText(s.utilisation)} of the slowest protocol's capacity" else "in the closed model") +
            ", in shuffled order (seed ${r.seed}); margin of equivalence ±${Numbers.percentText(s.margin)}")
        appendLine()
        missing(r, analyses)
        appendLine("Per arm: the mean over forks with its 95% interval (Student's t over forks). Comparisons: the geometric mean " +
            "of the per-fork ratios with its interval, Holm-adjusted over every comparison of the condition; *hop* = " +
            "the protocol's cost minus the null hop's (the gateway answering without calling the data-server) in the same fork. " +
            "See docs/methodology.md.")
        appendLine()
    }

    /**
     * What a run that did not complete lacks: the conditions without any valid trial of its
     * primary kind, and those with fewer forks than the scenario's minimum. Nothing for a complete run.
     */
    private fun StringBuilder.missing(r: RunRecord, analyses: List<ConditionAnalysis>) {
        if (r.status == RunStatus.COMPLETE) return
        val primary = if (r.scenario.mode == "capacity") analyses.associate { it.condition to it.capacity } else analyses.associate { it.condition to it.cost }
        val absent = primary.filterValues { it.isEmpty() }.keys
        val short = primary.filterValues { arms -> arms.isNotEmpty() && arms.minOf { it.forks } < r.scenario.forks }
            .mapValues { (_, arms) -> arms.minOf { it.forks } }
        appendLine("> **This run is ${r.status.name.lowercase()}**: the report shows what it measured. " +
            (if (absent.isEmpty()) "Every condition has measurements" else "Not measured: ${absent.joinToString(", ")}") +
            (if (short.isEmpty()) "." else "; fewer forks than the scenario's ${r.scenario.forks}: " +
                short.entries.joinToString(", ") { "${it.key} (${it.value})" } + ".") +
            " `protobench resume` continues it.")
        appendLine()
    }

    /** Each variant's settings as asked, and as the servers reported them in each fork. */
    private fun StringBuilder.variants(r: RunRecord) {
        val variants = r.scenario.variants
        if (variants.isEmpty()) return
        appendLine("## Variants")
        appendLine()
        appendLine("Every fork starts one fresh server pair per variant (the first variant first in fork 1, whose probes set the rate; " +
            "shuffled after that). Arms are labelled *protocol · variant*; a variant is compared with another on the same protocol, " +
            "paired by fork; the variant comparisons of a condition are one Holm family, its protocol comparisons another.")
        appendLine()
        appendLine("| Variant | Gateway | Data-server | JVM options | Heap | JDK | Read back from the servers |")
        appendLine("|---|---|---|---|---|---|---|")
        for (v in variants) {
            fun props(map: Map<String, String>) = map.entries.joinToString("<br>") { "`${it.key}=${it.value}`" }.ifEmpty { "–" }
            val readBack = r.forks.filter { it.variant == v.name && it.settings.isNotEmpty() }.map { readBack(it.settings) }.distinct()
                .joinToString("; ").ifEmpty { "–" }
            val jdk = v.jdk?.let { r.environment["serverJdk · ${v.name}"] ?: it } ?: "run's"
            appendLine("| ${v.name} | ${props(v.gateway)} | ${props(v.dataServer)} | ${v.jvmOptions.joinToString(" ").ifEmpty { "–" }} | " +
                "${v.heap ?: "run's"} | $jdk | $readBack |")
        }
        appendLine()
    }

    /** A variant's read-back settings: the properties, then each JVM's release, collectors and heap ("both" when alike). */
    private fun readBack(settings: Map<String, String>): String {
        val properties = settings.filterKeys { !it.startsWith("jvm.") }.entries.map { "${it.key.substringAfterLast('.')}=${it.value}" }
        val jvms = listOf("api-server", "data-server").associateWith { server ->
            listOfNotNull(settings["jvm.$server.java-version"], settings["jvm.$server.collectors"]?.replace(", ", "/"),
                settings["jvm.$server.max-heap-mb"]?.let { "$it MB heap" }).joinToString(", ")
        }
        val jvm = if (jvms.values.distinct().size == 1) listOf("both JVMs: ${jvms.values.first()}") else jvms.map { (server, facts) -> "$server: $facts" }
        return (properties + jvm).joinToString("; ")
    }

    private fun StringBuilder.condition(a: ConditionAnalysis, record: RunRecord) {
        appendLine("## ${a.condition}" + if (a.phases.isNotEmpty()) " (${a.phases.joinToString()})" else "")
        appendLine()
        a.calibration?.let {
            appendLine("Cost trials at **${it.ratePerSecond}/s**: ${Numbers.percentText(record.scenario.utilisation)} of the capacity " +
                "of the slowest protocol, ${it.slowestProtocol} (${Numbers.number(it.capacityRps)} correct answers/s), probed in fork ${it.fork}.")
            appendLine()
        }
        if (a.cost.isNotEmpty()) table("Cost at a fixed rate", costColumns, a.cost)
        if (a.capacity.isNotEmpty()) table("Capacity on this machine (closed model, ${record.scenario.conditions.first { it.label == a.condition }.label.substringAfter(" ")}, saturated)", capacityColumns, a.capacity)
        for (family in a.families.filter { it.decisions.isNotEmpty() }) {
            val variantCount = family.variantDecisions.size
            val size = if (variantCount == 0) "${family.decisions.size} in the Holm family"
                else "${family.decisions.size - variantCount} between protocols and $variantCount between variants, each set one Holm family"
            appendLine("${if (family.kind == TrialKind.COST) "Cost" else "Capacity"} comparisons ($size):")
            appendLine()
            family.protocolDecisions.forEach { appendLine("- ${sentence(it)}") }
            family.variantDecisions.forEach { appendLine("- Variants: ${sentence(it)}") }
            family.aaDecisions.forEach { appendLine("- A/A check: ${sentence(it)}${if (it.isBetter) " — **the control differs from itself: this condition is untrustworthy**" else ""}") }
            appendLine()
        }
        flags(record.trials.filter { it.condition == a.condition })
    }

    private fun StringBuilder.table(title: String, columns: List<Column>, arms: List<ArmSummary>) {
        appendLine("**$title**")
        appendLine()
        appendLine("| Arm | Forks | " + columns.joinToString(" | ") { it.title } + " |")
        appendLine("|---|---:|" + "---:|".repeat(columns.size))
        for (arm in arms) {
            val cells = columns.joinToString(" | ") { c -> c.figures.joinToString(" / ") { f -> value(arm.estimates[f], f, c.figures.size == 1) } }
            appendLine("| ${arm.arm} | ${arm.forks} | $cells |")
        }
        appendLine()
    }

    private fun value(e: Estimate?, figure: Figure, withInterval: Boolean): String {
        if (e == null) return "–"
        if (figure.unit == "fraction") return Numbers.percentText(e.mean)
        val interval = if (withInterval && e.ciLow != null) " [${Numbers.number(e.ciLow)}, ${Numbers.number(e.ciHigh)}]" else ""
        return Numbers.number(e.mean) + interval
    }

    fun sentence(d: Decision): String {
        val figure = Figure.byKey(d.figure)
        val word = when (figure) {
            Figure.THROUGHPUT -> "faster"
            Figure.HOP_CPU_US, Figure.TOTAL_CPU_US -> "cheaper"
            else -> "lower"
        }
        val better = d.outcome as? Outcome.Better
        // Clearly different yet inside the margin: true, but too small to matter in practice.
        val small = if (better != null && better.highPercent < d.margin * 100) " — inside the ±${Numbers.percentText(d.margin)} margin: practically equivalent" else ""
        return "${figure?.title ?: d.figure}: ${d.describe(word)}$small"
    }

    private fun StringBuilder.flags(trials: List<TrialRecord>) {
        val byKind = trials.flatMap { t -> t.flags.map { it to t } }.groupBy { it.first.javaClass.simpleName }
        for ((_, flagged) in byKind) {
            val (flag, trial) = flagged.first()
            appendLine("> **Flag** in ${flagged.size} of ${trials.size} trials: ${flag.meaning()}; e.g. ${trial.arm} (${trial.kind.name.lowercase()}, fork ${trial.fork}): ${flag.describe()}")
        }
        if (byKind.isNotEmpty()) appendLine()
    }

    private fun StringBuilder.guide(analyses: List<ConditionAnalysis>) {
        appendLine("## Protocol selection guide (derived from this run)")
        appendLine()
        appendLine("A protocol is named only where it beat every other protocol after Holm; *equivalent* means shown within the margin.")
        appendLine()
        SelectionGuide.lines(analyses).forEach { appendLine(it) }
        AaCalibration.sentence(analyses)?.let { appendLine(); appendLine(it) }
        appendLine()
    }

    private fun StringBuilder.decisionMaps(analyses: List<ConditionAnalysis>, record: RunRecord) {
        for (map in DecisionMap.of(analyses, record)) {
            appendLine("**Decision map: ${map.figure.title} by ${map.across}" + (map.down?.let { " and $it" } ?: "") +
                (map.variant?.let { " under $it" } ?: "") + "** — each cell names the protocol that beat every other there, with the " +
                "least of its Holm-adjusted advantages (≥x%); ≈ equivalent within the margin; ? undecided among those not beaten.")
            appendLine()
            append(map.markdown())
            appendLine()
        }
    }

    private fun StringBuilder.seeds(analyses: List<ConditionAnalysis>) {
        val checks = SeedClaims.check(analyses)
        appendLine("## Beside the seeds' published results")
        appendLine()
        if (checks.isEmpty()) {
            appendLine("No seed figure matches a condition and figure this run measured in capacity probes.")
            appendLine()
            return
        }
        appendLine("Each seed ratio (their faster protocol first) against our paired 95% interval of the same figure from the capacity probes.")
        appendLine()
        appendLine("| Seed | Condition | Figure | Pair | Seeds | Seeds elsewhere | This run [95%] | Outcome |")
        appendLine("|---|---|---|---|---:|---|---:|---|")
        for (c in checks) {
            val ours = c.ourPercent?.let { p -> Numbers.signed(p) + (c.ourLow?.let { " [${Numbers.signed(it)}, ${Numbers.signed(c.ourHigh!!)}]" } ?: "") } ?: "–"
            val elsewhere = c.seedElsewhere.joinToString("; ") { "${it.first} ${Numbers.signed(it.second)}" }.ifEmpty { "–" }
            appendLine("| ${c.claim.phase} | ${c.claim.condition} | ${c.claim.figure} | ${c.a} vs ${c.b} | ${Numbers.signed(c.seedPercent)} | $elsewhere | $ours | ${c.outcome.words} |")
        }
        appendLine()
        val counts = checks.groupingBy { it.outcome }.eachCount()
        appendLine("Of ${checks.size} seed ratios: " + ClaimOutcome.entries.joinToString(", ") { "${counts[it] ?: 0} ${it.name.lowercase().replace('_', ' ')}" } + ".")
        appendLine()
    }

    private fun StringBuilder.forks(r: RunRecord) {
        appendLine("## Forks")
        appendLine()
        val variants = r.scenario.variants.isNotEmpty()
        appendLine("| Fork | ${if (variants) "Variant | " else ""}Status | Conditions | Soak | Settled | Warm-ins at the cost rate | Soak windows (throughput req/s, CPU µs/req) |")
        appendLine("|---:|${if (variants) "---|" else ""}---|---:|---:|---|---|---|")
        for (f in r.forks) {
            val windows = f.soak?.windows?.joinToString(", ") { "${Numbers.number(it.throughputRps)}/${Numbers.number(it.cpuUsPerRequest)}" } ?: "–"
            val warmIns = f.warmIns.joinToString(", ") { "${it.condition}: ${Numbers.number(it.soak.seconds)} s${if (it.soak.settled) "" else " (not settled)"}" }
                .ifEmpty { "–" }
            appendLine("| ${f.index} | ${if (variants) "${f.variant} | " else ""}${f.status.name.lowercase()}${f.failure?.let { ": $it" } ?: ""} | ${f.conditions.size} | " +
                "${f.soak?.seconds?.let { Numbers.number(it) + " s" } ?: "–"} | ${f.soak?.settled ?: "–"} | $warmIns | $windows |")
        }
        appendLine()
    }

    private fun StringBuilder.planning(r: RunRecord) {
        val p = r.planning ?: return
        appendLine("## Planning")
        appendLine()
        appendLine("Stopped because ${p.stoppedBecause}.")
        if (p.open.isNotEmpty()) {
            appendLine()
            appendLine("Still undecided:")
            p.open.forEach { appendLine("- ${it.condition}: ${it.comparison}" + (it.moreForks?.let { n -> " — about $n more forks would decide it" } ?: " — more than ${Numbers.MAX_FORKS} forks would be needed")) }
        }
        appendLine()
    }

    /** "Fork 2", or "Fork 2 (variant copyFrom)" for one variant's pair. */
    private fun name(f: io.protobench.bench.measure.ForkRecord) = "Fork ${f.index}" + (f.variant?.let { " (variant $it)" } ?: "")

    private fun StringBuilder.problems(r: RunRecord) {
        val invalid = r.trials.filter { !it.valid }
        val failedForks = r.forks.filter { it.status == ForkStatus.FAILED || it.status == ForkStatus.REJECTED }
        val unsettled = r.forks.filter { it.soak?.settled == false }
        val coldWarmIns = r.forks.flatMap { f -> f.warmIns.filter { !it.soak.settled }.map { f to it } }
        if (invalid.isEmpty() && failedForks.isEmpty() && unsettled.isEmpty() && coldWarmIns.isEmpty()) return
        appendLine("## Problems")
        appendLine()
        invalid.forEach { appendLine("- Trial ${it.sequence} (${it.arm}, ${it.condition}, fork ${it.fork}) is invalid and left out of every verdict: ${it.invalidReason()}") }
        failedForks.forEach {
            if (it.status == ForkStatus.REJECTED) appendLine("- Variant ${it.variant} was rejected in fork ${it.index} and not measured: ${it.failure}")
            else appendLine("- ${name(it)} failed: ${it.failure}")
        }
        unsettled.forEach { appendLine("- ${name(it)}: the soak had not settled after ${Numbers.number(it.soak!!.seconds)} s${it.soak.error?.let { e -> " ($e)" } ?: ""}: its trials may still include JIT warm-up") }
        coldWarmIns.forEach { (fork, w) ->
            appendLine("- ${name(fork)}: the warm-in of ${w.condition} at ${w.load} had not settled after ${Numbers.number(w.soak.seconds)} s" +
                "${w.soak.error?.let { e -> " ($e)" } ?: ""}: its cost trials may still include JIT warm-up")
        }
        appendLine()
    }
}
