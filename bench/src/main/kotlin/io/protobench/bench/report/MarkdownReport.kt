package io.protobench.bench.report

import io.protobench.bench.design.FixedRates
import io.protobench.bench.measure.Calibration
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.ForkRecord
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.measure.RemoteServersRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Topology
import io.protobench.bench.scenario.Variant
import io.protobench.bench.stats.Estimate
import io.protobench.bench.text.Texts
import io.protobench.bench.verdict.Decision

/**
 * report.md: per condition the hop's cost and latency, capacity, the decisions, the guide,
 * the seeds, the problems. Every sentence comes from the message catalogue ([Texts]), so
 * the same report is written in English or Korean.
 */
object MarkdownReport {
    /**
     * A table column; an [optional] one is shown only when some arm has its figures (the database's, for member creation),
     * one with [replacedBy] only when no arm has those (records from before them).
     */
    private class Column(
        val title: String,
        val figures: List<Figure>,
        val optional: Boolean = false,
        val replacedBy: List<Figure> = emptyList(),
    )

    /**
     * The collectors' concurrent CPU. It and the pause columns show where a record has the pause
     * figures; a record from before them shows the beans' summed count and time instead.
     */
    private val gcConcurrentColumn = Column(
        "column.gc-concurrent",
        listOf(Figure.API_GC_CONCURRENT_CPU, Figure.DATA_GC_CONCURRENT_CPU),
        optional = true,
    )
    private val pauses = listOf(Figure.API_GC_PAUSES, Figure.DATA_GC_PAUSES)

    private val databaseColumn = Column("column.db-time", listOf(Figure.DB_MS_PER_REQ, Figure.DB_TX_P99), optional = true)
    private val databaseCpuColumn = Column("column.db-cpu", listOf(Figure.DB_CPU_US), optional = true)

    /** Direct runs' server streams only: the load driver's time to the first message. */
    private val firstMessageColumn = Column(
        "column.first-message",
        listOf(Figure.FIRST_MESSAGE_P50, Figure.FIRST_MESSAGE_P99),
        optional = true,
    )

    private val costColumns = listOf(
        Column("column.hop-cpu", listOf(Figure.HOP_CPU_US)),
        Column("column.hop-latency", listOf(Figure.HOP_P50, Figure.HOP_P99)),
        Column("column.latency-p99", listOf(Figure.LATENCY_P50, Figure.LATENCY_P99)),
        // Open-model trials on the lab's driver: how much of that p99 is the driver's own delay.
        Column("column.send-delay", listOf(Figure.SEND_DELAY_P99), optional = true),
        firstMessageColumn,
        Column("column.cpu-three", listOf(Figure.DRIVER_CPU_US, Figure.API_CPU_US, Figure.DATA_CPU_US)),
        Column("column.hop-share", listOf(Figure.HOP_SHARE)),
        Column("column.alloc", listOf(Figure.API_ALLOC, Figure.DATA_ALLOC)),
        Column("column.gc-api", listOf(Figure.API_GC_COUNT, Figure.API_GC_TIME), replacedBy = pauses),
        Column("column.gc-data", listOf(Figure.DATA_GC_COUNT, Figure.DATA_GC_TIME), replacedBy = pauses),
        Column("column.gc-pauses-api", listOf(Figure.API_GC_PAUSES, Figure.API_GC_PAUSE_TIME), optional = true),
        Column("column.gc-pauses-data", listOf(Figure.DATA_GC_PAUSES, Figure.DATA_GC_PAUSE_TIME), optional = true),
        gcConcurrentColumn,
        Column("column.heap-after-gc", listOf(Figure.API_HEAP_AFTER_GC, Figure.DATA_HEAP_AFTER_GC), optional = true),
        Column("column.machine-busy", listOf(Figure.MACHINE_BUSY)),
        databaseColumn,
        databaseCpuColumn,
    )
    private val capacityColumns = listOf(
        Column("column.throughput", listOf(Figure.THROUGHPUT)),
        Column("column.latency-p95", listOf(Figure.LATENCY_P50, Figure.LATENCY_P95)),
        firstMessageColumn,
        Column("column.cpu-two", listOf(Figure.API_CPU_US, Figure.DATA_CPU_US)),
        Column("column.peak-heap", listOf(Figure.API_PEAK_HEAP, Figure.DATA_PEAK_HEAP)),
        Column("column.gcs", listOf(Figure.API_GC_COUNT, Figure.DATA_GC_COUNT), replacedBy = pauses),
        Column("column.gc-pause-ms", listOf(Figure.API_GC_PAUSE_TIME, Figure.DATA_GC_PAUSE_TIME), optional = true),
        gcConcurrentColumn,
        databaseColumn,
        databaseCpuColumn,
    )

    /** What a part of the report is about: the HTML report places charts by it and moves the guide to the top. */
    enum class Part { HEADER, VARIANTS, CONDITION, GUIDE, DECISION_MAP, FLIPS, SEED_GUIDE, SEEDS, FORKS, PLANNING, PROBLEMS }

    /** One part of the report in Markdown; [condition] names a condition's part. */
    data class Section(val part: Part, val markdown: String, val condition: String? = null)

    fun render(record: RunRecord, t: Texts = Texts.EN, analyses: List<ConditionAnalysis> = Analysis.of(record)): String =
        sections(record, analyses, t).joinToString("") { it.markdown }

