package io.protobench.bench.scenario

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.contract.server.SettableSettings.Server

/**
 * Binds a parsed YAML tree to a [ScenarioFile] field by field, so that every structural
 * problem (unknown field, wrong type, null) is collected instead of stopping at the first
 * one as data binding does. What is structurally wrong is left out of the file (a bad
 * list entry is dropped), so [ScenarioParser.validate] can still judge the rest;
 * [reconcile] then keeps its verdicts from repeating or misplacing ours.
 */
internal class ScenarioTree private constructor(private val source: String) {
    private val violations = mutableListOf<Violation>()

    /** Paths of values that were structurally wrong and left out. */
    private val broken = mutableSetOf<String>()

    /** For a list that lost entries: the original index of each entry kept. */
    private val keptIndices = mutableMapOf<String, List<Int>>()

    /** The file as far as it could be bound, and what was structurally wrong. */
    class Read(val file: ScenarioFile, val violations: List<Violation>, private val tree: ScenarioTree) {
        fun reconcile(semantic: Violation): Violation? = tree.reconcile(semantic)
    }

    private fun bind(root: JsonNode): ScenarioFile {
        val top = mapping(root, "", "a mapping of scenario fields", "(document)") ?: return ScenarioFile()
        return ScenarioFile(
            name = text(top, "name", "1-64 letters, digits, '-', '_' or '.'"),
            description = text(top, "description", "a line of text"),
            seedPhase = text(top, "seedPhase", "the seed phase this scenario reproduces, e.g. phase4"),
            sizes = texts(top, "sizes", "a list of payload sizes, e.g. [1kb, 1mb]"),
            complexities = texts(top, "complexities", "a list of complexity levels, e.g. [simple, ultra]"),
            members = child(top, "members", MEMBERS)?.let(::members),
            message = child(top, "message", MESSAGE)?.let(::message),
            protocols = texts(top, "protocols", "a list of protocols, e.g. [HTTP/JSON, gRPC/Unary]"),
            load = child(top, "load", LOAD)?.let(::load),
            include = texts(top, "include", "a list of built-in scenario names, e.g. [phase1, phase2]"),
            mode = text(top, "mode", Mode.accepted),
            duration = text(top, "duration", DurationText.ACCEPTED),
            soak = child(top, "soak", SOAK)?.let(::soak),
            forks = number(top, "forks", "a whole number from 2 to ${ScenarioParser.MAX_FORKS}"),
            maxForks = number(top, "maxForks", "a whole number from forks to ${ScenarioParser.MAX_FORKS}"),
            margin = text(top, "margin", "a share such as 5% or 0.05"),
            utilisation = text(top, "utilisation", "a share such as 50% or 0.5"),
            nullHop = flag(top, "nullHop"),
            noiseControl = flag(top, "noiseControl"),
            budget = text(top, "budget", DurationText.ACCEPTED),
            probes = text(top, "probes", Probes.accepted),
            minRequests = number(top, "minRequests", "a whole number from 0 (no minimum) to ${ScenarioParser.MAX_MIN_REQUESTS}"),
            topology = text(top, "topology", Topology.accepted),
            variants = list(top, "variants", VARIANTS, ::variant),
            compareVariants = text(top, "compareVariants", VariantPairs.accepted),
            costRates = costRates(top),
            rounds = number(top, "rounds", ScenarioParser.ROUNDS_ACCEPTED),
            forksByTarget = wholeNumbers(top, "forksByTarget", FORKS_BY_TARGET, "a whole number of forks"),
            roundsByTarget = wholeNumbers(top, "roundsByTarget", ROUNDS_BY_TARGET, ScenarioParser.ROUNDS_ACCEPTED),
            seedTools = wholeNumbers(top, "seedTools", SEED_TOOLS),
            hopClients = list(top, "hopClients", HopClientChecks.ACCEPTED, ::hopClient),
        )
    }

