package io.protobench.bench.report.html

import io.protobench.bench.report.Numbers
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts

/** One labelled value with its 95% interval (either bound may be missing). */
data class Interval(val label: String, val mean: Double, val low: Double?, val high: Double?)

/** A point of a line, with an optional interval drawn as a whisker. */
data class Point(val x: Double, val y: Double, val low: Double? = null, val high: Double? = null)

data class Series(val name: String, val points: List<Point>)

/** A vertical mark on a line chart between two x positions, e.g. where the winner changes. */
data class Marker(val x: Double, val label: String)

/** One row of [Svg.changes]: a change in percent with its interval, coloured by its outcome, and its words. */
data class ChangeRow(val label: String, val percent: Double, val low: Double?, val high: Double?, val color: String, val text: String)

/** One box of a [Svg.grid]: its [word], fill and opacity, and the [detail] shown on hover. */
data class MapCell(val word: String, val fill: String, val opacity: Double, val detail: String)

/** How a line chart's x axis reads: numbers (linear or log) or named categories at 0, 1, 2, … */
sealed class XAxis {
    /** [marks]: ticks at these values with these names (e.g. the measured sizes) instead of round numbers. */
    data class Numeric(val log: Boolean, val format: (Double) -> String = Numbers::number, val marks: List<Pair<Double, String>>? = null) :
        XAxis()
    data class Named(val names: List<String>) : XAxis()
}

/**
 * Inline SVG charts: text a browser draws with no script, no font or image to fetch, and
 * no style attribute, so they render offline under a strict Content-Security-Policy. Each
 * chart is a `<figure>` whose `data-chart` names its kind, with a `<title>` for screen readers.
 */
object Svg {
    /** How a chart's text looks: the report page's rules for it, and a standalone file's own. */
    val TEXT_STYLE = """
        svg text { font: 12px system-ui, sans-serif; fill: #333; } svg text.title { font-weight: 600; font-size: 13px; }
        svg text.tick { fill: #666; font-size: 11px; } svg text.value { fill: #555; font-size: 11px; } svg text.marker { fill: #b00; font-size: 11px; }
        svg text.cell { fill: #222; font-size: 11px; } svg text.cell-dark { fill: #fff; font-size: 11px; font-weight: 600; }
    """.trimIndent()

    private const val WIDTH = 600.0
    private const val LEFT = 160.0
    private const val RIGHT = 20.0
    private const val ROW = 26.0

    /** Horizontal dot-and-whisker rows on one axis: each arm's mean and 95% interval. */
    fun intervals(kind: String, title: String, unit: String, rows: List<Interval>): String {
        val height = 48 + rows.size * ROW + 30
        val x = Scale.linear(rows.flatMap { listOfNotNull(it.mean, it.low, it.high) }, LEFT, WIDTH - RIGHT - 60)
        val body = buildString {
            append(xGrid(x, 40.0, height - 30, unit))
            rows.forEachIndexed { i, row ->
                val y = 48 + i * ROW + ROW / 2
                val color = Palette.color(row.label)
                append(text(LEFT - 8, y + 4, row.label, anchor = "end"))
                if (row.low != null && row.high != null) {
                    append(line(x.at(row.low), y, x.at(row.high), y, color, width = 2.0))
                    append(line(x.at(row.low), y - 5, x.at(row.low), y + 5, color))
                    append(line(x.at(row.high), y - 5, x.at(row.high), y + 5, color))
                }
                append(
                    """<circle cx="${f(
                        x.at(row.mean),
                    )}" cy="${f(y)}" r="4.5" fill="$color"><title>${esc(row.label)}: ${Numbers.number(row.mean)} $unit""" +
                        (if (row.low != null && row.high != null) " [${Numbers.number(row.low)}, ${Numbers.number(row.high)}]" else "") +
                        "</title></circle>",
                )
                append(text(WIDTH - RIGHT - 52, y + 4, Numbers.number(row.mean), cls = "value"))
            }
        }
        return figure(kind, title, height, body)
    }