    fun sections(record: RunRecord, analyses: List<ConditionAnalysis> = Analysis.of(record), t: Texts = Texts.EN): List<Section> {
        val w = Writer(record, analyses, t)
        fun section(part: Part, condition: String? = null, write: StringBuilder.() -> Unit) = Section(part, buildString(write), condition)
        return listOf(section(Part.HEADER) { w.header(this) }, section(Part.VARIANTS) { w.variants(this) }) +
            analyses.map { a -> section(Part.CONDITION, a.condition) { w.condition(this, a) } } +
            listOf(
                section(Part.GUIDE) { w.guide(this) },
                section(Part.DECISION_MAP) { w.decisionMaps(this) },
                section(Part.FLIPS) { append(FlipsMarkdown.render(Flip.of(analyses, record), record, t)) },
                section(Part.SEED_GUIDE) { w.seedGuide(this) },
                section(Part.SEEDS) { w.seeds(this) },
                section(Part.FORKS) { w.forks(this) },
                section(Part.PLANNING) { w.planning(this) },
                section(Part.PROBLEMS) { w.problems(this) },
            )
    }

    /** One comparison in words, e.g. "Hop CPU/req: gRPC/Unary cheaper than HTTP/JSON by 70.1% [62.0%, 77.0%] (…)". */
    fun sentence(d: Decision, t: Texts = Texts.EN): String {
        val small = if (d.insideMargin) t("verdict.inside-margin", Numbers.percentText(d.margin)) else ""
        return t("verdict.sentence", figureTitle(d.figure, t)) + d.describe(betterWord(d.figure, t), t) + small
    }

    /** The word for "better" on a figure: faster (throughput), cheaper (CPU) or lower (latency). */
    fun betterWord(figureKey: String, t: Texts): String = t(
        when (Figure.byKey(figureKey)) {
            Figure.THROUGHPUT -> "verdict.faster"
            Figure.HOP_CPU_US, Figure.TOTAL_CPU_US -> "verdict.cheaper"
            else -> "verdict.lower"
        },
    )

    /** A figure's title in the report's language ("Hop CPU/req"), or its key when it has none. */
    fun figureTitle(key: String, t: Texts): String = if (t.has("figure.$key")) t("figure.$key") else Figure.byKey(key)?.title ?: key

    private class Writer(val r: RunRecord, val analyses: List<ConditionAnalysis>, val t: Texts) {
        /**
         * The servers' JDK as the header names it. Where every variant names its own JDK, the run's
         * default started no server, so the header points to the variants' table instead.
         */
        private fun serverJdkText(): String? {
            val variants = r.scenario.variants
            val runJdk = r.environment.serverJdk ?: r.environment.jdk
            return when {
                variants.isNotEmpty() && variants.all { it.jdk != null } -> t("header.jdk.per-variant")
                variants.any { it.jdk != null } -> t("header.jdk.some-variants", runJdk)
                else -> runJdk
            }
        }

        /** Whether every variant sets its own heap: the run's -Xms and -Xmx then applied to no server. */
        private val variantsSetHeap = r.scenario.variants.isNotEmpty() && r.scenario.variants.all { it.heap != null }

        /** The run's server JVM options, without the heap where every variant sets its own. */
        private fun serverOptions(): List<String>? {
            val options = r.environment.serverJvmOptions ?: return null
            return if (variantsSetHeap) options.filterNot { it.startsWith("-Xms") || it.startsWith("-Xmx") } else options
        }

