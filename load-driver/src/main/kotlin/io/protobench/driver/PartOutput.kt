package io.protobench.driver

import com.fasterxml.jackson.module.kotlin.readValue
import java.nio.file.Files
import java.nio.file.Path

/**
 * What one part of a plan ran ([Part]), as text that travels in a pod's log: the whole
 * [plan] as given (before the share, so a merge can tell parts of one plan from parts of
 * another), the part's [summary] and its timed phase's [histogramLog] (a standard
 * HdrHistogram log, epoch timestamps), each section after a marker line:
 *
 * ```
 * === protobench part 1/4: plan ===
 * === protobench part 1/4: summary ===
 * === protobench part 1/4: histogram log ===
 * === protobench part 1/4: end ===
 * ```
 *
 * Read back, anything else in the text (the JVM's notices on stderr, which a pod's log
 * interleaves, other parts' records) is passed over; a section that is missing is null.
 */
data class PartOutput(val part: Part, val plan: Plan?, val summary: Summary?, val histogramLog: String?) {
    fun render(): String = buildString {
        section(PLAN, json.writeValueAsString(plan))
        section(SUMMARY, json.writeValueAsString(summary))
        section(LOG, histogramLog.orEmpty().trimEnd())
        append(marker(END)).append('\n')
    }

    private fun StringBuilder.section(name: String, text: String) {
        append(marker(name)).append('\n').append(text).append('\n')
    }

    private fun marker(section: String) = "=== protobench part ${part.label}: $section ==="

    companion object {
        private const val PLAN = "plan"
        private const val SUMMARY = "summary"
        private const val LOG = "histogram log"
        private const val END = "end"
        private val MARKER = Regex("""=== protobench part (\d+)/(\d+): (plan|summary|histogram log|end) ===""")

        /** Lines HdrHistogram's log reader takes: comments, the legend, interval lines (tagged or not). */
        private val LOG_LINE = Regex("""^(#|"|Tag=|\d).*""")

        /**
         * Runs [part] of [plan]: its share, its timed latency logged to the plan's log made its
         * own ([Part.ownLog], kept) or to a file of its own that is gone once read.
         */
        fun run(plan: Plan, part: Part): PartOutput {
            val kept = plan.histogramLog != null
            val share = part.of(plan).let {
                if (kept) it else it.copy(histogramLog = Files.createTempFile("protobench-part", ".hlog").toString())
            }
            val log = Path.of(checkNotNull(share.histogramLog))
            try {
                val summary = LoadRun(checked(share)).execute()
                return PartOutput(part, plan, if (kept) summary else summary.copy(histogramLog = null), Files.readString(log))
            } finally {
                if (!kept) Files.deleteIfExists(log)
            }
        }

        /** Every part's record in [text], in the order found; a record cut short keeps what it had. */
        fun parse(text: String): List<PartOutput> {
            val records = mutableListOf<Reading>()
            var current: Reading? = null
            var section: String? = null
            text.lineSequence().forEach { line ->
                val marker = MARKER.matchEntire(line.trimEnd())
                when {
                    marker != null -> {
                        val (index, count, name) = marker.destructured
                        val part = Part(index.toInt(), count.toInt())
                        if (current?.part != part || name == PLAN) current = Reading(part).also(records::add)
                        section = name.takeUnless { it == END }
                    }

                    section != null -> current!!.lines.getOrPut(section!!) { mutableListOf() }.add(line)
                }
            }
            return records.map(Reading::output)
        }
    }

    private class Reading(val part: Part) {
        val lines = mutableMapOf<String, MutableList<String>>()

        fun output() = PartOutput(
            part,
            jsonLine(PLAN)?.let { read<Plan>(it, PLAN) },
            jsonLine(SUMMARY)?.let { read<Summary>(it, SUMMARY) },
            lines[LOG]?.filter { LOG_LINE.matches(it) }?.takeIf { log -> log.any { !it.startsWith("#") && !it.startsWith("\"") } }
                ?.joinToString("\n", postfix = "\n"),
        )

        private fun jsonLine(section: String): String? = lines[section]?.firstOrNull { it.startsWith("{") }

        /** A section's JSON as its type, or [IllegalArgumentException] saying which part's section is not that. */
        private inline fun <reified T> read(line: String, section: String): T = try {
            json.readValue<T>(line)
        } catch (e: com.fasterxml.jackson.core.JacksonException) {
            throw IllegalArgumentException("part ${part.label}: its $section is not the driver's JSON (${e.originalMessage})")
        }
    }
}