    /**
     * Lines over a numeric or named x axis, one per series, with whiskers where points have
     * intervals and dashed [markers]; the y axis is logarithmic when [yLog].
     */
    fun lines(
        kind: String,
        title: String,
        xAxis: XAxis,
        xTitle: String,
        yTitle: String,
        series: List<Series>,
        yLog: Boolean = false,
        markers: List<Marker> = emptyList(),
    ): String {
        val top = 40.0
        val bottom = 300.0
        val height = bottom + 44 + legendHeight(series.map { it.name }.distinct())
        val left = 70.0
        val points = series.flatMap { it.points }
        val x = when (xAxis) {
            is XAxis.Named -> Scale.categories(xAxis.names.size, left, WIDTH - RIGHT)

            is XAxis.Numeric -> if (xAxis.log) {
                Scale.log(points.map { it.x }, left, WIDTH - RIGHT)
            } else {
                Scale.linear(points.map { it.x }, left, WIDTH - RIGHT)
            }
        }
        val yValues = points.flatMap { listOfNotNull(it.y, it.low, it.high) }
        val y = if (yLog) Scale.log(yValues, bottom, top) else Scale.linear(yValues, bottom, top)
        val body = buildString {
            for (tick in y.ticks()) {
                append(line(left, y.at(tick), WIDTH - RIGHT, y.at(tick), "#e4e4e4"))
                append(text(left - 6, y.at(tick) + 4, Numbers.number(tick), anchor = "end", cls = "tick"))
            }
            val xTicks = when (xAxis) {
                is XAxis.Named -> xAxis.names.mapIndexed { i, name -> i.toDouble() to name }
                is XAxis.Numeric -> xAxis.marks ?: x.ticks().map { it to xAxis.format(it) }
            }
            for ((value, name) in xTicks) append(text(x.at(value), bottom + 16, name, anchor = "middle", cls = "tick"))
            append(line(left, bottom, WIDTH - RIGHT, bottom, "#888"))
            append(text((left + WIDTH - RIGHT) / 2, bottom + 34, xTitle, anchor = "middle", cls = "axis"))
            append(
                """<text x="14" y="${f(
                    (top + bottom) / 2,
                )}" text-anchor="middle" class="axis" transform="rotate(-90 14 ${f((top + bottom) / 2)})">${esc(yTitle)}</text>""",
            )
            for (m in markers) {
                append(
                    """<line x1="${f(
                        x.at(m.x),
                    )}" y1="${f(top)}" x2="${f(x.at(m.x))}" y2="${f(bottom)}" stroke="#b00" stroke-dasharray="5 4"/>""",
                )
                append(text(x.at(m.x) + 4, top - 4, m.label, cls = "marker"))
            }
            val names = series.map { it.name }.distinct()
            for (s in series) {
                val color = Palette.color(s.name, names.indexOf(s.name))
                val path = s.points.joinToString(" ") { "${f(x.at(it.x))},${f(y.at(it.y))}" }
                if (s.points.size > 1) {
                    append("""<polyline points="$path" fill="none" stroke="$color" stroke-width="2"${Palette.dash(s.name)}/>""")
                }
                for (p in s.points) {
                    if (p.low != null && p.high != null) append(line(x.at(p.x), y.at(p.low), x.at(p.x), y.at(p.high), color))
                    append(
                        """<circle cx="${f(
                            x.at(p.x),
                        )}" cy="${f(y.at(p.y))}" r="3" fill="$color"><title>${esc(s.name)}: ${Numbers.number(p.y)}""" +
                            (if (p.low != null && p.high != null) " [${Numbers.number(p.low)}, ${Numbers.number(p.high)}]" else "") +
                            "</title></circle>",
                    )
                }
            }
            append(legend(names, bottom + 44))
        }
        return figure(kind, title, height, body)
    }

    /**
     * Signed changes (percent) as dot-and-whisker rows around zero, with the margin of
     * equivalence shaded: a whisker wholly outside the band is a change beyond the margin.
     */
    fun changes(kind: String, title: String, marginPercent: Double, rows: List<ChangeRow>, legend: List<Pair<String, String>>): String {
        val height = 48 + rows.size * ROW + 30 + legendHeight(legend.map { it.first })
        // The axis holds every estimate and the margin; a wider interval runs off the edge rather than squash the rest.
        val reach = ((rows.map { it.percent }.filter { it.isFinite() }.maxOfOrNull { kotlin.math.abs(it) } ?: 0.0) * 1.5)
            .coerceAtLeast(marginPercent * 3).coerceAtMost(200.0)
        val labelEnd = 222.0
        val x = Scale.linear(listOf(-reach, reach), labelEnd + 10, WIDTH - RIGHT - 60)
        fun at(v: Double) = x.at(v.coerceIn(x.low, x.high))
        val body = buildString {
            append(
                """<rect x="${f(x.at(-marginPercent))}" y="40" width="${f(x.at(marginPercent) - x.at(-marginPercent))}" """ +
                    """height="${f(rows.size * ROW + 8)}" fill="#dfe6f0"/>""",
            )
            append(xGrid(x, 40.0, 48 + rows.size * ROW, "%"))
            append(line(x.at(0.0), 40.0, x.at(0.0), 48 + rows.size * ROW, "#888"))
            rows.forEachIndexed { i, row ->
                val y = 48 + i * ROW + ROW / 2
                append(text(labelEnd, y + 4, row.label, anchor = "end", cls = "tick"))
                if (row.low != null && row.high != null) append(line(at(row.low), y, at(row.high), y, row.color, width = 2.0))
                if (row.percent.isFinite()) {
                    append(
                        """<circle cx="${f(
                            at(row.percent),
                        )}" cy="${f(y)}" r="4.5" fill="${row.color}"><title>${esc(row.label)}: ${esc(row.text)}</title></circle>""",
                    )
                }
                append(text(WIDTH - RIGHT - 52, y + 4, row.text.substringBefore(" "), cls = "value"))
            }
            append(legend(legend.map { it.first }, 48 + rows.size * ROW + 30) { i -> legend[i].second })
        }
        return figure(kind, title, height, body)
    }

