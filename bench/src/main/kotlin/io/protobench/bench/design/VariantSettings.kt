package io.protobench.bench.design

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.scenario.ServerHeap
import io.protobench.bench.scenario.Variant
import io.protobench.bench.text.Texts
import io.protobench.contract.metrics.JvmFacts
import io.protobench.contract.text.PropertyNames

/**
 * A variant's settings as the servers report them. A setting that did not take effect
 * (a property bound under another name, a default that won) would otherwise measure the
 * default under the variant's name, so every asked-for property is read back and
 * compared before the variant's pair is measured.
 */
object VariantSettings {
    /**
     * The settings JSON a server reports (`{"http": {"poolSize": 500}}`) as property names
     * under [prefix] (`protobench.gateway.http.pool-size` → "500").
     */
    fun flatten(prefix: String, json: JsonNode?): Map<String, String> {
        if (json == null || json.isNull || json.isMissingNode) return emptyMap()
        if (!json.isObject) return mapOf(prefix to json.asText())
        return json.fields().asSequence().flatMap { (name, value) -> flatten("$prefix.${PropertyNames.kebab(name)}", value).entries }
            .associate { it.key to it.value }
    }

    /** The servers whose JVM facts are read back, as keys name them. */
    val SERVERS = listOf("api-server", "data-server")

    /** A JVM's facts as read-back keys: `jvm.<server>.java-version`, `.collectors` (comma-separated), `.max-heap-mb`. */
    fun jvm(server: String, facts: JvmFacts?): Map<String, String> = if (facts == null) {
        emptyMap()
    } else {
        mapOf(
            "jvm.$server.java-version" to facts.javaVersion,
            "jvm.$server.collectors" to facts.collectors.joinToString(", "),
            "jvm.$server.max-heap-mb" to (facts.maxHeapBytes / MIB).toString(),
        )
    }

    /** What [variant] asked for that [effective] does not show, one line each; empty when every setting took effect. */
    fun mismatches(variant: Variant, effective: Map<String, String>): List<String> =
        (variant.gateway + variant.dataServer).mapNotNull { (name, asked) ->
            val running = effective[name]
            when {
                running == null -> Texts.EN("rejected.property.unreported", name, asked)
                !same(asked, running) -> Texts.EN("rejected.property", name, asked, running)
                else -> null
            }
        } + SERVERS.flatMap { jvmMismatches(variant, it, effective) }

    /** The keys of [effective] worth recording for [variant]: what it set, and every JVM fact. */
    fun recorded(variant: Variant, effective: Map<String, String>): Map<String, String> = effective.filterKeys {
        it in variant.gateway ||
            it in variant.dataServer ||
            it.startsWith("jvm.")
    }

    /**
     * The JVM of [server] against the variant's heap, collector and JDK release. The heap
     * a collector reports may be a little under -Xmx (Parallel leaves out one survivor
     * space), so up to 15% less is accepted.
     */
    private fun jvmMismatches(variant: Variant, server: String, effective: Map<String, String>): List<String> {
        fun fact(name: String) = effective["jvm.$server.$name"]
        val problems = mutableListOf<String>()
        variant.heap?.let { heap ->
            val askedMb = ServerHeap.parseSize(heap)!! / MIB
            val runningMb = fact("max-heap-mb")?.toLongOrNull()
            if (runningMb == null || runningMb > askedMb * 1.01 || runningMb < askedMb * 0.85) {
                problems += if (runningMb == null) {
                    Texts.EN("rejected.heap.none", server, heap)
                } else {
                    Texts.EN("rejected.heap", server, heap, runningMb)
                }
            }
        }
        collector(variant.jvmOptions)?.let { (option, marker) ->
            val running = fact("collectors")
            if (running == null || marker !in running) {
                problems += if (running == null) {
                    Texts.EN("rejected.collector.unknown", server, option)
                } else {
                    Texts.EN("rejected.collector", server, option, running)
                }
            }
        }
        variant.jdk?.toIntOrNull()?.let { feature ->
            val running = fact("java-version")
            if (running == null || running.substringBefore('.').substringBefore('-').toIntOrNull() != feature) {
                problems += if (running == null) {
                    Texts.EN("rejected.jdk.unknown", server, feature)
                } else {
                    Texts.EN("rejected.jdk", server, feature, running)
                }
            }
        }
        return problems
    }

    /** The last collector option among [options] and a word its MXBean names contain. */
    private fun collector(options: List<String>): Pair<String, String>? = options.lastOrNull { it in COLLECTORS }?.let {
        it to
            COLLECTORS.getValue(it)
    }

    private val COLLECTORS = mapOf(
        "-XX:+UseG1GC" to "G1",
        "-XX:+UseParallelGC" to "PS ",
        "-XX:+UseZGC" to "ZGC",
        "-XX:+UseSerialGC" to "Copy",
        "-XX:+UseShenandoahGC" to "Shenandoah",
    )

    private const val MIB = 1024 * 1024

    /** Values as servers write them: enum names or ids, any case, '-' or '_' ("h2c" = "H2C", "per_request" = "per-request"). */
    private fun same(asked: String, running: String) =
        asked.trim().replace('_', '-').equals(running.trim().replace('_', '-'), ignoreCase = true)
}
