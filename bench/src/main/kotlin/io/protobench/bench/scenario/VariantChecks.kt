package io.protobench.bench.scenario

import io.protobench.bench.scenario.InvalidProfile
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.server.SettableSettings
import io.protobench.contract.server.SettableSettings.Server
import java.nio.file.InvalidPathException
import java.nio.file.Path

/**
 * Checks the `variants:` of a scenario file and builds them. Each variant starts a server
 * pair in every fork, so a mistake in one would surface only when its servers start, or
 * never (a setting the servers ignore measures the same thing twice): every property is
 * checked against the servers' catalogue ([SettableSettings]), and the heap, JVM options
 * and JDK here, before any server starts. Whether a JDK path holds a JDK is checked when
 * the run starts, on the machine that runs it.
 */
internal object VariantChecks {
    /** Each variant multiplies the run's time: beyond this a run is better split. */
    const val MAX_VARIANTS = 16

    const val NAME_ACCEPTED = "1-32 letters, digits, '-', '_' or '.'"
    const val HEAP_ACCEPTED =
        "a heap size for -Xms and -Xmx of both servers: a number of up to 5 digits with m or g, at least 64m (e.g. 512m, 2g)"
    const val JVM_ACCEPTED = "a list of JVM options for both servers, each starting with '-', e.g. [-XX:+UseZGC]"
    const val JDK_ACCEPTED = "an installed feature release from 17 (e.g. 17, 25) or the absolute path of a JDK"
    val NETWORK_ACCEPTED =
        "a network profile: ${NetworkProfile.BUILT_IN.joinToString(", ") { it.name }}, or rtt=40ms,bandwidth=100mbit,loss=0.1%"
    const val VALUE_ACCEPTED = "one value per property: text, a number or true/false"
    const val AFFECTS_ACCEPTED = "a list of the scenario's protocols the variant's settings act on, e.g. [HTTP/Binary, HTTP/JSON]"

    private const val MIN_HEAP_BYTES = 64L shl 20
    private val HEAP = Regex("\\d{1,5}[mMgG]")
    private val FEATURE_RELEASE = Regex("[1-9]\\d{1,2}")
    private const val OLDEST_JDK = 17

    /** Options that size the heap: the variant's heap sets them, so that the heap check knows the size. */
    private val HEAP_OPTIONS = listOf("-Xms", "-Xmx", "-XX:MaxHeapSize=", "-XX:InitialHeapSize=", "-XX:MinHeapSize=")
    private const val OTHER_OPTIONS = "JVM options other than the heap's (-Xms, -Xmx) and -jar"

    fun propertiesAccepted(server: Server): String {
        val example = SettableSettings.of(server).first().let { "${it.name}: ${it.choices.firstOrNull() ?: it.ranges.first().last}" }
        return "a mapping of ${server.label} properties, one full name per key, e.g. {$example}"
    }

    /** The variants of a scenario, valid when [violations] is empty. */
    class Checked(val variants: List<Variant>, val violations: List<Violation>)

    /** [protocols]: the scenario's, which a variant's `affects` must name; null when they are wrong themselves. */
    fun check(files: List<VariantFile>?, source: String, protocols: List<Protocol>?): Checked {
        if (files == null) return Checked(emptyList(), emptyList())
        val check = Check(source, protocols)
        check.count(files)
        val variants = files.mapIndexedNotNull { i, file -> check.variant("variants[$i]", file) }
        check.distinctNames(files)
        check.distinctSettings(variants)
        return Checked(variants, check.violations)
    }

    /**
     * The smallest heap any variant's servers get, for the in-flight estimate: a variant's
     * own heap, else the run's [runHeapBytes]; with the variant whose heap it is (null: the run's).
     */
    fun smallestHeap(files: List<VariantFile>?, runHeapBytes: Long): Pair<Long, String?> = files.orEmpty()
        .map { file -> file.heap?.let(::heapBytes)?.let { it to file.name } ?: (runHeapBytes to null) }
        .minByOrNull { it.first } ?: (runHeapBytes to null)

    private fun heapBytes(text: String): Long? = text.takeIf {
        HEAP.matches(it)
    }?.let(ServerHeap::parseSize)?.takeIf { it >= MIN_HEAP_BYTES }

    /** Collects the violations of one scenario's variants. */
    private class Check(private val source: String, private val protocols: List<Protocol>?) {
        val violations = mutableListOf<Violation>()

        fun violation(field: String, value: Any?, accepted: String, problem: String? = null) {
            violations += Violation(source, field, value?.toString(), accepted, problem)
        }

        fun count(files: List<VariantFile>) {
            if (files.isEmpty()) violation("variants", "[]", "at least one variant; leave variants out to run with the run's own settings")
            if (files.size > MAX_VARIANTS) {
                violation(
                    "variants",
                    "${files.size} variants",
                    "at most $MAX_VARIANTS variants: each one starts a server pair in every fork",
                )
            }
        }