    /** Horizontal stacked bars: each row's parts (e.g. CPU per request of the load driver, gateway, data-server) end to end. */
    fun stacked(kind: String, title: String, unit: String, parts: List<String>, rows: List<Pair<String, List<Double?>>>): String {
        val height = 48 + rows.size * ROW + 30 + legendHeight(parts)
        val x = Scale.linear(rows.map { (_, values) -> values.sumOf { it ?: 0.0 } }, LEFT, WIDTH - RIGHT - 60)
        val body = buildString {
            append(xGrid(x, 40.0, 48 + rows.size * ROW, unit))
            rows.forEachIndexed { i, (label, values) ->
                val y = 48 + i * ROW
                append(text(LEFT - 8, y + ROW / 2 + 4, label, anchor = "end"))
                var at = 0.0
                values.forEachIndexed { k, v ->
                    if (v != null && v > 0) {
                        append(
                            """<rect x="${f(x.at(at))}" y="${f(y + 4)}" width="${f(x.at(at + v) - x.at(at))}" height="${f(ROW - 8)}" """ +
                                """fill="${Palette.part(
                                    k,
                                )}"><title>${esc(label)}, ${esc(parts[k])}: ${Numbers.number(v)} $unit</title></rect>""",
                        )
                        at += v
                    }
                }
                append(text(WIDTH - RIGHT - 52, y + ROW / 2 + 4, Numbers.number(at), cls = "value"))
            }
            append(legend(parts, 48 + rows.size * ROW + 30, Palette::part))
        }
        return figure(kind, title, height, body)
    }

    /**
     * A grid of named columns and rows; each [MapCell] is a filled box with a word or two,
     * used for the decision map (size or complexity across, concurrency down).
     */
    fun grid(
        kind: String,
        title: String,
        columnTitle: String,
        rowTitle: String,
        columns: List<String>,
        rows: List<String>,
        cells: Map<Pair<Int, Int>, MapCell>,
        legend: List<Pair<String, String>>,
        caption: String,
    ): String {
        val cellWidth = ((WIDTH - 90) / columns.size.coerceAtLeast(1)).coerceAtMost(130.0)
        val cellHeight = 40.0
        val top = 56.0
        val left = 80.0
        val height = top + rows.size * cellHeight + 36 + legendHeight(legend.map { it.first })
        val body = buildString {
            append(text(left, top - 20, columnTitle, cls = "axis"))
            columns.forEachIndexed { c, name -> append(text(left + (c + 0.5) * cellWidth, top - 6, name, anchor = "middle", cls = "tick")) }
            append(text(8.0, top - 6, rowTitle, cls = "axis"))
            rows.forEachIndexed { r, name -> append(text(left - 8, top + (r + 0.5) * cellHeight + 4, name, anchor = "end", cls = "tick")) }
            for ((at, cell) in cells) {
                val (c, r) = at
                val x = left + c * cellWidth
                val y = top + r * cellHeight
                append(
                    """<rect x="${f(
                        x + 1,
                    )}" y="${f(y + 1)}" width="${f(cellWidth - 2)}" height="${f(cellHeight - 2)}" fill="${cell.fill}" """ +
                        """fill-opacity="${f(cell.opacity)}" stroke="#bbb"><title>${esc(cell.detail)}</title></rect>""",
                )
                append(
                    text(
                        x + cellWidth / 2,
                        y + cellHeight / 2 + 4,
                        cell.word,
                        anchor = "middle",
                        cls = if (cell.opacity >= 0.9) "cell-dark" else "cell",
                    ),
                )
            }
            append(legend(legend.map { it.first }, top + rows.size * cellHeight + 30) { i -> legend[i].second })
        }
        return figure(kind, title, height, body, caption)
    }

    /**
     * One chart of this object as an SVG file of its own (a picture for a README): its text
     * style inside, a white ground under it (a dark page would hide the dark text), and its
     * caption as the picture's description.
     */
    fun standalone(chart: String): String {
        val svg = chart.substring(chart.indexOf("<svg"), chart.lastIndexOf("</svg>"))
        val bodyStart = svg.indexOf('>') + 1
        val caption = Regex("<figcaption>(.*)</figcaption>").find(chart)?.groupValues?.get(1)
        return svg.substring(0, bodyStart) + "<style>\n$TEXT_STYLE\n</style>" + (caption?.let { "<desc>$it</desc>" } ?: "") +
            """<rect width="100%" height="100%" fill="#fff"/>""" + svg.substring(bodyStart) + "</svg>\n"
    }