    private fun hopClient(field: Field) = mapping(field.value, field.path, HopClientChecks.ACCEPTED)?.let { client ->
        HopClientFile(
            name = text(client, "name", HopClient.NAME_ACCEPTED),
            gateway = properties(client, Server.GATEWAY),
            protocols = texts(client, "protocols", "a list of the scenario's protocols, e.g. [HTTP/Binary]"),
        )
    }

    /** `costRates: {1kb: 1500}`: a rate per target name; names are judged by validation, each value must be a whole number. */
    private fun costRates(mapping: Mapping): Map<String, Int>? =
        wholeNumbers(mapping, "costRates", COST_RATES, ScenarioParser.RATE_ACCEPTED)

    /** A mapping of names to whole numbers (`costRates`, `seedTools`); the names are judged by validation. */
    private fun wholeNumbers(mapping: Mapping, name: String, accepted: String, valueAccepted: String = accepted): Map<String, Int>? {
        val field = child(mapping, name, accepted) ?: return null
        if (!field.value.isObject) return wrong(field.path, field.value, accepted)
        return field.value.fields().asSequence().mapNotNull { (key, node) ->
            val entry = Field("${field.path}.$key", node)
            val number: Int? = if (node.isNull) empty(entry.path, valueAccepted) else wholeNumber(entry, valueAccepted)
            number?.let { key to it }
        }.toMap(LinkedHashMap())
    }

    private fun load(field: Field) = mapping(field.value, "load", LOAD)?.let { load ->
        LoadFile(
            model = text(load, "model", "closed or open"),
            vus = numbers(load, "vus", "a list of virtual-user counts from 1 to ${ScenarioParser.MAX_VUS}"),
            rates = numbers(load, "rates", "a list of request rates per second, e.g. [500, 1000]"),
            maxVus = number(load, "maxVus", "a whole number from 1 to ${ScenarioParser.MAX_VUS}"),
        )
    }

    private fun members(field: Field) = mapping(field.value, "members", MEMBERS)?.let { members ->
        MembersFile(
            images = texts(members, "images", "a list of profile image sizes, e.g. [1kb, 100kb]"),
            batch = number(members, "batch", "members per request, from 1 to 1000"),
        )
    }

    private fun message(field: Field) = mapping(field.value, "message", MESSAGE)?.let { message ->
        MessageFile(
            proto = text(message, "proto", "the path of the .proto that defines the message"),
            type = text(message, "type", "the message type, e.g. shop.Order"),
            sample = text(message, "sample", "the path of one message as JSON (protobuf's JSON mapping)"),
            protoPath = texts(message, "protoPath", "a list of folders the .proto's imports are relative to"),
            counts = numbers(message, "counts", "a list of items per answer, e.g. [1, 10, 100]"),
        )
    }

    private fun soak(field: Field) = mapping(field.value, "soak", SOAK)?.let { soak ->
        SoakFile(
            window = text(soak, "window", DurationText.ACCEPTED),
            min = text(soak, "min", DurationText.ACCEPTED),
            max = text(soak, "max", DurationText.ACCEPTED),
            tolerance = text(soak, "tolerance", "a share such as 5% or 0.05"),
            vus = number(soak, "vus", "a whole number of virtual users"),
        )
    }

    private fun variant(field: Field) = mapping(field.value, field.path, VARIANT)?.let { variant ->
        VariantFile(
            name = text(variant, "name", VariantChecks.NAME_ACCEPTED),
            gateway = properties(variant, Server.GATEWAY),
            dataServer = properties(variant, Server.DATA_SERVER),
            jvm = texts(variant, "jvm", VariantChecks.JVM_ACCEPTED),
            heap = text(variant, "heap", VariantChecks.HEAP_ACCEPTED),
            jdk = text(variant, "jdk", VariantChecks.JDK_ACCEPTED),
            network = text(variant, "network", VariantChecks.NETWORK_ACCEPTED),
            database = text(variant, "database", Database.accepted),
            affects = texts(variant, "affects", VariantChecks.AFFECTS_ACCEPTED),
        )
    }

