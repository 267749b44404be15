package io.protobench.bench.scenario

import com.fasterxml.jackson.databind.JsonMappingException
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.core.JacksonException
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.registerKotlinModule
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.payload.PayloadSize

/** A scenario file exactly as written; every field optional so that validation can name what is missing. */
data class ScenarioFile(
    val name: String? = null,
    val description: String? = null,
    val seedPhase: String? = null,
    val sizes: List<String>? = null,
    val complexities: List<String>? = null,
    val protocols: List<String>? = null,
    val load: LoadFile? = null,
    val duration: String? = null,
    val warmup: String? = null,
    val repetitions: Int? = null,
    val noiseControl: Boolean? = null,
    val warmupRounds: Int? = null,
)

data class LoadFile(
    /** closed | open */
    val model: String? = null,
    val vus: List<Int>? = null,
    val rates: List<Int>? = null,
    val maxVus: Int? = null,
)

/** One thing wrong with a scenario: where, what was given, what is accepted. */
data class Violation(val source: String, val field: String, val value: String?, val accepted: String) {
    override fun toString() = "$source: field '$field'${value?.let { " = '$it'" } ?: " is missing"}: accepted $accepted"
}

class InvalidScenario(val violations: List<Violation>) :
    RuntimeException(violations.joinToString("\n", prefix = "invalid scenario:\n") { "  - $it" })