        fun header(out: StringBuilder): Unit = with(out) {
            val env = r.environment
            val s = r.scenario
            appendLine(t("header.title", s.name))
            appendLine()
            appendLine(Recorded.description(s.description, t))
            appendLine()
            appendLine(
                t(
                    "header.status",
                    t("status.${r.status.name.lowercase()}"),
                    r.failure?.let { " — ${Recorded.failure(it, t)}" } ?: "",
                    r.startedAt,
                    r.finishedAt ?: "–",
                ),
            )
            appendLine(t("header.machine", env.cpuModel, env.cpuCores, env.memoryTotalMb, env.kernel))
            appendLine(
                t(
                    "header.jdk",
                    serverJdkText(),
                    env.jdk,
                    serverOptions()?.joinToString(" "),
                    env.loadGenerator,
                    if (variantsSetHeap) t("header.heap.per-variant") else "",
                ),
            )
            appendLine(t("header.libraries", env.libraries?.entries?.joinToString { "${it.key} ${it.value}" }))
            appendLine(t("header.source", env.gitCommit, if (env.gitDirty == true) t("header.dirty") else ""))
            env.message?.let { m ->
                val n = { bytes: Int -> Numbers.number(bytes.toDouble()) }
                appendLine(
                    t(
                        "header.message",
                        m.type,
                        n(m.jsonBytes),
                        n(m.jsonGzipBytes),
                        n(m.protobufBytes),
                        n(m.protobufGzipBytes),
                        m.protoc,
                        m.jarSha256.take(16),
                    ),
                )
                m.codecTimes?.let { c ->
                    val us = { ns: Double -> Numbers.number(ns / 1000.0) }
                    appendLine(
                        t(
                            "header.message.codecs",
                            us(c.jsonEncodeNs),
                            us(c.jsonDecodeNs),
                            us(c.protobufEncodeNs),
                            us(c.protobufDecodeNs),
                            c.rounds,
                        ),
                    )
                }
            }
            appendLine(
                t(
                    "header.placement",
                    env.processesSharingCpus?.let { Recorded.placement(it, t) },
                    env.placement?.let { Recorded.placement(it, t) } ?: t("header.not-recorded"),
                ),
            )
            env.schedAutogroup?.let { appendLine(t(if (it) "header.autogroup-on" else "header.autogroup-off")) }
            env.cpuIdle?.let { appendLine(t("header.cpu-idle", it)) }
            flagsAndLeftOut(out)
            val remote = env.remote?.let(::remoteLine)
            when {
                s.topology == Topology.DIRECT -> {
                    appendLine(t("header.topology.direct"))
                    // Runs from before k6's script (protobench.js) tagged calls by connection timed every call.
                    // Runs from before cost trials warmed their users first counted those calls in throughput.
                    when {
                        r.trials.any { TrialFigures.warmsUpFirst(it) } ->
                            appendLine(t("header.topology.direct.warm-up", TrialFigures.COLD_CALLS))

                        r.trials.any { TrialFigures.tagsConnections(it) } ->
                            appendLine(t("header.topology.direct.warm", TrialFigures.COLD_CALLS))
                    }
                    if (remote != null) appendLine(remote) else networkLines(direct = true).forEach(::appendLine)
                }

                remote != null -> appendLine(remote)

                else -> networkLines(direct = false).forEach(::appendLine)
            }
            appendLine(
                t(
                    "header.design", t("mode.${s.mode.id}"), s.forks, s.maxForks,
                    s.budgetMs?.let { t("header.budget", it / 60000) } ?: "",
                    Numbers.percentText(s.soak.tolerance), s.soak.min, s.soak.max,
                    warmUpText(), s.durationMs / 1000.0,
                    when {
                        s.mode != Mode.COST -> t("header.closed")
                        s.costRates.isNotEmpty() -> t("header.at-fixed-rate", Numbers.percentText(FixedRates.ceiling(s.utilisation)))
                        else -> t("header.at-rate", Numbers.percentText(s.utilisation))
                    },
                    r.seed, Numbers.percentText(s.margin),
                    if (s.mode == Mode.COST && s.minRequests > 0) t("header.min-requests", s.minRequests) else "",
                    if (s.rounds > 1) t("header.rounds", s.rounds) else "",
                ),
            )
            ownDesign(s)?.let(::appendLine)
            timeLine(out)
            ratesCut(out)
            ratesKept(out)
            appendLine()
            missing(out)
            appendLine(t(if (s.topology == Topology.DIRECT) "header.method.direct" else "header.method"))
            s.membersPerRequest?.let {
                appendLine()
                appendLine(t("header.writes", it))
            }
            r.externalDatabase?.let { db ->
                val writers = if (db.variants.isEmpty()) {
                    t("header.external-db.all")
                } else {
                    t("header.external-db.variants", db.variants.joinToString(", "))
                }
                appendLine()
                appendLine(t("header.external-db", db.serverVersion, db.jdbcUrl, db.user, db.schema, writers))
            }
            appendLine()
        }

        /** Said at the top: the conditions whose fixed rate this machine could not carry, and what the run did instead. */
        private fun ratesCut(out: StringBuilder) {
            val cut = r.calibrations.filter { it.scenarioRate != null }.ifEmpty { return }
            val which = cut.joinToString("; ") { c ->
                t(
                    "header.rates-cut.one",
                    c.variant?.let { "${c.condition} ($it)" } ?: c.condition,
                    c.ratePerSecond,
                    c.scenarioRate,
                    c.slowestProtocol,
                    Numbers.number(c.capacityRps),
                )
            }
            out.appendLine(t("header.rates-cut", which, Numbers.percentText(FixedRates.ceiling(r.scenario.utilisation))))
        }

        /** Said at the top: the conditions whose rate an earlier run chose (`--rates-of`), and which were calibrated here. */
        private fun ratesKept(out: StringBuilder) {
            val from = r.pinnedRates?.fromRun ?: return
            val kept = r.calibrations.filter { it.pinnedFrom != null }
            fun named(c: Calibration) = c.variant?.let { "${c.condition} ($it)" } ?: c.condition
            val which = kept.joinToString("; ") { "${named(it)} ${it.ratePerSecond}/s" }
            val own = r.calibrations.filter { it.pinnedFrom == null }.map(::named)
            out.appendLine(
                t("header.rates-kept", from, which.ifEmpty { t("header.rates-kept.none") }) +
                    if (own.isEmpty()) "" else t("header.rates-kept.own", own.joinToString(", ")),
            )
        }

        /** Where the run's wall time went, in minutes: each part summed over the forks, and the runner's own time in and between them. */
        private fun timeLine(out: StringBuilder) {
            val time = RunTime.of(r) ?: return
            fun minutes(seconds: Double) = "%.1f".format(java.util.Locale.ROOT, seconds / 60)
            val parts = RunTime.partsWithTime(time.forks).joinToString(", ") {
                "${t("time.part.${it.name.lowercase()}")} ${minutes(time.forks.of(it))}"
            }
            out.appendLine(t("header.time", minutes(time.wallSeconds), parts, minutes(time.forks.runner), minutes(time.betweenForks)))
        }

