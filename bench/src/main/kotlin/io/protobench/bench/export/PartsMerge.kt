package io.protobench.bench.export

import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.driver.Counts
import io.protobench.driver.Latency
import io.protobench.driver.PartOutput
import io.protobench.driver.Plan
import io.protobench.driver.Summary
import io.protobench.driver.Tally
import org.HdrHistogram.Histogram
import org.HdrHistogram.HistogramLogReader
import org.HdrHistogram.HistogramLogWriter
import java.io.ByteArrayInputStream
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant

/** One part's output and the file it was read from. */
data class PartInput(val source: String, val output: PartOutput)

/** A stretch of wall time, ms since the epoch. */
data class Span(val startMs: Long, val endMs: Long) {
    val seconds: Double get() = (endMs - startMs) / 1000.0
}

/**
 * The parts of one plan as one trial: [summary] as one driver would have written it, its
 * latency from every part's histogram log added interval by interval ([log], a standard
 * HdrHistogram log); [together] is when every part was in its timed phase, [spread] from
 * the first part's start to the last one's end.
 */
data class MergedTrial(val plan: Plan, val parts: Int, val summary: Summary, val log: String, val together: Span, val spread: Span)

/** Where `protobench merge` wrote a trial. */
data class MergeResult(val summaryFile: Path, val logFile: Path, val trial: MergedTrial)

/** Every reason the given outputs are not the parts of one trial; nothing was written. */
class InvalidMerge(val problems: List<String>) : RuntimeException(problems.joinToString("\n", prefix = "cannot merge:\n") { "  - $it" })

/**
 * `protobench merge`: the outputs of the N parts of one plan (a Job's pods) into one trial.
 * Counts, failure reasons, connections and driver CPU add up; latency percentiles come from
 * the parts' histogram logs merged, never from their percentiles; the timed phase's length is
 * the plan's, since the parts ran it side by side.
 */
object PartsMerge {
    private val json = jacksonObjectMapper().writerWithDefaultPrettyPrinter()

    /** Reads [inputs], merges them and writes the summary to [out] and the log beside it (`.hlog`); [force] replaces earlier ones. */
    fun run(out: Path, inputs: List<Path>, force: Boolean): MergeResult {
        val logFile = out.resolveSibling(out.fileName.toString().removeSuffix(".json") + ".hlog")
        val taken = listOf(out, logFile).filter { !force && Files.exists(it) }
        if (taken.isNotEmpty()) throw InvalidMerge(taken.map { "$it exists: remove it, or give --force to replace it" })
        val trial = merge(read(inputs), logFile.fileName.toString())
        Files.createDirectories(out.toAbsolutePath().parent)
        Files.writeString(logFile, trial.log)
        Files.writeString(out, json.writeValueAsString(trial.summary) + "\n")
        return MergeResult(out, logFile, trial)
    }

    /** Every part output in [files], in order; a file that cannot be read or holds none is a problem. */
    fun read(files: List<Path>): List<PartInput> {
        if (files.isEmpty()) {
            throw InvalidMerge(
                listOf("no inputs: give the outputs of a plan's parts (a Job's `kubectl logs`, or `load-driver run --part` outputs)"),
            )
        }
        val problems = mutableListOf<String>()
        val inputs = files.flatMap { file ->
            try {
                val outputs = PartOutput.parse(String(Files.readAllBytes(file), Charsets.UTF_8))
                if (outputs.isEmpty()) {
                    problems += "$file holds no part's output (no '=== protobench part i/n: … ===' lines): " +
                        "is it a driver pod's log?"
                }
                outputs.map { PartInput(file.toString(), it) }
            } catch (e: java.nio.file.NoSuchFileException) {
                problems += "cannot read $file: there is no such file"
                emptyList()
            } catch (e: java.io.IOException) {
                problems += "cannot read $file: ${e.message ?: e.javaClass.simpleName}"
                emptyList()
            } catch (e: IllegalArgumentException) {
                problems += "$file: ${e.message}"
                emptyList()
            }
        }
        if (problems.isNotEmpty()) throw InvalidMerge(problems)
        return inputs
    }