    /**
     * The `protobench.*` properties a variant gives [server], each value as text (`channels: 4`
     * is "4"); validation judges names and values. A value that is null or not a scalar is
     * reported and left out.
     */
    private fun properties(mapping: Mapping, server: Server): Map<String, String>? {
        val accepted = VariantChecks.propertiesAccepted(server)
        val field = child(mapping, server.key, accepted) ?: return null
        if (!field.value.isObject) return wrong(field.path, field.value, accepted)
        return field.value.fields().asSequence().mapNotNull { (name, node) ->
            val property = Field("${field.path}.$name", node)
            val value: String? = if (node.isNull) empty(property.path, VALUE) else scalarText(property, VALUE)
            value?.let { name to it }
        }.toMap(LinkedHashMap())
    }

    /** A value found at [path]. */
    private class Field(val path: String, val value: JsonNode)

    /** The fields of a mapping, after reporting every field it may not contain. */
    private inner class Mapping(val path: String, val node: JsonNode) {
        fun field(name: String): Field? = node.get(name)?.let { Field(ScenarioFields.path(path, name), it) }
    }

    private fun mapping(node: JsonNode, path: String, accepted: String, shownPath: String = path): Mapping? {
        if (!node.isObject) return wrong(shownPath, node, accepted)
        val known = ScenarioFields.byMapping.getValue(ScenarioFields.mappingAt(path))
        node.fieldNames().asSequence().filter { it !in known }.forEach { name ->
            val fieldPath = ScenarioFields.path(path, name)
            broken += fieldPath
            val (problem, accepted) = ScenarioFields.unknown(path, name)
            violations += Violation(source, fieldPath, shown(node.get(name)), accepted, problem)
        }
        return Mapping(path, node)
    }

    /** A present, non-null field; null with a violation when it is written but empty. */
    private fun child(mapping: Mapping, name: String, accepted: String): Field? {
        val field = mapping.field(name) ?: return null
        return if (field.value.isNull) empty(field.path, "$accepted; leave the field out for its default") else field
    }

    /** Any scalar is text: `duration: 5` is judged as "5" by validation, which names the unit it lacks. */
    private fun text(mapping: Mapping, name: String, accepted: String): String? =
        child(mapping, name, accepted)?.let { scalarText(it, accepted) }

    private fun number(mapping: Mapping, name: String, accepted: String): Int? = child(mapping, name, accepted)?.let {
        wholeNumber(it, accepted)
    }

    private fun flag(mapping: Mapping, name: String): Boolean? = child(mapping, name, "true or false")?.let {
        if (it.value.isBoolean) it.value.booleanValue() else wrong(it.path, it.value, "true or false")
    }

    private fun texts(mapping: Mapping, name: String, accepted: String): List<String>? = list(mapping, name, accepted) {
        scalarText(it, "one value per entry, not null or nested: $accepted")
    }

    private fun numbers(mapping: Mapping, name: String, accepted: String): List<Int>? = list(mapping, name, accepted) {
        wholeNumber(it, accepted)
    }

    /** A list whose entries are bound one by one; a bad entry is reported and dropped, its index remembered. */
    private fun <T : Any> list(mapping: Mapping, name: String, accepted: String, entry: (Field) -> T?): List<T>? {
        val field = child(mapping, name, accepted) ?: return null
        if (!field.value.isArray) return wrong(field.path, field.value, accepted)
        val bound = field.value.mapIndexed { i, node ->
            val entryPath = "${field.path}[$i]"
            i to if (node.isNull) empty(entryPath, accepted) else entry(Field(entryPath, node))
        }
        val kept = bound.filter { it.second != null }
        if (kept.size < bound.size) keptIndices[field.path] = kept.map { it.first }
        // A list of nothing but bad entries was not written empty: do not let validation say so.
        if (kept.isEmpty() && bound.isNotEmpty()) broken += field.path
        return kept.map { it.second!! }
    }

