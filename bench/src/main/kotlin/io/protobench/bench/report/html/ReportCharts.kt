package io.protobench.bench.report.html

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.report.ArmSummary
import io.protobench.bench.report.AxisLine
import io.protobench.bench.report.Call
import io.protobench.bench.report.ConditionAnalysis
import io.protobench.bench.report.DecisionMap
import io.protobench.bench.report.MarkdownReport
import io.protobench.bench.report.SelectionGuide
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Mode
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import kotlin.math.sqrt

/** The charts of a report, drawn from the same analysis as its words. */
object ReportCharts {
    private val SPECTRUM = listOf(Figure.LATENCY_P50, Figure.LATENCY_P90, Figure.LATENCY_P95, Figure.LATENCY_P99, Figure.LATENCY_P999)

    /** Every chart of one condition: figures with intervals, CPU by process, the latency spectrum, the per-second timeline. */
    fun condition(a: ConditionAnalysis, record: RunRecord, t: Texts): List<String> = buildList {
        val protocols = a.cost.filter { it.arm.isProtocol() }
        if (protocols.isNotEmpty()) {
            add(intervals("hop-cpu", t("chart.hop-cpu"), "µs", protocols, Figure.HOP_CPU_US))
            add(intervals("hop-latency", t("chart.hop-latency"), "ms", protocols, Figure.HOP_P50))
        }
        if (a.cost.isNotEmpty()) {
            add(cpuByProcess(a.cost, t))
            add(spectrum(a.cost, t))
        }
        val capacity = a.capacity.filter { it.arm.isProtocol() }
        if (capacity.isNotEmpty()) add(intervals("capacity", t("chart.capacity"), t("chart.capacity-unit"), capacity, Figure.THROUGHPUT))
        val kind = if (record.scenario.mode == Mode.CAPACITY || a.cost.isEmpty()) TrialKind.CAPACITY else TrialKind.COST
        timeline(record, a.condition, kind, t)?.let(::add)
    }.filterNotNull()

    /**
     * One chart per axis that varies across the run's conditions (size, complexity, vus,
     * rate) and per setting of the other axes: each protocol's primary figure along the axis
     * with its interval, and a dashed mark where the decided winner changes.
     */
    fun axes(analyses: List<ConditionAnalysis>, record: RunRecord, t: Texts): List<String> {
        val capacityMode = record.scenario.mode == Mode.CAPACITY
        val figure = if (capacityMode) Figure.THROUGHPUT else Figure.HOP_CPU_US
        return AxisLine.of(analyses).map { line -> axisChart(line.axis, line.fixed, line.members, figure, capacityMode, t) }
    }

    /** Each decision map as a grid of boxes: the winner's colour, stronger where its least advantage is larger. */
    fun decisionMaps(maps: List<DecisionMap>, t: Texts): List<String> = maps.map { map ->
        val cells = map.cells.mapValues { (_, value) ->
            val (condition, call) = value
            val (fill, opacity) = when (call) {
                is Call.Winner -> Palette.color(call.protocol) to when {
                    call.leastAdvantagePercent >= 25 -> 1.0
                    call.leastAdvantagePercent >= 10 -> 0.7
                    else -> 0.4
                }

                is Call.Equivalent -> "#9aa5b1" to 0.5

                is Call.Open -> "#ffffff" to 1.0

                Call.Untrusted -> "#b00000" to 0.25
            }
            MapCell(map.word(call, t, compact = true), fill, if (call is Call.Open) 0.0 else opacity, "$condition: ${map.word(call, t)}")
        }
        val legend = map.cells.values.mapNotNull { (it.second as? Call.Winner)?.protocol }.distinct()
            .map { Variant.split(it).first to Palette.color(it) } +
            listOf(t("chart.map.equivalent") to "#c9d0d8", t("chart.map.undecided") to "#ffffff")
        Svg.grid(
            "decision-map",
            t("chart.map", MarkdownReport.figureTitle(map.figure.key, t), map.variant?.let { t("map.under", it) } ?: ""),
            map.across, map.down ?: "", map.columns, map.rows, cells, legend, caption = t("chart.map.caption"),
        )
    }