        /** [file] as a variant, or null after reporting what is wrong with it. */
        fun variant(path: String, file: VariantFile): Variant? {
            val before = violations.size
            if (file.name?.matches(Variant.NAME) != true) violation("$path.name", file.name, NAME_ACCEPTED)
            val gateway = properties("$path.${Server.GATEWAY.key}", Server.GATEWAY, file.gateway.orEmpty())
            val dataServer = properties("$path.${Server.DATA_SERVER.key}", Server.DATA_SERVER, file.dataServer.orEmpty())
            file.jvm?.forEachIndexed { i, option -> jvmOption("$path.jvm[$i]", option) }
            file.heap?.let { if (heapBytes(it) == null) violation("$path.heap", it, HEAP_ACCEPTED) }
            file.jdk?.let { if (!isJdk(it)) violation("$path.jdk", it, JDK_ACCEPTED) }
            val network = file.network?.let { network("$path.network", it) }
            val database = file.database?.let { text ->
                Database.parse(text)?.id.also { if (it == null) violation("$path.database", text, Database.accepted) }
            }
            val affects = file.affects?.let { affects("$path.affects", it) }
            if (violations.size > before) return null
            return Variant(file.name!!, gateway, dataServer, file.jvm.orEmpty(), file.heap, file.jdk, network, database, affects.orEmpty())
        }

        /** The protocol labels [names] gives, each one of the scenario's, after reporting each that is not. */
        private fun affects(path: String, names: List<String>): List<String> {
            val known = protocols ?: return emptyList()
            val accepted = "one of the scenario's protocols: ${known.joinToString { it.label }}"
            if (names.isEmpty()) violation(path, "[]", "$AFFECTS_ACCEPTED; leave affects out for every protocol")
            val labels = names.mapIndexedNotNull { i, name ->
                val protocol = try {
                    Protocol.parse(name)
                } catch (e: InvalidParameter) {
                    null
                }
                if (protocol == null || protocol !in known) violation("$path[$i]", name, accepted)
                protocol?.label
            }
            if (labels.toSet().size != labels.size) violation(path, names, "each protocol at most once")
            return labels
        }

        /** [properties] with each value in the catalogue's spelling, after reporting each one it refuses. */
        private fun properties(path: String, server: Server, properties: Map<String, String>): Map<String, String> {
            properties.forEach { (name, value) ->
                SettableSettings.refusal(server, name, value)?.let {
                    violation("$path.$name", value, it.accepted, it.problem?.let { p -> "$path: $p" })
                }
            }
            return properties.mapValues { (name, value) -> SettableSettings.setting(server, name)?.normalised(value) ?: value }
        }

        /** The profile's name as the lab spells it (a built-in one in lower case), or null after reporting the mistake. */
        private fun network(field: String, text: String): String? = try {
            NetworkProfile.parse(text).name
        } catch (e: InvalidProfile) {
            // An unknown name needs only the list; a written-out profile, which of its fields is wrong.
            violation(field, text, NETWORK_ACCEPTED, if ('=' in text) "$field: ${e.message}" else null)
            null
        }

        private fun jvmOption(field: String, option: String) {
            val heapOption = HEAP_OPTIONS.firstOrNull { option.startsWith(it) }
            when {
                !option.startsWith("-") -> violation(field, option, "a JVM option starting with '-', e.g. -XX:+UseZGC")

                heapOption != null -> violation(
                    field,
                    option,
                    OTHER_OPTIONS,
                    "$field: '$option' sizes the heap; use heap (e.g. heap: 2g), which sets -Xms and -Xmx",
                )

                option == "-jar" -> violation(field, option, OTHER_OPTIONS, "$field: '-jar' would replace the server the lab starts")
            }
        }

        private fun isJdk(text: String): Boolean = if (FEATURE_RELEASE.matches(text)) text.toInt() >= OLDEST_JDK else isAbsolutePath(text)

        private fun isAbsolutePath(text: String) = try {
            Path.of(text).isAbsolute
        } catch (e: InvalidPathException) {
            false
        }

        /** Names label every trial, and may name files: one letter case aside from another is the same name. */
        fun distinctNames(files: List<VariantFile>) {
            val names = files.mapNotNull { it.name }
            ScenarioParser.checkDistinct("variants", names, names.map { it.lowercase() }, "name (letter case aside)", ::violation)
        }

        /** Two variants with the same settings would measure one configuration under two names. */
        fun distinctSettings(variants: List<Variant>) {
            variants.groupBy { it.settings }.values.filter { it.size > 1 }.forEach { same ->
                val names = same.map { it.name }
                violation(
                    "variants",
                    names,
                    "variants that differ in a property, jvm, heap, jdk, network or database",
                    "variants ${names.dropLast(1).joinToString(", ")} and ${names.last()} differ in nothing",
                )
            }
        }
    }
}