    /** [inputs] as one trial whose log is to be called [logName], or [InvalidMerge] with every reason they are not one trial's parts. */
    fun merge(inputs: List<PartInput>, logName: String): MergedTrial {
        val problems = incomplete(inputs) + notOneSplit(inputs)
        if (problems.isNotEmpty()) throw InvalidMerge(problems)
        val logs = inputs.associateWith { readLog(it) }
        val invalid = notOnePlan(inputs) + logs.mapNotNull { (input, log) -> log.problem?.let { "${name(input)}: $it" } }
        if (invalid.isNotEmpty()) throw InvalidMerge(invalid)
        val spans = logs.mapValues { (_, log) -> log.span }
        val together = Span(spans.values.maxOf { it.startMs }, spans.values.minOf { it.endMs })
        if (together.endMs <= together.startMs) throw InvalidMerge(listOf(apart(spans)))
        val intervals = logs.values.flatMap { it.intervals }.sortedBy { it.startTimeStamp }
        val first = inputs.first().output
        return MergedTrial(
            plan = first.plan!!,
            parts = first.part.count,
            summary = summary(inputs.map { it.output.summary!! }, intervals, logName),
            log = render(intervals, first.part.count),
            together = together,
            spread = Span(spans.values.minOf { it.startMs }, spans.values.maxOf { it.endMs }),
        )
    }

    private fun name(input: PartInput) = "part ${input.output.part.label} (${input.source})"

    /** Parts whose output was cut short: a pod that died, a log that was cut. */
    private fun incomplete(inputs: List<PartInput>): List<String> = inputs.flatMap { input ->
        val output = input.output
        listOfNotNull(
            if (output.plan == null) "${name(input)} has no plan: its output was cut short" else null,
            if (output.summary == null) "${name(input)} has no summary: its output was cut short (did the driver finish?)" else null,
            if (output.summary != null && output.histogramLog == null) {
                "${name(input)} has a summary but no histogram log " +
                    "to merge its latency from"
            } else {
                null
            },
        )
    }

    /** Every part of one split, each once: a part missing or given twice would not be the plan's load. */
    private fun notOneSplit(inputs: List<PartInput>): List<String> {
        val counts = inputs.map { it.output.part.count }.distinct()
        if (counts.size > 1) return listOf("the parts were split differently: ${inputs.joinToString { name(it) }}")
        val byIndex = inputs.groupBy { it.output.part.index }
        val twice = byIndex.filterValues { it.size > 1 }.values.map { same ->
            "part ${same.first().output.part.label} is given twice: ${same.joinToString { it.source }}"
        }
        val missing = (0 until counts.single()).filter { it !in byIndex }
        return twice + listOfNotNull(
            missing.takeIf { it.isNotEmpty() }?.let { absent ->
                "part${if (absent.size > 1) "s" else ""} ${absent.joinToString { "$it/${counts.single()}" }} missing: " +
                    "merge every part, or the load merged is not the plan's"
            },
        )
    }

    private fun notOnePlan(inputs: List<PartInput>): List<String> {
        val first = inputs.first()
        return inputs.filter { it.output.plan != first.output.plan }.map { "${name(it)} ran another plan than ${name(first)}" }
    }

    /** The two parts furthest apart: the one that ended first and the one that started last. */
    private fun apart(spans: Map<PartInput, Span>): String {
        val ended = spans.minBy { it.value.endMs }
        val started = spans.maxBy { it.value.startMs }
        return "the parts did not run at the same time: ${name(ended.key)} timed ${Instant.ofEpochMilli(ended.value.startMs)} " +
            "to ${Instant.ofEpochMilli(ended.value.endMs)}, " +
            "${name(started.key)} from ${Instant.ofEpochMilli(started.value.startMs)}: " +
            "a part run apart does not add its load to the others'"
    }