        /**
         * How many trials carried each flag, and how many the verdicts leave out and why (each
         * is listed under Problems): the reader sees at the top what the figures rest on.
         */
        private fun flagsAndLeftOut(out: StringBuilder): Unit = with(out) {
            val trials = r.trials
            if (trials.isEmpty()) return
            fun counted(kinds: List<String>) = kinds.groupingBy { it }.eachCount().entries
                .sortedWith(compareByDescending<Map.Entry<String, Int>> { it.value }.thenBy { it.key })
                .joinToString(", ") { "${it.key} ${it.value}" }
            val leftOut = trials.mapNotNull { it.leftOutAs() }
            val leftOutText = if (leftOut.isEmpty()) {
                t("header.left-out.none")
            } else {
                t(
                    "header.left-out",
                    leftOut.size,
                    counted(leftOut.map { kind -> if (t.has("header.left-out.$kind")) t("header.left-out.$kind") else kind }),
                )
            }
            val flagged = trials.filter { it.flags.isNotEmpty() }
            appendLine(
                if (flagged.isEmpty()) {
                    t("header.flags.none", trials.size, leftOutText)
                } else {
                    t("header.flags", flagged.size, trials.size, counted(trials.flatMap { it.flags.map(Flag::kindOf) }), leftOutText)
                },
            )
        }

        /**
         * What a run that did not complete lacks: the conditions without any valid trial of its
         * primary kind, and those with fewer forks than the scenario's minimum. Nothing for a complete run.
         */
        private fun missing(out: StringBuilder): Unit = with(out) {
            if (r.status == RunStatus.COMPLETE) return
            val primary = analyses.associate { it.condition to if (r.scenario.mode == Mode.CAPACITY) it.capacity else it.cost }
            val absent = primary.filterValues { it.isEmpty() }.keys
            val short = primary.filter { (c, arms) -> arms.isNotEmpty() && arms.minOf { it.forks } < r.scenario.forksOf(c) }
                .mapValues { (_, arms) -> arms.minOf { it.forks } }
            appendLine(
                t("missing.intro", t("status.${r.status.name.lowercase()}")) + " " +
                    (if (absent.isEmpty()) t("missing.none") else t("missing.absent", absent.joinToString(", "))) +
                    (
                        if (short.isEmpty()) {
                            "."
                        } else {
                            t(
                                "missing.short",
                                short.entries.joinToString(", ") { "${it.key} (${it.value} of ${r.scenario.forksOf(it.key)})" },
                            )
                        }
                        ) +
                    " " + t("missing.resume"),
            )
            appendLine()
        }

        /** Each variant's settings as asked, and as the servers reported them in each fork. */
        fun variants(out: StringBuilder): Unit = with(out) {
            val variants = r.scenario.variants
            if (variants.isEmpty()) return
            appendLine(t("variants.title"))
            appendLine()
            appendLine(t("variants.intro"))
            appendLine()
            appendLine(t("variants.columns"))
            appendLine("|---|---|---|---|---|---|---|")
            for (v in variants) {
                fun props(map: Map<String, String>) = map.entries.joinToString("<br>") { "`${it.key}=${it.value}`" }.ifEmpty { "–" }
                val readBack = r.forks.filter { it.variant == v.name && it.settings.isNotEmpty() }.map { readBack(it.settings) }.distinct()
                    .joinToString("; ").ifEmpty { "–" }
                val jdk = v.jdk?.let { r.environment.serverJdkByVariant[v.name] ?: it } ?: t("variants.runs")
                appendLine(
                    "| ${v.name} | ${props(v.gateway)} | ${props(v.dataServer)} | " +
                        "${v.jvmOptions.joinToString(" ").ifEmpty { "–" }} | " +
                        "${v.heap ?: t("variants.runs")} | $jdk | $readBack |",
                )
            }
            appendLine()
        }

        /** A variant's read-back settings: the properties, then each JVM's release, collectors and heap ("both" when alike). */
        private fun readBack(settings: Map<String, String>): String {
            val properties = settings.filterKeys { !it.startsWith("jvm.") }.entries.map { "${it.key.substringAfterLast('.')}=${it.value}" }
            val jvms = listOf("api-server", "data-server").associateWith { server ->
                listOfNotNull(
                    settings["jvm.$server.java-version"],
                    settings["jvm.$server.collectors"]?.replace(", ", "/"),
                    settings["jvm.$server.max-heap-mb"]?.let { t("variants.heap-mb", it) },
                ).joinToString(", ")
            }
            val jvm = if (jvms.values.distinct().size == 1) {
                listOf(t("variants.both-jvms", jvms.values.first()))
            } else {
                jvms.map { (server, facts) -> "$server: $facts" }
            }
            return (properties + jvm).joinToString("; ")
        }

        /**
         * A rate this run's probe did not choose ([lead]: the rate, and whose it is), with its share of
         * the slowest protocol's capacity probed here, and a word when that share is above a calibrated rate's.
         */
        private fun sharedRate(key: String, c: Calibration, vararg lead: Any): String {
            val share = c.ratePerSecond / c.capacityRps
            val utilisation = r.scenario.utilisation
            return t(key, *lead, Numbers.percentText(share), c.slowestProtocol, Numbers.number(c.capacityRps), c.fork) +
                if (share > utilisation) t("condition.calibration.above", Numbers.percentText(utilisation)) else ""
        }

