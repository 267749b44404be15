package io.protobench.bench.report

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.text.Texts

/**
 * What a run record keeps in English, said in a report's language: the sentences the code
 * writes as they happen, read back by [Texts.recorded] with the shapes each field may take,
 * and a scenario's description. Text none of them matches (an exception's message,
 * a server's own words, a sentence as an older version worded it, a user's own description)
 * is shown as recorded, in English.
 */
object Recorded {
    /** Why the planner stopped: one reason, or several joined by "; ". */
    fun stopReason(text: String, t: Texts): String = t.recorded(text, STOP_REASONS) { stopReason(it, t) }

    /** "HTTP/JSON vs gRPC/Unary on Hop CPU/req": the figure's title in the report's language. */
    fun openComparison(text: String, t: Texts): String = t.recorded(text, listOf(listOf("planning.comparison"))) { figure(it, t) ?: it }

    /**
     * One comparison as [MarkdownReport.sentence] words it in English (a crossover point keeps its
     * decision so): the figure, the verdict with its interval, family and forks, and what would decide it.
     */
    fun decision(text: String, t: Texts): String = t.recorded(text, DECISIONS) { value ->
        figure(value, t) ?: t.readBack(value, VERDICT_PARTS)
            ?: listOf("faster", "cheaper", "lower").firstOrNull { Texts.EN("verdict.$it") == value }?.let { t("verdict.$it") } ?: value
    }

    /** A figure's English title ([Figure.title]) in [t]'s language; null when [title] is none. */
    private fun figure(title: String, t: Texts) =
        Figure.entries.firstOrNull { it.title == title }?.let { MarkdownReport.figureTitle(it.key, t) }

    /** Who shares the machine, and how the CPUs were placed. */
    fun placement(text: String, t: Texts): String = t.recorded(text, PLACEMENTS) { value ->
        t.readBack(value, listOf(listOf("placement.names")))
            ?: value.split(", ").joinToString(", ") { t.recorded(it, listOf(listOf("placement.cpus"))) }
    }

    /** Why a run or a fork ended early, or a variant's servers or link were rejected. */
    fun failure(text: String, t: Texts): String = t.recorded(text, FAILURES) { value ->
        link(value, t) ?: value.split("; ").joinToString("; ") { t.recorded(it, DETAILS) }
    }

    /** A link as the report's header gives it: the profile asked, how it was applied (each step), and what it measured. */
    fun asked(link: LinkRecord, t: Texts): String? =
        link.asked?.split(", ")?.joinToString(", ") { t.recorded(it, listOf(listOf("link.loss"))) }

    fun applied(step: String, t: Texts): String = t.recorded(step, APPLIED) { t.recorded(it, listOf(listOf("link.offload"))) }

    /** A scenario's description in [t]'s language: a built-in's ([Texts.description]) or a crossover point's. */
    fun description(description: String, t: Texts): String = t.description(description) ?: t.recorded(
        description,
        listOf(listOf("crossover.point-description"), listOf("scenario.message-description")),
    )

    /** A link check's line: the verdict, and each measured figure apart (they are joined by ", " outside parentheses). */
    private fun link(text: String, t: Texts): String? = t.readBack(text, LINK_VERDICTS) { measured ->
        topLevel(measured).joinToString(", ") { part ->
            t.recorded(part, LINK_FIGURES) { if (it == Texts.EN("link.not-measured")) t("link.not-measured") else it }
        }
    }

    /** [text] split at each ", " that is not inside parentheses. */
    private fun topLevel(text: String): List<String> {
        val parts = mutableListOf<String>()
        var depth = 0
        var start = 0
        for ((i, c) in text.withIndex()) {
            when {
                c == '(' -> depth++

                c == ')' -> depth--

                depth == 0 && text.startsWith(", ", i) -> {
                    parts += text.substring(start, i)
                    start = i + 2
                }
            }
        }
        return parts + text.substring(start)
    }

    private fun shapes(vararg keys: String) = keys.map { listOf(it) }

    private val STOP_REASONS = shapes(
        "planning.reason.all-rejected",
        "planning.reason.failed-in-a-row",
        "planning.reason.at-most",
        "planning.reason.beyond-reach",
        "planning.reason.decided",
        "planning.reason.budget",
    ) + listOf(listOf("planning.reason.budget-minimum", "planning.reason.budget-extra?"), listOf("planning.reason.and"))

    private val PLACEMENTS = shapes(
        "placement.sharing",
        "placement.sharing.one",
        "placement.alone",
        "placement.off",
        "placement.few-cores",
        "placement.few-cores.older",
        "placement.no-taskset",
        "placement.pinned",
    )

    private val FAILURES = shapes(
        "rejected.network", "rejected.settings", "rejected.jvm", "rejected.servers", "rejected.not-taken", "failure.signal",
        "failure.no-fork", "failure.every-trial", "failure.servers-start", "failure.settings-unread", "failure.server-died",
        "failure.stopped", "failure.cut-short",
    )

    /** What a failure's sentence holds: the settings that did not take effect (joined by "; "), or that no trial ran. */
    private val DETAILS = shapes(
        "rejected.property", "rejected.property.unreported", "rejected.heap", "rejected.heap.none", "rejected.collector",
        "rejected.collector.unknown", "rejected.jdk", "rejected.jdk.unknown", "failure.no-trial",
    )

    private val DECISIONS = listOf(
        listOf("verdict.better", "verdict.tail?", "verdict.inside-margin?"),
        listOf("verdict.equivalent", "verdict.tail?", "verdict.inside-margin?"),
        listOf("verdict.too-few", "verdict.single-fork?", "verdict.inside-margin?"),
        listOf("verdict.open", "verdict.tail?", "verdict.one-more-fork", "verdict.inside-margin?"),
        listOf("verdict.open", "verdict.tail?", "verdict.more-forks", "verdict.inside-margin?"),
        listOf("verdict.open", "verdict.tail?", "verdict.too-many-forks", "verdict.inside-margin?"),
    ).map { listOf("verdict.sentence") + it }

    /** The parts of a verdict's tail that are words: forks left out, the family's size. */
    private val VERDICT_PARTS = shapes("verdict.dropped", "verdict.family-looks", "verdict.family")

    private val LINK_VERDICTS = shapes("link.holds", "link.off", "link.no-delay")

    private val LINK_FIGURES = shapes("link.rtt.relay", "link.rtt", "link.bandwidth", "link.bandwidth.older", "link.answer")

    private val APPLIED = shapes("link.tbf", "link.tbf.older", "link.relay", "link.relay.less", "link.relay.none") +
        listOf(listOf("link.netem", "link.per-segment?"), listOf("link.drop", "link.per-segment"))
}