/** Reads scenario YAML into a validated [Scenario], reporting every violation at once. */
object ScenarioParser {
    const val MAX_VUS = 5000
    const val MAX_REPETITIONS = 50
    private val yaml: ObjectMapper = ObjectMapper(YAMLFactory()).registerKotlinModule()
        .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)

    fun parse(text: String, source: String): Scenario {
        val file = try {
            yaml.readValue(text, ScenarioFile::class.java) ?: ScenarioFile()
        } catch (e: JsonMappingException) {
            val field = e.path.joinToString(".") { it.fieldName ?: "[${it.index}]" }.ifEmpty { "(document)" }
            throw InvalidScenario(listOf(Violation(source, field, null, "a scenario in the documented format: ${e.originalMessage.lineSequence().first()}")))
        } catch (e: JacksonException) {
            throw InvalidScenario(listOf(Violation(source, "(document)", null, "valid YAML: ${e.originalMessage}")))
        }
        return validate(file, source)
    }

    fun validate(file: ScenarioFile, source: String): Scenario {
        val violations = mutableListOf<Violation>()
        fun violation(field: String, value: Any?, accepted: String) {
            violations += Violation(source, field, value?.toString(), accepted)
        }

        val name = file.name?.takeIf { it.matches(Regex("[A-Za-z0-9_.-]{1,64}")) }
        if (name == null) violation("name", file.name, "1-64 letters, digits, '-', '_' or '.'")

        val workload = workload(file, ::violation)
        val protocols = protocols(file.protocols, ::violation)
        val load = load(file.load, ::violation)

        val duration = file.duration?.let(DurationText::parseOrNull)
        if (duration == null || duration.isZero) violation("duration", file.duration, DurationText.ACCEPTED + ", above zero")
        val warmup = (file.warmup ?: "0s").let(DurationText::parseOrNull)
        if (warmup == null) violation("warmup", file.warmup, DurationText.ACCEPTED)
        val repetitions = file.repetitions ?: 3
        if (repetitions !in 1..MAX_REPETITIONS) violation("repetitions", repetitions, "a whole number from 1 to $MAX_REPETITIONS")
        val warmupRounds = file.warmupRounds ?: 3
        if (warmupRounds !in 1..20) violation("warmupRounds", warmupRounds, "a whole number from 1 to 20")

        if (violations.isNotEmpty()) throw InvalidScenario(violations)
        return Scenario(
            name = name!!,
            description = file.description ?: "",
            seedPhase = file.seedPhase,
            workload = workload!!,
            protocols = protocols!!,
            load = load!!,
            duration = duration!!,
            warmup = warmup!!,
            repetitions = repetitions,
            noiseControl = file.noiseControl ?: false,
            warmupRounds = warmupRounds,
        )
    }

    private fun workload(file: ScenarioFile, violation: (String, Any?, String) -> Unit): Workload? {
        val sizes = file.sizes
        val levels = file.complexities
        if ((sizes == null) == (levels == null)) {
            violation("sizes|complexities", null, "exactly one of 'sizes' (payload sizes) or 'complexities' (object levels)")
            return null
        }
        if (sizes != null) {
            if (sizes.isEmpty()) violation("sizes", "[]", "at least one size")
            sizes.forEachIndexed { i, s -> checkParse("sizes[$i]", s, violation) { PayloadSize.parse(s) } }
            return Workload.Payload(sizes.map { runCatching { PayloadSize.parse(it).toString() }.getOrDefault(it) })
        }
        if (levels!!.isEmpty()) violation("complexities", "[]", "at least one level")
        levels.forEachIndexed { i, l -> checkParse("complexities[$i]", l, violation) { ComplexityLevel.parse(l) } }
        return Workload.Complexity(levels.map { it.lowercase() })
    }

    private fun protocols(names: List<String>?, violation: (String, Any?, String) -> Unit): List<Protocol>? {
        if (names == null) return Protocol.entries
        if (names.isEmpty()) violation("protocols", "[]", "at least one of " + Protocol.entries.joinToString { it.label })
        val parsed = names.mapIndexedNotNull { i, n ->
            try { Protocol.parse(n) } catch (e: InvalidParameter) { violation("protocols[$i]", n, e.accepted); null }
        }
        if (parsed.toSet().size != parsed.size) violation("protocols", names, "each protocol at most once")
        return parsed
    }

    private fun load(file: LoadFile?, violation: (String, Any?, String) -> Unit): Load? {
        val model = file?.model ?: "closed"
        return when (model) {
            "closed" -> {
                val vus = file?.vus ?: listOf(10)
                if (vus.isEmpty() || vus.any { it !in 1..MAX_VUS }) violation("load.vus", vus, "a list of virtual-user counts from 1 to $MAX_VUS")
                if (file?.rates != null) violation("load.rates", file.rates, "rates only with model: open")
                Load.Closed(vus)
            }
            "open" -> {
                val rates = file?.rates
                if (rates.isNullOrEmpty() || rates.any { it !in 1..1_000_000 }) violation("load.rates", rates, "a list of request rates per second from 1 to 1000000")
                val maxVus = file?.maxVus ?: 500
                if (maxVus !in 1..MAX_VUS) violation("load.maxVus", maxVus, "a number from 1 to $MAX_VUS")
                if (file?.vus != null) violation("load.vus", file.vus, "vus only with model: closed (open uses rates and maxVus)")
                Load.Open(rates ?: emptyList(), maxVus)
            }
            else -> { violation("load.model", model, "closed or open"); null }
        }
    }

    private fun checkParse(field: String, value: String, violation: (String, Any?, String) -> Unit, parse: () -> Unit) {
        try { parse() } catch (e: InvalidParameter) { violation(field, value, e.accepted) }
    }
}

/** The scenario back in file form, so overrides go through the same validation as a file. */
fun Scenario.toFile() = ScenarioFile(
    name = name,
    description = description,
    seedPhase = seedPhase,
    sizes = (workload as? Workload.Payload)?.sizes,
    complexities = (workload as? Workload.Complexity)?.levels,
    protocols = protocols.map { it.label },
    load = when (val l = load) {
        is Load.Closed -> LoadFile(model = "closed", vus = l.vus)
        is Load.Open -> LoadFile(model = "open", rates = l.ratesPerSecond, maxVus = l.maxVus)
    },
    duration = DurationText.k6(duration),
    warmup = DurationText.k6(warmup),
    repetitions = repetitions,
    noiseControl = noiseControl,
    warmupRounds = warmupRounds,
)