    private fun scalarText(field: Field, accepted: String): String? =
        if (field.value.isValueNode) field.value.asText() else wrong(field.path, field.value, accepted)

    /** An integer that fits an Int, written bare or quoted. */
    private fun wholeNumber(field: Field, accepted: String): Int? {
        val v = field.value
        return when {
            v.isIntegralNumber && v.canConvertToInt() -> v.intValue()
            v.isTextual && v.textValue().trim().matches(Regex("-?\\d{1,9}")) -> v.textValue().trim().toInt()
            else -> wrong(field.path, v, accepted)
        }
    }

    private fun <T> wrong(path: String, node: JsonNode, accepted: String): T? {
        broken += path
        violations += Violation(source, path, shown(node), accepted)
        return null
    }

    private fun <T> empty(path: String, accepted: String): T? {
        broken += path
        violations += Violation(source, path, null, accepted, "field '$path' is empty (null)")
        return null
    }

    /**
     * Keeps validation's verdict on the bound file consistent with ours: an index into a
     * list that lost entries is mapped back to the file's own index, and a verdict on a
     * value we already reported (a required field left out because its type was wrong)
     * is dropped.
     */
    private fun reconcile(semantic: Violation): Violation? {
        val field = remapIndices(semantic.field)
        val covered = field.split('|').any { part -> broken.any { part == it || part.startsWith("$it.") || part.startsWith("$it[") } }
        return if (covered) null else semantic.copy(field = field)
    }

    /** Every index in [field], outer lists first (`variants[1].jvm[0]`), as the file's own. */
    private fun remapIndices(field: String): String {
        val remapped = StringBuilder()
        var end = 0
        for (match in Regex("""\[(\d+)]""").findAll(field)) {
            remapped.append(field, end, match.range.first)
            val index = match.groupValues[1].toInt()
            val original = keptIndices[remapped.toString()]?.getOrNull(index) ?: index
            remapped.append('[').append(original).append(']')
            end = match.range.last + 1
        }
        return remapped.append(field, end, field.length).toString()
    }

    companion object {
        private const val SHOWN_CHARS = 60
        private const val LOAD = "a mapping such as {model: closed, vus: [10]} or {model: open, rates: [500], maxVus: 200}"
        private const val MEMBERS = "a mapping such as {images: [1kb, 100kb], batch: 1}"
        private const val MESSAGE = "a mapping such as {proto: shop.proto, type: shop.Order, sample: order.json, counts: [1, 100]}"
        private const val SOAK = "a mapping such as {window: 3s, min: 15s, max: 120s, tolerance: 5%, vus: 2}"
        private const val VARIANT = "a mapping such as {name: copy, dataServer: {protobench.data.grpc-payload-mode: copy}}"
        private const val VARIANTS = "a list of variants, each $VARIANT"
        private const val VALUE = VariantChecks.VALUE_ACCEPTED
        private const val SEED_TOOLS = "a mapping of virtual users to requests per run of the seed's tools, e.g. {10: 100, 100: 10000}"
        private const val FORKS_BY_TARGET = "a mapping of the workload's sizes, levels or images to fewer forks than forks, e.g. {1mb: 4}"
        private const val ROUNDS_BY_TARGET = "a mapping of the workload's sizes, levels or images to rounds, e.g. {1mb: 2}"
        private const val COST_RATES =
            "a mapping of the workload's sizes, levels or images to requests per second, e.g. {1kb: 1500, 1mb: 150}"

        fun read(root: JsonNode, source: String): Read {
            val tree = ScenarioTree(source)
            val file = tree.bind(root)
            return Read(file, tree.violations.toList(), tree)
        }

        /** A value as the user wrote it, shortened: scalars as text, lists and mappings as JSON. */
        fun shown(node: JsonNode): String {
            val text = if (node.isValueNode) node.asText() else node.toString()
            return if (text.length <= SHOWN_CHARS) text else text.take(SHOWN_CHARS) + "…"
        }
    }
}