    /** A part's histogram log read back: its intervals and the time they cover, or why it is not its summary's. */
    private class PartLog(val intervals: List<Histogram>, val problem: String?) {
        val span get() = Span(intervals.minOf { it.startTimeStamp }, intervals.maxOf { it.endTimeStamp })
    }

    private fun readLog(input: PartInput): PartLog {
        val intervals = try {
            HistogramLogReader(ByteArrayInputStream(input.output.histogramLog!!.toByteArray(Charsets.US_ASCII))).use { reader ->
                generateSequence { reader.nextIntervalHistogram() }
                    .map { it as? Histogram ?: error("an interval is not a histogram of whole microseconds") }
                    .toList()
            }
        } catch (e: Exception) {
            return PartLog(emptyList(), "its histogram log cannot be read (${e.javaClass.simpleName}: ${e.message})")
        }
        val logged = intervals.sumOf { it.totalCount }
        val summarised = input.output.summary!!.latency?.count ?: 0
        return PartLog(
            intervals,
            when {
                intervals.isEmpty() -> "its histogram log holds no interval"

                logged != summarised ->
                    "its histogram log holds $logged latencies and its summary $summarised: the log is not the summary's"

                else -> null
            },
        )
    }

    private fun summary(parts: List<Summary>, intervals: List<Histogram>, logName: String): Summary {
        val total = Tally.histogram().apply { intervals.forEach(::add) }
        return Summary(
            warmUp = parts.map { it.warmUp }.reduce(::added),
            timed = parts.map { it.timed }.reduce(::added),
            timedMs = parts.maxOf { it.timedMs },
            latency = Latency.of(total),
            // Latency by a call's place on its connection is per driver: percentiles cannot be added.
            byPlace = emptyMap(),
            connectionsOpened = parts.sumOf { it.connectionsOpened },
            failures = parts.flatMap { it.failures.entries }.groupingBy { it.key }.fold(0L) { sum, entry -> sum + entry.value },
            histogramLog = logName,
            maxLateMs = parts.maxOf { it.maxLateMs },
            lateArrivals = parts.sumOf { it.lateArrivals },
            // The send delay's percentiles are per driver too (only its maximum and late count add up).
            sendDelay = null,
            cpuMs = parts.map { it.cpuMs }.takeIf { cpu -> cpu.all { it != null } }?.sumOf { it!! },
            contextSwitches = totalOf(parts) { it.contextSwitches },
            voluntaryContextSwitches = totalOf(parts) { it.voluntaryContextSwitches },
            nonvoluntaryContextSwitches = totalOf(parts) { it.nonvoluntaryContextSwitches },
            failureSamples = parts.flatMap { it.failureSamples.toList() }.distinctBy { it.first }.toMap(),
        )
    }

    /** The sum over the parts of a count every part has; null when one lacks it (a part of an older driver). */
    private fun totalOf(parts: List<Summary>, count: (Summary) -> Long?): Long? =
        parts.map(count).takeIf { counts -> counts.all { it != null } }?.sumOf { it!! }

    private fun added(a: Counts, b: Counts) = Counts(a.correct + b.correct, a.wrong + b.wrong, a.dropped + b.dropped)

    /** The intervals of every part as one standard log, in time order; timestamps stay seconds since the epoch. */
    private fun render(intervals: List<Histogram>, parts: Int): String {
        val bytes = ByteArrayOutputStream()
        PrintStream(bytes, false, Charsets.US_ASCII).use { out ->
            HistogramLogWriter(out).apply {
                outputComment("[the timed phases of $parts parts of one plan, merged by protobench merge]")
                outputLogFormatVersion()
                outputStartTime(intervals.minOf { it.startTimeStamp })
                outputLegend()
                intervals.forEach(::outputIntervalHistogram)
            }
        }
        return bytes.toString(Charsets.US_ASCII)
    }
}