        /** Where a condition's rate came from: the calibration, or the scenario with its share of the capacity probed. */
        private fun calibration(c: Calibration): String {
            val utilisation = r.scenario.utilisation
            val share = c.ratePerSecond / c.capacityRps
            val line = when {
                c.pinnedFrom != null -> sharedRate("condition.calibration.pinned", c, c.ratePerSecond, c.pinnedFrom)

                c.scenarioRate != null -> t(
                    "condition.calibration.halved", c.ratePerSecond, c.scenarioRate, Numbers.percentText(c.scenarioRate / c.capacityRps),
                    c.slowestProtocol, Numbers.number(c.capacityRps), c.fork, Numbers.percentText(FixedRates.ceiling(utilisation)),
                    Numbers.percentText(share),
                )

                c.declared -> sharedRate("condition.calibration.declared", c, c.ratePerSecond)

                else -> t(
                    "condition.calibration",
                    c.ratePerSecond,
                    Numbers.percentText(utilisation),
                    c.slowestProtocol,
                    Numbers.number(c.capacityRps),
                    c.fork,
                )
            }
            return c.variant?.let { variant -> t("condition.calibration.variant", variant, line) } ?: line
        }

        /**
         * A rate every variant shares is set by the first variant's probes; what it is for each
         * variant's own slowest protocol, probed in the same fork, one line each, flagged above
         * the scenario's utilisation: a costlier variant (a database, a smaller heap) then runs
         * its cost trials nearer saturation than the others.
         */
        private fun sharedRateShares(c: Calibration): List<String> {
            if (c.variant != null || r.scenario.variants.size < 2) return emptyList()
            val probes = r.trials.filter { it.condition == c.condition && it.fork == c.fork && it.kind == TrialKind.CAPACITY && it.valid }
            return probes.groupBy { Variant.split(it.arm).second }.mapNotNull { (variant, trials) ->
                val slowest = trials.mapNotNull { trial -> trial.figures[Figure.THROUGHPUT]?.let { trial.arm to it } }
                    .minByOrNull { it.second }
                    ?: return@mapNotNull null
                val share = c.ratePerSecond / slowest.second
                t(
                    "condition.calibration.share",
                    variant ?: "–",
                    Numbers.percentText(share),
                    slowest.first,
                    Numbers.number(slowest.second),
                ) +
                    if (share > r.scenario.utilisation) {
                        t("condition.calibration.share-above", Numbers.percentText(r.scenario.utilisation))
                    } else {
                        ""
                    }
            }
        }

        fun condition(out: StringBuilder, a: ConditionAnalysis): Unit = with(out) {
            appendLine("## ${a.condition}" + if (a.phases.isNotEmpty()) " (${a.phases.joinToString()})" else "")
            appendLine()
            if (r.trials.none { it.condition == a.condition }) {
                appendLine(t("condition.not-measured"))
                appendLine()
            }
            a.calibrations.forEach { c ->
                appendLine(calibration(c))
                sharedRateShares(c).forEach { appendLine(it) }
            }
            if (a.calibrations.isNotEmpty()) appendLine()
            if (a.cost.isNotEmpty()) table(out, t("condition.cost-table"), costColumns, a.cost)
            if (a.capacity.isNotEmpty()) {
                table(
                    out,
                    t("condition.capacity-table", a.condition.substringAfter(" ")),
                    capacityColumns,
                    a.capacity,
                )
            }
            NewConnections.render(out, r.trials.filter { it.condition == a.condition }, r.scenario.topology == Topology.DIRECT, t)
            for (family in a.families.filter { it.decisions.isNotEmpty() }) {
                val sets = listOf(
                    "protocols" to family.protocolDecisions.size,
                    "aa" to family.aaDecisions.size,
                    "variants" to family.variantDecisions.size,
                    "interactions" to family.interactions.size,
                ).filter { it.second > 0 }
                val size = sets.singleOrNull()?.let { t("condition.family", it.second) }
                    ?: t("condition.families", sets.joinToString(", ") { (set, count) -> t("condition.set.$set", count) })
                appendLine(t(if (family.kind == TrialKind.COST) "condition.cost-comparisons" else "condition.capacity-comparisons", size))
                appendLine()
                family.protocolDecisions.forEach { appendLine("- ${sentence(it, t)}") }
                family.variantDecisions.forEach { appendLine("- ${t("condition.variants")} ${sentence(it, t)}") }
                family.interactions.forEach { appendLine("- ${t("condition.interaction")} ${it.sentence(a, family.kind, t)}") }
                if (family.variantDecisions.isNotEmpty() && r.scenario.variants.map { it.network }.distinct().size > 1) {
                    appendLine(t("condition.variants.networks"))
                }
                if (family.variantDecisions.isNotEmpty() && r.scenario.variants.map { it.store }.distinct().size > 1) {
                    appendLine(t(if (r.externalDatabase == null) "condition.variants.databases" else "condition.variants.external-db"))
                }
                family.aaDecisions.forEach {
                    appendLine(
                        "- ${t("condition.aa")} ${sentence(it, t)}${AaCalibration.clause(it, a.condition, family.kind, t)}" +
                            "${if (it.isBetter) t("condition.untrustworthy") else ""}",
                    )
                }
                appendLine()
            }
            flags(out, r.trials.filter { it.condition == a.condition })
            SeedToolsReport.render(out, r, a.condition, t)
        }