    private fun xGrid(x: Scale, top: Double, bottom: Double, unit: String) = buildString {
        for (tick in x.ticks()) {
            append(line(x.at(tick), top, x.at(tick), bottom, "#e4e4e4"))
            append(text(x.at(tick), bottom + 14, Numbers.number(tick), anchor = "middle", cls = "tick"))
        }
        append(text(WIDTH - RIGHT, top - 8, unit, anchor = "end", cls = "axis"))
    }

    /** Each legend entry's place, flowing left to right and wrapping: (x, line). */
    private fun legendPlaces(names: List<String>): List<Pair<Double, Int>> {
        var x = 70.0
        var line = 0
        return names.map { name ->
            // About 6.6 px a Latin character at the legend's 12 px; a Hangul syllable takes two.
            val width = 26 + Texts.columns(name) * 6.6
            if (x + width > WIDTH - RIGHT && x > 70.0) {
                x = 70.0
                line++
            }
            (x to line).also { x += width }
        }
    }

    private fun legendHeight(names: List<String>) = ((legendPlaces(names).maxOfOrNull { it.second } ?: -1) + 1) * 18.0 + 6

    private fun legend(names: List<String>, top: Double, color: (Int) -> String = { i -> "" }): String = buildString {
        legendPlaces(names).forEachIndexed { i, (x, line) ->
            val name = names[i]
            val y = top + line * 18.0
            val c = color(i).ifEmpty { Palette.color(name, i) }
            append("""<rect x="${f(x)}" y="${f(y)}" width="12" height="12" fill="$c"/>""")
            append(text(x + 18, y + 10, name, cls = "legend"))
        }
    }

    private fun figure(kind: String, title: String, height: Double, body: String, caption: String? = null): String {
        val id = "c" + Integer.toHexString((kind + title).hashCode())
        return """<figure class="chart" data-chart="$kind"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${f(
            WIDTH,
        )} ${f(height)}" """ +
            """width="${f(WIDTH)}" height="${f(height)}" role="img" aria-labelledby="$id"><title id="$id">${esc(title)}</title>""" +
            text(8.0, 20.0, title, cls = "title") + body + "</svg>" +
            (caption?.let { "<figcaption>${esc(it)}</figcaption>" } ?: "") + "</figure>\n"
    }

    private fun line(x1: Double, y1: Double, x2: Double, y2: Double, color: String, width: Double = 1.0) =
        """<line x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}" stroke="$color" stroke-width="${f(width)}"/>"""

    private fun text(x: Double, y: Double, content: String, anchor: String = "start", cls: String = "label") =
        """<text x="${f(x)}" y="${f(y)}" text-anchor="$anchor" class="$cls">${esc(content)}</text>"""

    private fun f(v: Double) = String.format(java.util.Locale.ROOT, "%.1f", v)

    private fun esc(s: String) = Html.escape(s)
}

/**
 * One colour per protocol across every chart of a report (colour-blind-safe Dark2 hues);
 * an arm under a variant keeps its protocol's colour and gets a dash of its own.
 */
object Palette {
    private val protocols = mapOf(
        "HTTP/JSON" to "#d95f02",
        "HTTP/Binary" to "#7570b3",
        "gRPC/Unary" to "#1b9e77",
        "gRPC/Stream" to "#e7298a",
        "Null hop" to "#888888",
    )
    private val others = listOf("#66a61e", "#e6ab02", "#a6761d", "#1f78b4", "#666666")
    private val parts = listOf("#8da0cb", "#fc8d62", "#66c2a5", "#e78ac3")

    fun color(label: String, index: Int = 0): String =
        protocols[label.substringBefore(" · ")] ?: protocols.entries.firstOrNull { label.startsWith(it.key) }?.value
            ?: others[index % others.size]

    /**
     * Solid for a plain arm, dashed for an A/A copy, an arm on a further set of hop clients (`protocol (client)`) or an arm under
     * a variant (`protocol · variant`), which share their protocol's colour.
     */
    fun dash(label: String): String = when {
        Arm.replicated(Variant.split(label).first) != null -> """ stroke-dasharray="2 3""""
        Arm.clientOf(Variant.split(label).first) != null -> """ stroke-dasharray="6 2 1 2""""
        " · " in label -> """ stroke-dasharray="${4 + label.length % 5} 3""""
        else -> ""
    }

    fun part(index: Int): String = parts[index % parts.size]
}
