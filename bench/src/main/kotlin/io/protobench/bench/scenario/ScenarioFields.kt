package io.protobench.bench.scenario

import io.protobench.contract.text.EditDistance

/**
 * The fields a scenario file may contain, by mapping, and what to say about a field
 * that is not one of them. The one list of field names: [ScenarioTree] binds exactly
 * these, and a test checks that they match [ScenarioFile], [MembersFile], [LoadFile] and [SoakFile].
 */
internal object ScenarioFields {
    /** Mapping path ("" for the top level) → its field names. */
    val byMapping: Map<String, List<String>> = mapOf(
        "" to listOf(
            "name", "description", "seedPhase", "sizes", "complexities", "members", "message", "protocols", "load", "include", "mode",
            "duration", "soak", "forks", "maxForks", "margin", "utilisation", "nullHop", "noiseControl", "budget", "probes", "minRequests",
            "topology", "variants", "compareVariants", "costRates", "rounds", "forksByTarget", "roundsByTarget", "seedTools",
            "hopClients",
        ),
        "members" to listOf("images", "batch"),
        "message" to listOf("proto", "type", "sample", "protoPath", "counts"),
        "load" to listOf("model", "vus", "rates", "maxVus"),
        "soak" to listOf("window", "min", "max", "tolerance", "vus"),
        // The fields of each entry of the variants list.
        "variants" to listOf("name", "gateway", "dataServer", "jvm", "heap", "jdk", "network", "database", "affects"),
        "hopClients" to listOf("name", "gateway", "protocols"),
    )

    /** A field of earlier versions: what became of it, and what to write instead. */
    private class Retired(val fate: String, val instead: String)

    private val retired = mapOf(
        "repetitions" to Retired("was renamed: use forks", "forks: a whole number from 2 to ${ScenarioParser.MAX_FORKS}"),
        "warmup" to Retired("was replaced by soak: {window, min, max}", SOAK_INSTEAD),
        "warmupRounds" to Retired("was replaced by soak: {window, min, max}", SOAK_INSTEAD),
    )

    private val allPaths: List<String> = byMapping.flatMap { (mapping, names) -> names.map { path(mapping, it) } }

    fun path(mapping: String, name: String) = if (mapping.isEmpty()) name else "$mapping.$name"

    /** The mapping whose fields apply at [path]: an entry of a list (`variants[2]`) has the list's (`variants`). */
    fun mappingAt(path: String) = path.replace(LIST_INDEX, "")

    private val LIST_INDEX = Regex("""\[\d+]""")

    /**
     * What [name] found in the mapping at [at] is, and what is accepted instead: retired,
     * misplaced, misspelt, or simply unknown. The field is named by its path, so that one in
     * a list entry says which entry (`variants[2].dataserver`).
     */
    fun unknown(at: String, name: String): Pair<String, String> {
        val mapping = mappingAt(at)
        retired[name]?.let { return "field '${path(at, name)}' ${it.fate}" to it.instead }
        val suggestion = suggestion(mapping, name)
        return "unknown field '${path(at, name)}'" + (suggestion?.let { " (did you mean $it?)" } ?: "") to accepted(mapping)
    }

    private fun accepted(mapping: String): String =
        (if (mapping.isEmpty()) "the top-level fields " else "the fields of $mapping: ") + byMapping.getValue(mapping).joinToString()

    /**
     * The known field [name] most likely meant: the same name under another mapping
     * (a top-level `vus` belongs under load), else the closest spelling, preferring
     * the mapping it was written in.
     */
    private fun suggestion(mapping: String, name: String): String? {
        allPaths.firstOrNull { leaf(it) == name }?.let { return it }
        val limit = maxOf(2, name.length / 3)
        return allPaths
            .map { it to EditDistance.between(name.lowercase(), leaf(it).lowercase()) }
            .filter { (_, distance) -> distance <= limit }
            .minWithOrNull(compareBy<Pair<String, Int>> { it.second }.thenBy { if (it.first == path(mapping, leaf(it.first))) 0 else 1 })
            ?.first
    }

    private fun leaf(path: String) = path.substringAfterLast('.')

    private const val SOAK_INSTEAD = "soak: {window: 3s, min: 15s, max: 120s}, each fork soaked until steady"
}
