package io.protobench.contract.metrics

import io.protobench.contract.Json
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Assumptions
import org.junit.jupiter.api.Tag
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.MethodSource
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The GC counter in real JVMs: a child JVM per JDK and collector ([GcLoad]) allocates for
 * [LOAD_MS] and reports the counter's totals beside what each collector bean counted and each
 * notification it heard. The notification strings each case expects are those seen on JDK
 * 17.0.15 (Debian) and 25.0.3 (Temurin); a JDK that sends others fails here first.
 */
@Tag("slow")
class GcCollectorsTest {
    /** A collector on a JDK, and what its beans send: bean name to `gcAction`, pauses and cycles apart. */
    data class Case(
        val feature: Int,
        val option: String,
        val collector: String,
        val pauses: Map<String, String>,
        val cycles: Map<String, String> = emptyMap(),
    ) {
        override fun toString() = "JDK $feature $collector"
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    fun `pauses are counted once each, apart from concurrent cycles and their CPU`(case: Case) {
        val result = run(case)
        val t = result.totals

        assertThat(result.collector).isEqualTo(case.collector)
        // Every notification heard is one the case names, with the action it names.
        val expected = (case.pauses + case.cycles).map { (bean, action) -> "$bean: $action" }
        assertThat(result.notifications.keys).isSubsetOf(expected)
        // Each pause and each cycle once: as many as the notifications heard and as the beans of each kind counted.
        assertThat(t.pauses).isPositive()
            .isEqualTo(case.pauses.entries.sumOf { (bean, action) -> result.notifications["$bean: $action"] ?: 0 })
            .isEqualTo(case.pauses.keys.sumOf { result.beans.getValue(it).count })
        assertThat(t.cycles).isEqualTo(case.cycles.keys.sumOf { result.beans.getValue(it).count })
        // Each pause's length is whole milliseconds of uptime, the beans' sum exact: they differ by under 1 ms a pause.
        assertThat(t.pauseTimeMs).isBetween(0, result.uptimeMs)
        assertThat(t.pauseTimeMs.toDouble())
            .isCloseTo(case.pauses.keys.sumOf { result.beans.getValue(it).timeMs }.toDouble(), within(t.pauses + 1.0))
        assertThat(t.heapAfterGcBytes).isNotNull().isPositive().isLessThanOrEqualTo(result.maxHeapBytes)
        assertThat(t.concurrentCpuNs).isNotNull().isNotNegative().isLessThanOrEqualTo(result.uptimeMs * 1_000_000 * result.processors)

        val summedCount = result.beans.values.sumOf { it.count }
        val summedTimeMs = result.beans.values.sumOf { it.timeMs }
        println(
            "$case (${result.javaVersion}): ${t.pauses} pauses, ${t.pauseTimeMs} ms; ${t.cycles} cycles; concurrent CPU " +
                "${t.concurrentCpuNs!! / 1_000_000} ms; heap after GC ${t.heapAfterGcBytes!! shr 20} MB; " +
                "the beans summed: $summedCount, $summedTimeMs ms; " +
                "heard ${result.notifications}",
        )
        if (case.cycles.isEmpty()) {
            // G1 and Parallel: the beans count pauses only, so their sum is the pause count.
            assertThat(summedCount).isEqualTo(t.pauses)
        } else {
            // ZGC: the beans' sum counts a cycle beside its pauses and adds the cycles' wall time; the counter does neither.
            assertThat(t.cycles).isPositive()
            assertThat(summedCount).isEqualTo(t.pauses + t.cycles).isGreaterThan(t.pauses)
            assertThat(summedTimeMs).isGreaterThan(t.pauseTimeMs)
            assertThat(t.concurrentCpuNs).isPositive()
        }
        // Parallel collects in pauses alone: no thread of it is a concurrent one.
        if (case.collector == "Parallel") assertThat(t.concurrentCpuNs).isZero()
    }

    private fun run(case: Case): GcLoadResult {
        val java = jdk(case.feature).resolve("bin/java").toString()
        val command = listOf(
            java,
            "-Xmx64m",
            "-XX:+${case.option}",
            "-cp",
            System.getProperty("java.class.path"),
            GcLoad::class.java.name,
            LOAD_MS.toString(),
        )
        val child = ProcessBuilder(command).redirectErrorStream(true).start()
        val output = child.inputStream.bufferedReader().readText()
        val exited = child.waitFor(60, TimeUnit.SECONDS)
        if (!exited) child.destroyForcibly()
        assertThat(exited && child.exitValue() == 0)
            .`as`("JDK %d -XX:+%s exited with 0; output:\n%s", case.feature, case.option, output).isTrue()
        val json = output.lines().last { it.startsWith("{") }
        return Json.newMapper().readValue(json, GcLoadResult::class.java)
    }

    companion object {
        const val LOAD_MS = 2_000L

        private val G1_17 = mapOf("G1 Young Generation" to "end of minor GC", "G1 Old Generation" to "end of major GC")
        private val PARALLEL = mapOf("PS Scavenge" to "end of minor GC", "PS MarkSweep" to "end of major GC")

        @JvmStatic
        fun cases() = listOf(
            Case(17, "UseG1GC", "G1", G1_17),
            Case(17, "UseParallelGC", "Parallel", PARALLEL),
            Case(17, "UseZGC", "ZGC", mapOf("ZGC Pauses" to "end of GC pause"), mapOf("ZGC Cycles" to "end of GC cycle")),
            Case(25, "UseG1GC", "G1", G1_17 + ("G1 Concurrent GC" to "end of concurrent GC pause")),
            Case(25, "UseParallelGC", "Parallel", PARALLEL),
            Case(
                25,
                "UseZGC",
                "ZGC generational",
                mapOf("ZGC Minor Pauses" to "end of GC pause", "ZGC Major Pauses" to "end of GC pause"),
                mapOf("ZGC Minor Cycles" to "end of GC cycle", "ZGC Major Cycles" to "end of GC cycle"),
            ),
        )

        /** Where JDKs are installed: each folder with a `release` file naming its JAVA_VERSION. */
        private val JDK_ROOT = Path.of("/usr/lib/jvm")

        /** The JDK of [feature] under [JDK_ROOT]; the test is skipped, saying why, when there is none. */
        fun jdk(feature: Int): Path {
            val homes = if (Files.isDirectory(JDK_ROOT)) Files.list(JDK_ROOT).use { it.toList() } else emptyList()
            val home = homes.sorted().firstOrNull { home ->
                val release = home.resolve("release")
                Files.isRegularFile(release) && Files.isExecutable(home.resolve("bin/java")) &&
                    Files.readAllLines(release).any { it.startsWith("JAVA_VERSION=\"$feature.") || it == "JAVA_VERSION=\"$feature\"" }
            }
            if (home == null) {
                val reason = "no JDK $feature under $JDK_ROOT"
                println("SKIPPED GcCollectorsTest: $reason")
                Assumptions.abort<Nothing>(reason)
            }
            return home!!
        }
    }
}