        private fun table(out: StringBuilder, title: String, allColumns: List<Column>, arms: List<ArmSummary>): Unit = with(out) {
            fun anyArmHas(figures: List<Figure>) = arms.any { arm -> figures.any { it in arm.estimates } }
            val columns = allColumns.filter { c -> (!c.optional || anyArmHas(c.figures)) && !anyArmHas(c.replacedBy) }
            appendLine("**$title**")
            appendLine()
            appendLine("| ${t("column.arm")} | ${t("column.forks")} | " + columns.joinToString(" | ") { t(it.title) } + " |")
            appendLine("|---|---:|" + "---:|".repeat(columns.size))
            for (arm in arms) {
                val cells = columns.joinToString(" | ") { c ->
                    c.figures.joinToString(" / ") { f -> value(arm.estimates[f], f, c.figures.size == 1) }
                }
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

        private fun flags(out: StringBuilder, trials: List<TrialRecord>): Unit = with(out) {
            val byKind = trials.flatMap { trial -> trial.flags.map { it to trial } }.groupBy { it.first.javaClass.simpleName }
            for ((_, flagged) in byKind) {
                val (flag, trial) = flagged.first()
                appendLine(
                    t(
                        "flag.line",
                        flagged.size,
                        trials.size,
                        flag.meaning(t),
                        trial.arm,
                        t("kind.${trial.kind.name.lowercase()}"),
                        trial.fork,
                        flag.describe(t),
                    ),
                )
            }
            if (byKind.isNotEmpty()) appendLine()
        }

        fun guide(out: StringBuilder): Unit = with(out) {
            appendLine(t("guide.title"))
            appendLine()
            appendLine(t("guide.intro"))
            appendLine()
            SelectionGuide.lines(analyses, t).forEach { appendLine(it) }
            AaCalibration.sentence(analyses, t)?.let {
                appendLine()
                appendLine(it)
            }
            AaCalibration.tallySentence(r, t)?.let {
                appendLine()
                appendLine(it)
            }
            appendLine()
        }

        fun decisionMaps(out: StringBuilder): Unit = with(out) {
            for (map in DecisionMap.of(analyses, r)) {
                appendLine(
                    t(
                        "map.title",
                        figureTitle(map.figure.key, t),
                        map.across,
                        map.down?.let { t("map.and", it) } ?: "",
                        map.variant?.let { t("map.under", it) } ?: "",
                    ),
                )
                appendLine()
                append(map.markdown(t))
                appendLine()
                appendLine(t("map.picture", map.pictureName))
                appendLine()
            }
        }

        /** The seeds' selection guide row by row, in a run of seed phases (the phases are what its rows summarise). */
        fun seedGuide(out: StringBuilder) {
            if (analyses.any { it.phases.isNotEmpty() }) out.append(SeedGuideMarkdown.render(analyses, t))
        }

        fun seeds(out: StringBuilder): Unit = with(out) {
            val checks = SeedClaims.check(analyses, r.scenario.variants.map { it.name })
            appendLine(t("seeds.title"))
            appendLine()
            if (checks.isEmpty()) {
                appendLine(t("seeds.none"))
                appendLine()
                return
            }
            appendLine(t("seeds.intro"))
            appendLine()
            appendLine(t("seeds.columns"))
            appendLine("|---|---|---|---|---:|---|---:|---|")
            for (c in checks) {
                val ours = c.ourPercent?.let { p ->
                    Numbers.signed(p) + (c.ourLow?.let { " [${Numbers.signed(it)}, ${Numbers.signed(c.ourHigh!!)}]" } ?: "")
                } ?: "–"
                val elsewhere = c.seedElsewhere.joinToString("; ") { "${it.first} ${Numbers.signed(it.second)}" }.ifEmpty { "–" }
                val mirror = c.mirrors?.let { t("claim.mirrors", it) } ?: ""
                val figure = if (c.perRequest) t("claim.per-request", c.claim.figure) else c.claim.figure
                appendLine(
                    "| ${c.claim.phase} | ${c.claim.condition} | $figure | ${c.a} vs ${c.b} | " +
                        "${Numbers.signed(c.seedPercent)} | $elsewhere | $ours | " +
                        "${t("claim.${c.outcome.name.lowercase()}")}$mirror |",
                )
            }
            appendLine()
            val counted = checks.filter { it.mirrors == null }
            val counts = counted.groupingBy { it.outcome }.eachCount()
            appendLine(
                t(
                    "seeds.summary",
                    counted.size,
                    ClaimOutcome.entries.filter { (counts[it] ?: 0) > 0 }
                        .joinToString(", ") { "${counts[it]} ${t("claim.short.${it.name.lowercase()}")}" },
                    checks.size - counted.size,
                ),
            )
            appendLine()
            if (checks.any { SeedClaims.isGc(it.claim) }) {
                appendLine(t("seeds.gc"))
                appendLine()
            }
        }

        fun forks(out: StringBuilder): Unit = with(out) {
            appendLine(t("forks.title"))
            appendLine()
            val variants = r.scenario.variants.isNotEmpty()
            appendLine("| ${t("forks.fork")} | ${if (variants) "${t("forks.variant")} | " else ""}${t("forks.columns")}")
            appendLine("|---:|${if (variants) "---|" else ""}---|---:|---:|---|---|---|")
            for (f in r.forks) {
                val windows = f.soak?.windows?.joinToString(", ") {
                    "${Numbers.number(it.throughputRps)}/${Numbers.number(it.cpuUsPerRequest)}"
                } ?: "–"
                val warmIns = warmUps(f).ifEmpty { "–" }
                appendLine(
                    "| ${f.index} | ${if (variants) "${f.variant} | " else ""}${t("fork-status.${f.status.name.lowercase()}")}" +
                        "${f.failure?.let { ": ${Recorded.failure(it, t)}" } ?: ""} | " +
                        "${f.conditions.size} | ${f.soak?.seconds?.let { Numbers.number(it) + " s" } ?: "–"} | " +
                        "${f.soak?.settled?.let { t("yes-no.$it") } ?: "–"} | $warmIns | $windows |",
                )
            }
            appendLine()
            forkTimes(out)
        }

        /** Each fork's wall time by part, in seconds (forks that recorded it). */
        private fun forkTimes(out: StringBuilder): Unit = with(out) {
            val timed = r.forks.filter { it.time != null }
            val total = RunTime.of(r) ?: return
            val parts = RunTime.partsWithTime(total.forks)
            val variants = r.scenario.variants.isNotEmpty()
            appendLine(t("forks.time.intro"))
            appendLine()
            val heads = parts.map { t("time.part.${it.name.lowercase()}") } + t("time.runner") + t("time.total")
            appendLine("| ${t("forks.fork")} | ${if (variants) "${t("forks.variant")} | " else ""}${heads.joinToString(" | ")} |")
            appendLine("|---:|${if (variants) "---|" else ""}${"---:|".repeat(heads.size)}")
            for (f in timed) {
                val time = f.time!!
                val cells = parts.map { time.of(it) } + time.runner + time.total()
                appendLine(
                    "| ${f.index} | ${if (variants) "${f.variant} | " else ""}" +
                        "${cells.joinToString(" | ") { "%.1f".format(java.util.Locale.ROOT, it) }} |",
                )
            }
            appendLine()
        }

        /** Which server another host ran, at what address, and what that means for forks and CPU figures. */
        private fun remoteLine(remote: RemoteServersRecord): String {
            val fresh = if (remote.restartedPerFork) ".fresh" else ""
            return remote.gateway?.let { t("header.remote.gateway$fresh", it) } ?: t("header.remote.data-server$fresh", remote.dataServer)
        }

        /**
         * Where the hop runs: loopback, the run's link, each variant's; [direct]: the load driver rather than the gateway calls across it.
         */
        private fun networkLines(direct: Boolean): List<String> {
            val own = r.scenario.variants.mapNotNull { v -> r.environment.networkByVariant[v.name]?.let { v.name to it } }
            val run = r.environment.network
            val runLine = when {
                run != null -> t("header.network", linkText(run))
                own.isEmpty() -> t(if (direct) "header.network.loopback.direct" else "header.network.loopback")
                own.size < r.scenario.variants.size -> t("header.network.loopback.rest")
                else -> null
            }
            return listOfNotNull(runLine) + own.map { (variant, link) ->
                if (link.refused != null) {
                    t("header.network.variant.refused", variant, link.profile, Recorded.failure(link.refused, t))
                } else {
                    t("header.network.variant", variant, linkText(link))
                }
            }
        }

        private fun linkText(network: LinkRecord): String {
            val measured = listOfNotNull(
                network.measuredRttMs?.let { "RTT ${Numbers.number(it)} ms" },
                network.measuredBandwidthMbit?.let { "${Numbers.number(it)} Mbit/s" },
                network.measuredAnswerMs?.let { t("header.network.answer", Numbers.number(it), Numbers.number(network.answerAtRateMs)) },
            ).joinToString(", ")
            val relay = if (network.relayCpu != null) t("header.network.relay") else ""
            return t(
                "header.network.link",
                network.profile,
                Recorded.asked(network, t),
                network.applied?.joinToString("; ") { Recorded.applied(it, t) },
                measured,
                relay,
            )
        }

        /**
         * The conditions whose forks or rounds are their own (scenario `forksByTarget`,
         * `roundsByTarget`), each with what it got; null when every condition has the design line's.
         */
        private fun ownDesign(s: ScenarioRecord): String? {
            val own = s.conditions.filter { it.forks != null || it.rounds != null }.ifEmpty { return null }
            return t(
                "header.own-design",
                own.joinToString("; ") { c ->
                    t("header.own-design.condition", c.label, s.forksOf(c.label), s.maxForksOf(c.label), s.roundsOf(c.label))
                },
            )
        }

        /** How the record's trials were warmed: each arm alone (current), or one mix per condition (older cost-mode runs). */
        private fun warmUpText(): String = when {
            r.forks.any { f -> f.warmIns.any { it.collected != null } } -> t("header.warm-up.collected")
            r.forks.any { f -> f.warmIns.any { it.arm != null } } -> t("header.warm-up")
            r.scenario.mode == Mode.COST && r.forks.any { it.warmIns.isNotEmpty() } -> t("header.warm-in")
            else -> ""
        }

        /**
         * A fork's warm-ups per condition: how many arms and how long in all, with any that
         * did not settle; a record from before per-arm warm-ups has one mix per condition.
         */
        private fun warmUps(f: ForkRecord): String = f.warmIns.groupBy { it.condition }.entries.joinToString(", ") { (condition, warmUps) ->
            val seconds = Numbers.number(warmUps.sumOf { it.soak.seconds })
            val text = if (warmUps.all { it.arm == null }) {
                "$condition: $seconds s"
            } else {
                t("forks.warm-ups", condition, warmUps.size, seconds)
            }
            text + if (warmUps.all { it.soak.settled }) "" else t("forks.not-settled")
        }

        fun planning(out: StringBuilder): Unit = with(out) {
            val p = r.planning ?: return
            appendLine(t("planning.title"))
            appendLine()
            appendLine(t("planning.stopped", Recorded.stopReason(p.stoppedBecause, t)))
            if (p.open.isNotEmpty()) {
                appendLine()
                appendLine(t("planning.open"))
                p.open.forEach {
                    appendLine(
                        "- ${it.condition}: ${Recorded.openComparison(it.comparison, t)}" +
                            (
                                it.moreForks?.let { n -> t(if (n == 1) "planning.one-more-fork" else "planning.more-forks", n) }
                                    ?: t("planning.too-many", Numbers.MAX_FORKS)
                                ),
                    )
                }
            }
            if (p.belowMinimum.isNotEmpty()) {
                appendLine()
                appendLine(t("planning.below-minimum", r.scenario.forks, p.belowMinimum.size, (p.secondsToMinimum ?: 0) / 60 + 1))
                p.belowMinimum.forEach {
                    appendLine(
                        "- ${it.condition}: " + if (it.forks == 0) t("planning.not-measured") else t("planning.forks-done", it.forks),
                    )
                }
            }
            appendLine()
        }

        /** "Fork 2", or "Fork 2 (variant copyFrom)" for one variant's pair. */
        private fun name(f: ForkRecord) = t("problems.fork", f.index) + (f.variant?.let { t("problems.of-variant", it) } ?: "")

        fun problems(out: StringBuilder): Unit = with(out) {
            val invalid = r.trials.filter { !it.valid }
            val failedForks = r.forks.filter { it.status == ForkStatus.FAILED || it.status == ForkStatus.REJECTED }
            val unsettled = r.forks.filter { it.soak?.settled == false }
            val coldWarmIns = r.forks.flatMap { f -> f.warmIns.filter { !it.soak.settled }.map { f to it } }
            if (invalid.isEmpty() && failedForks.isEmpty() && unsettled.isEmpty() && coldWarmIns.isEmpty()) return
            appendLine(t("problems.title"))
            appendLine()
            invalid.forEach { appendLine(t("problems.invalid", it.sequence, it.arm, it.condition, it.fork, invalidReason(it))) }
            failedForks.forEach {
                val failure = it.failure?.let { text -> Recorded.failure(text, t) }
                if (it.status == ForkStatus.REJECTED) {
                    appendLine(t("problems.rejected", it.variant, it.index, failure))
                } else {
                    appendLine(t("problems.failed", name(it), failure))
                }
            }
            unsettled.forEach {
                appendLine(t("problems.unsettled", name(it), Numbers.number(it.soak!!.seconds), it.soak.error?.let { e -> " ($e)" } ?: ""))
            }
            coldWarmIns.forEach { (fork, w) ->
                appendLine(
                    t(
                        "problems.cold-warm-in",
                        name(fork),
                        listOfNotNull(w.arm, w.condition).joinToString(" "),
                        w.load,
                        Numbers.number(w.soak.seconds),
                        w.soak.error?.let { e -> " ($e)" } ?: "",
                    ),
                )
            }
            appendLine()
        }

        /**
         * Why a trial is left out: its error as recorded, or the share of wrong answers in the
         * report's words, with what the gateway saw go wrong on the hop when it counted failures.
         */
        private fun invalidReason(trial: TrialRecord): String? {
            if (trial.error != null) return trial.error
            val total = trial.correctAnswers + trial.wrongAnswers
            if (total == 0L) return t("problems.no-answers")
            trial.flags.firstOrNull { it.leavesTrialOut() }?.let { return it.describe(t) }
            val hopFailures = trial.gateway?.failuresByKind.orEmpty().entries.joinToString { "${it.key} × ${it.value}" }
            return t("problems.wrong-share", String.format(java.util.Locale.ROOT, "%.2f", trial.wrongAnswers * 100.0 / total)) +
                driverReasons(trial) + if (hopFailures.isEmpty()) "" else t("problems.hop-failures", hopFailures)
        }

        /** What the driver found wrong in a trial's answers, each reason with its count and the start of its first answer. */
        private fun driverReasons(trial: TrialRecord): String {
            val driver = trial.driver ?: return ""
            if (driver.failures.isEmpty()) return ""
            val reasons = driver.failures.entries.sortedByDescending { it.value }.joinToString("; ") { (reason, count) ->
                "$reason × $count" + (driver.failureSamples[reason]?.let { t("problems.first-answer", it.replace("`", "'")) } ?: "")
            }
            return t("problems.driver-reasons", reasons)
        }
    }
}