    private fun axisChart(
        axis: String,
        fixed: Map<String, String>,
        members: List<Pair<Map<String, String>, ConditionAnalysis>>,
        figure: Figure,
        capacityMode: Boolean,
        t: Texts,
    ): String {
        val named = axis == "complexity"
        val values = members.map { it.first.getValue(axis) }
        fun x(i: Int) = if (named) i.toDouble() else DecisionMap.position(axis, values[i])
        val summaries = members.map { (_, a) -> if (capacityMode) a.capacity else a.cost }
        val arms = summaries.flatten().map { it.arm }
            .filter { it.isProtocol() && Arm.replicated(Variant.split(it).first) == null }.distinct()
        val series = arms.map { arm ->
            Series(
                arm,
                summaries.mapIndexedNotNull { i, s ->
                    s.firstOrNull { it.arm == arm }?.estimates?.get(figure)?.let { e -> Point(x(i), e.mean, e.ciLow, e.ciHigh) }
                },
            )
        }
        val kind = if (capacityMode) TrialKind.CAPACITY else TrialKind.COST
        val winners = members.map { (_, a) ->
            a.family(kind)?.protocolDecisions?.filter { it.figure == figure.key }?.let(SelectionGuide::best)
        }
        val markers = winners.indices.zipWithNext().mapNotNull { (i, j) ->
            val from = winners[i]
            val to = winners[j]
            if (from == null || to == null || from == to) {
                null
            } else {
                Marker(if (named) (i + j) / 2.0 else sqrt(x(i) * x(j)), t("chart.flip", Variant.split(to).first))
            }
        }
        val context = fixed.entries.joinToString(" ") { "${it.key}=${it.value}" }
        val xAxis = if (named) XAxis.Named(values) else XAxis.Numeric(log = true, marks = values.indices.map { x(it) to values[it] })
        val title = MarkdownReport.figureTitle(figure.key, t)
        return Svg.lines(
            "axis",
            t("chart.along", title, axis, context),
            xAxis,
            axis,
            "$title (${figure.unit})",
            series,
            yLog = true,
            markers = markers,
        )
    }

    private fun intervals(kind: String, title: String, unit: String, arms: List<ArmSummary>, figure: Figure): String? {
        val rows = arms.mapNotNull { arm -> arm.estimates[figure]?.let { Interval(arm.arm, it.mean, it.ciLow, it.ciHigh) } }
        return if (rows.isEmpty()) null else Svg.intervals(kind, title, unit, rows)
    }

    /** Where each arm's CPU per request goes: the load generator, the gateway and the data-server. */
    private fun cpuByProcess(arms: List<ArmSummary>, t: Texts): String = Svg.stacked(
        "cpu-by-process",
        t("chart.cpu-by-process"),
        "µs",
        listOf(t("chart.part.driver"), t("chart.part.api"), t("chart.part.data")),
        arms.map { it.arm to listOf(it.mean(Figure.DRIVER_CPU_US), it.mean(Figure.API_CPU_US), it.mean(Figure.DATA_CPU_US)) },
    )

    /**
     * End-to-end latency from p50 to p99.9, per arm (the driver's view: at a fixed rate timed from each call's intended start, free of
     * coordinated omission).
     */
    private fun spectrum(arms: List<ArmSummary>, t: Texts): String? {
        val series = arms.map { arm ->
            Series(arm.arm, SPECTRUM.mapIndexedNotNull { i, f -> arm.mean(f)?.let { Point(i.toDouble(), it) } })
        }.filter { it.points.isNotEmpty() }
        if (series.isEmpty()) return null
        return Svg.lines(
            "latency-spectrum",
            t("chart.spectrum"),
            XAxis.Named(listOf("p50", "p90", "p95", "p99", "p99.9")),
            t("chart.percentile"),
            t("chart.latency-ms"),
            series,
            yLog = true,
        )
    }

    /** Requests completed per second in each trial, as the gateway counted them: flat lines are steady trials. */
    private fun timeline(record: RunRecord, condition: String, kind: TrialKind, t: Texts): String? {
        val trials = record.trials.filter { it.condition == condition && it.kind == kind && it.valid && it.gateway != null }
        if (trials.isEmpty()) return null
        val series = trials.map { trial ->
            val timeline = trial.gateway!!.timeline
            val perSecond = 1000.0 / timeline.intervalMs
            Series(trial.arm, timeline.completed.mapIndexed { i, n -> Point((i + 1) * timeline.intervalMs / 1000.0, n * perSecond) })
        }.filter { it.points.isNotEmpty() }
        if (series.isEmpty()) return null
        val what = t(if (kind == TrialKind.COST) "chart.timeline.cost" else "chart.timeline.capacity")
        return Svg.lines("timeline", t("chart.timeline", what), XAxis.Numeric(log = false), t("chart.seconds"), "req/s", series)
    }

    private fun String.isProtocol() = Variant.split(this).first != Arm.NullHop.LABEL
}
