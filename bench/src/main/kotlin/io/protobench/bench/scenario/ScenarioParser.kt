package io.protobench.bench.scenario

import com.fasterxml.jackson.core.JacksonException
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.members.MemberRules
import io.protobench.contract.message.ItemCount
import io.protobench.contract.payload.PayloadSize
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/** A scenario file exactly as written; every field optional so that validation can name what is missing. */
data class ScenarioFile(
    val name: String? = null,
    val description: String? = null,
    val seedPhase: String? = null,
    val sizes: List<String>? = null,
    val complexities: List<String>? = null,
    /** Member creation (seed 003's write path) instead of reads. */
    val members: MembersFile? = null,
    /** A user's own message (`protobench message`'s three inputs) in batches of `counts` items, instead of sizes and levels. */
    val message: MessageFile? = null,
    val protocols: List<String>? = null,
    val load: LoadFile? = null,
    /** Built-in scenarios whose conditions this one measures together (instead of sizes/complexities/load). */
    val include: List<String>? = null,
    /** cost | capacity */
    val mode: String? = null,
    val duration: String? = null,
    val soak: SoakFile? = null,
    val forks: Int? = null,
    val maxForks: Int? = null,
    /** "5%" or 0.05 */
    val margin: String? = null,
    /** "50%" or 0.5 */
    val utilisation: String? = null,
    val nullHop: Boolean? = null,
    /** Adds the A/A control (kept under its first name). */
    val noiseControl: Boolean? = null,
    val budget: String? = null,
    /** every-fork | first-fork */
    val probes: String? = null,
    /** Fewest requests in a fixed-rate trial (it runs longer at a low rate). */
    val minRequests: Int? = null,
    /** gateway | direct */
    val topology: String? = null,
    /** Named configurations of the server pair, each measured in every fork. */
    val variants: List<VariantFile>? = null,
    /** every-pair | baseline: which variants are compared on each protocol. */
    val compareVariants: String? = null,
    /** Cost mode: a fixed rate per target name instead of the calibrated one, e.g. {1kb: 1500}. */
    val costRates: Map<String, Int>? = null,
    /** Trials of every arm per fork (the fork keeps their median). */
    val rounds: Int? = null,
    /** Fewer forks for the conditions of these targets, e.g. {1mb: 4}: their comparisons are decided sooner. */
    val forksByTarget: Map<String, Int>? = null,
    /** Rounds for the conditions of these targets instead of [rounds], e.g. {1mb: 2}. */
    val roundsByTarget: Map<String, Int>? = null,
    /** Seed 003's own tools beside the load driver: requests per run by virtual users, e.g. {10: 100, 100: 10000}. */
    val seedTools: Map<String, Int>? = null,
    /** Further sets of the gateway's hop clients, each measured as arms of its own on the protocols it names. */
    val hopClients: List<HopClientFile>? = null,
)

/** One variant as written: `protobench.*` properties per server, JVM options, heap and JDK. */
data class VariantFile(
    val name: String? = null,
    val gateway: Map<String, String>? = null,
    val dataServer: Map<String, String>? = null,
    val jvm: List<String>? = null,
    /** "512m", "2g": -Xms and -Xmx of both servers. */
    val heap: String? = null,
    /** A feature release ("25") or the absolute path of a JDK. */
    val jdk: String? = null,
    /** A network profile for this variant's hop: lan, region, … or rtt=…,bandwidth=…,loss=…. */
    val network: String? = null,
    /** h2 | postgresql: where a member-creation scenario stores members. */
    val database: String? = null,
    /** Protocol labels: the arms this variant's settings act on. */
    val affects: List<String>? = null,
)

/** `members:` as written: profile image sizes (one condition each) and members per request. */
data class MembersFile(val images: List<String>? = null, val batch: Int? = null)

/**
 * `message:` as written: the .proto, the message type, a JSON sample of one item, the folders the
 * .proto's imports are relative to, and the batch sizes (one condition each).
 */
data class MessageFile(
    val proto: String? = null,
    val type: String? = null,
    val sample: String? = null,
    val protoPath: List<String>? = null,
    val counts: List<Int>? = null,
)

data class SoakFile(
    val window: String? = null,
    val min: String? = null,
    val max: String? = null,
    val tolerance: String? = null,
    val vus: Int? = null,
)

data class LoadFile(
    /** closed | open */
    val model: String? = null,
    val vus: List<Int>? = null,
    val rates: List<Int>? = null,
    val maxVus: Int? = null,
)

/**
 * One thing wrong with a scenario: where, what was given, what is accepted. [problem]
 * says what is wrong when "field = value" does not (an unknown field, a null, a heap
 * estimate); it then leads the message.
 */
data class Violation(val source: String, val field: String, val value: String?, val accepted: String, val problem: String? = null) {
    override fun toString() = "$source: ${problem ?: "$kind '$field'${value?.let { " = '$it'" } ?: " is missing"}"}: accepted $accepted"

    /** A command-line flag (`--forks`) is named as one; a scenario's own entry is a field. */
    private val kind get() = if (field.startsWith("-")) "flag" else "field"
}

class InvalidScenario(val violations: List<Violation>) :
    RuntimeException(
        violations.joinToString("\n", prefix = "invalid scenario:\n") {
            "  - $it"
        },
    )

/** Reads scenario YAML into a validated [Scenario], reporting every violation at once. */
object ScenarioParser {
    const val MAX_VUS = 5000
    const val MAX_RATE = 1_000_000

    /** The field a scenario without exactly one kind of workload is refused on. */
    const val WORKLOAD_FIELDS = "sizes|complexities|members|message"

    /** Items per answer when a message scenario gives no counts: one, and a page of a hundred. */
    val DEFAULT_COUNTS = listOf(1, 100)

    /** A protobuf full name: dot-separated identifiers. */
    private val MESSAGE_TYPE = Regex("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*")

    const val MAX_FORKS = 50
    const val DEFAULT_FORKS = 5
    const val MAX_MIN_REQUESTS = 100_000
    const val MAX_SOAK_VUS = 500
    const val MAX_ROUNDS = 9

    /** Most requests of one run of a seed tool (seed 003 ran 10,000). */
    const val MAX_TOOL_REQUESTS = 1_000_000
    const val ROUNDS_ACCEPTED = "a whole number of trials per arm and fork from 1 to $MAX_ROUNDS"
    const val RATE_ACCEPTED = "a whole number of requests per second from 1 to $MAX_RATE"
    const val POSTGRESQL_BEHIND_LINK = "no network with PostgreSQL (the data-server behind a link sits in a namespace of its own, " +
        "where the database on this machine's loopback cannot be reached); database: h2, or no network"

    /** The profile image of `members:` when `images` is not given. */
    const val DEFAULT_IMAGE = "1kb"
    private val MAX_DURATION: Duration = Duration.ofMinutes(10)
    private val MAX_BUDGET: Duration = Duration.ofHours(24)

    // A key written twice is a mistake to report, not a value to overwrite silently.
    private val yaml: ObjectMapper = ObjectMapper(YAMLFactory()).enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)

    /**
     * [text] as a scenario, checked against servers with [serverHeapBytes] of heap. Every
     * violation is reported at once: the structural ones found binding the YAML tree, and
     * the semantic ones of [validate] on what could be bound.
     */
    fun parse(text: String, source: String, serverHeapBytes: Long = ServerHeap.DEFAULT_BYTES): Scenario {
        val read = ScenarioTree.read(tree(text, source), source)
        val checked = check(read.file, source, ScenarioCatalog::builtIn, serverHeapBytes)
        val violations = read.violations + checked.violations.mapNotNull(read::reconcile)
        if (violations.isNotEmpty()) throw InvalidScenario(violations)
        return checked.scenario!!
    }

    /** The YAML mapping of [text]; a syntax error, an empty document or one that is not a mapping is the one violation to report. */
    private fun tree(text: String, source: String): JsonNode {
        val root = try {
            yaml.readTree(text)
        } catch (e: JacksonException) {
            val line = e.location?.lineNr?.takeIf { it > 0 }?.let { " (line $it)" } ?: ""
            throw InvalidScenario(
                listOf(
                    Violation(
                        source,
                        "(document)",
                        null,
                        "valid YAML$line: ${e.originalMessage}",
                        problem = "the file is not valid YAML",
                    ),
                ),
            )
        }
        val accepted = "a YAML mapping of scenario fields (name: …, sizes: …)"
        if (root == null || root.isMissingNode || root.isNull) {
            throw InvalidScenario(listOf(Violation(source, "(document)", null, accepted, problem = "the scenario is empty")))
        }
        if (!root.isObject) throw InvalidScenario(listOf(Violation(source, "(document)", ScenarioTree.shown(root), accepted)))
        return root
    }

    /** [file] as a scenario, or [InvalidScenario] with every violation; command-line overrides come through here too. */
    fun validate(
        file: ScenarioFile,
        source: String,
        includes: (String) -> Scenario? = ScenarioCatalog::builtIn,
        serverHeapBytes: Long = ServerHeap.DEFAULT_BYTES,
    ): Scenario {
        val checked = check(file, source, includes, serverHeapBytes)
        if (checked.violations.isNotEmpty()) throw InvalidScenario(checked.violations)
        return checked.scenario!!
    }

    /** A scenario, when [violations] is empty. */
    private class Checked(val scenario: Scenario?, val violations: List<Violation>)

    private fun check(file: ScenarioFile, source: String, includes: (String) -> Scenario?, serverHeapBytes: Long): Checked {
        val violations = mutableListOf<Violation>()
        fun violation(field: String, value: Any?, accepted: String) {
            violations += Violation(source, field, value?.toString(), accepted)
        }

        val name = file.name?.takeIf { it.matches(Regex("[A-Za-z0-9_.-]{1,64}")) }
        if (name == null) violation("name", file.name, "1-64 letters, digits, '-', '_' or '.'")

        val beforeParts = violations.size
        val parts = if (file.include != null) included(file, includes, ::violation) else parts(file, ::violation)
        // The heap estimate means something only for valid sizes and loads; the variant with the least heap must fit too.
        if (violations.size == beforeParts) {
            val (heapBytes, variant) = VariantChecks.smallestHeap(file.variants, serverHeapBytes)
            ServerHeap.check(parts, heapBytes, source, variant)?.let { violations += it }
        }
        val protocols = protocols(file.protocols, ::violation)
        val mode = (file.mode ?: Mode.COST.id).let { Mode.parse(it) }
        if (mode == null) violation("mode", file.mode, Mode.accepted)

        val duration = file.duration?.let(DurationText::parseOrNull)
        if (duration == null || duration.isZero || duration > MAX_DURATION) {
            violation("duration", file.duration, DurationText.ACCEPTED + ", above zero and at most 10m")
        }
        val soak = soak(file.soak, ::violation)
        val forks = file.forks ?: DEFAULT_FORKS
        if (forks !in 2..MAX_FORKS) violation("forks", forks, "a whole number from 2 to $MAX_FORKS (an interval needs at least 2 forks)")
        val maxForks = file.maxForks ?: minOf(MAX_FORKS, forks * 3)
        if (maxForks !in forks..MAX_FORKS) violation("maxForks", maxForks, "a whole number from forks ($forks) to $MAX_FORKS")
        val margin = share("margin", file.margin ?: "5%", MARGIN_RANGE, ::violation)
        val utilisation = share("utilisation", file.utilisation ?: "50%", 0.05..0.9, ::violation)
        val budget = file.budget?.let { text ->
            DurationText.parseOrNull(text).also {
                if (it == null || it.isZero || it > MAX_BUDGET) violation("budget", text, DurationText.ACCEPTED + ", at most 24h")
            }
        }
        val probes = Probes.parse(file.probes ?: Probes.EVERY_FORK.id)
        if (probes == null) violation("probes", file.probes, Probes.accepted)
        val minRequests = file.minRequests ?: Scenario.DEFAULT_MIN_REQUESTS
        if (minRequests !in 0..MAX_MIN_REQUESTS) {
            violation(
                "minRequests",
                minRequests,
                "a whole number from 0 (no minimum) to $MAX_MIN_REQUESTS",
            )
        }
        val variants = VariantChecks.check(file.variants, source, protocols)
        violations += variants.violations
        val compareVariants = VariantPairs.parse(file.compareVariants ?: VariantPairs.EVERY_PAIR.id)
        if (compareVariants == null) {
            violation("compareVariants", file.compareVariants, VariantPairs.accepted + " (each variant against the first)")
        }
        val topology = topology(file, parts, variants.variants, ::violation)
        val hopClients = HopClientChecks.check(file.hopClients, source, protocols)
        violations += hopClients.violations
        checkHopClientsFit(file, parts, topology, ::violation)
        checkDatabases(file, parts, ::violation)
        val costRates = costRates(file, parts, mode, ::violation)
        val rounds = file.rounds ?: 1
        if (rounds !in 1..MAX_ROUNDS) violation("rounds", rounds, ROUNDS_ACCEPTED)
        val forksByTarget = byTarget(
            "forksByTarget",
            file.forksByTarget,
            parts,
            2..forks,
            "a whole number of forks from 2 to forks ($forks)",
            ::violation,
        )
        val roundsByTarget = byTarget("roundsByTarget", file.roundsByTarget, parts, 1..MAX_ROUNDS, ROUNDS_ACCEPTED, ::violation)
        val seedTools = seedTools(file, parts, topology, protocols, ::violation)
        val message = file.message?.let { messageSpec(it, source, ::violation) }

        if (violations.isNotEmpty()) return Checked(null, violations)
        return Checked(
            Scenario(
                name = name!!,
                description = file.description ?: "",
                parts = parts,
                protocols = protocols!!,
                mode = mode!!,
                duration = duration!!,
                soak = soak!!,
                forks = forks,
                maxForks = maxForks,
                margin = margin!!,
                utilisation = utilisation!!,
                nullHop = file.nullHop ?: (topology == Topology.GATEWAY),
                aaControl = file.noiseControl ?: false,
                budget = budget,
                probes = probes!!,
                variants = variants.variants,
                compareVariants = compareVariants!!,
                minRequests = minRequests,
                topology = topology!!,
                costRates = costRates,
                rounds = rounds,
                forksByTarget = forksByTarget,
                roundsByTarget = roundsByTarget,
                seedTools = seedTools,
                included = file.include.orEmpty(),
                message = message,
                hopClients = hopClients.clients,
            ),
            violations,
        )
    }

    /** Hop clients are the gateway's, for the reads it forwards: not with topology direct, nor for member creation. */
    private fun checkHopClientsFit(file: ScenarioFile, parts: List<Part>?, topology: Topology?, violation: (String, Any?, String) -> Unit) {
        if (file.hopClients.isNullOrEmpty()) return
        if (topology == Topology.DIRECT) violation("topology", "direct", "gateway with hopClients (they are the gateway's clients)")
        if (parts.orEmpty().any { part -> part.workload.targets.any { it is Target.Members } }) {
            violation("hopClients", "with members", "sizes, complexities or a message (member creation uses the gateway's own clients)")
        }
    }

    /**
     * Rates that replace the calibration, by target name: only in cost mode, only for
     * conditions under a closed load (an open load gives its rates itself), each name one
     * of the workload's targets.
     */
    private fun costRates(
        file: ScenarioFile,
        parts: List<Part>?,
        mode: Mode?,
        violation: (String, Any?, String) -> Unit,
    ): Map<String, Int> {
        val rates = file.costRates ?: return emptyMap()
        if (mode != Mode.COST) violation("costRates", rates, "costRates only in cost mode (capacity mode saturates the machine)")
        if (parts != null && parts.any { it.load is Load.Open }) {
            violation(
                "costRates",
                rates,
                "costRates only with a closed load; an open load's rates are the trials' rates",
            )
        }
        return byTarget("costRates", rates, parts, 1..MAX_RATE, RATE_ACCEPTED, violation)
    }

    /**
     * A number per target name ([costRates][Scenario.costRates], [forksByTarget][Scenario.forksByTarget],
     * [roundsByTarget][Scenario.roundsByTarget]): each name one of the workload's targets, each number in [range].
     */
    private fun byTarget(
        field: String,
        given: Map<String, Int>?,
        parts: List<Part>?,
        range: IntRange,
        accepted: String,
        violation: (String, Any?, String) -> Unit,
    ): Map<String, Int> {
        val numbers = given ?: return emptyMap()
        val names = parts.orEmpty().flatMap { part -> part.workload.targets.map { it.name } }.distinct()
        numbers.forEach { (name, n) ->
            if (parts != null && name !in names) {
                violation(
                    "$field.$name",
                    n,
                    "the names of the workload's targets: ${names.joinToString()}",
                )
            }
            if (n !in range) violation("$field.$name", n, accepted)
        }
        return numbers
    }

    /**
     * Seed 003's tools: only where they can do what the seed did — create members one per
     * request, on the data-server itself (topology direct), under a closed load whose
     * virtual users are the keys — and only with a protocol one of them drives.
     */
    private fun seedTools(
        file: ScenarioFile,
        parts: List<Part>?,
        topology: Topology?,
        protocols: List<Protocol>?,
        violation: (String, Any?, String) -> Unit,
    ): Map<Int, Int> {
        val tools = file.seedTools ?: return emptyMap()
        if (topology != Topology.DIRECT) {
            violation(
                "seedTools",
                tools,
                "seedTools only with topology direct (hey and ghz call the data-server itself, as in seed 003)",
            )
        }
        if (parts != null && parts.any { part -> part.workload !is Workload.Members }) {
            violation("seedTools", tools, "seedTools only with members: (the seed's tools create members)")
        }
        if (protocols != null && SeedTool.entries.none { it.protocol in protocols }) {
            violation(
                "seedTools",
                tools,
                "a protocol one of the tools drives: ${SeedTool.entries.joinToString { "${it.protocol.label} (${it.label})" }}",
            )
        }
        val vus = parts.orEmpty().mapNotNull { (it.load as? Load.Closed)?.vus }.flatten().distinct()
        return tools.mapNotNull { (key, requests) ->
            val users = key.toIntOrNull()
            if (parts != null && (users == null || users !in vus)) {
                violation(
                    "seedTools.$key",
                    requests,
                    "the virtual users of the closed load: ${vus.joinToString().ifEmpty { "none" }}",
                )
            }
            if (requests !in 1..MAX_TOOL_REQUESTS) violation("seedTools.$key", requests, "requests per run from 1 to $MAX_TOOL_REQUESTS")
            users?.let { it to requests }
        }.toMap()
    }

    /**
     * A database matters only where members are created: a variant of a reading scenario
     * naming one is a mistake. PostgreSQL listens on this machine's loopback, which a
     * data-server behind a network profile (in a namespace of its own) cannot reach.
     */
    private fun checkDatabases(file: ScenarioFile, parts: List<Part>?, violation: (String, Any?, String) -> Unit) {
        file.variants.orEmpty().forEachIndexed { i, variant ->
            if (variant.network != null && variant.database?.let(Database::parse) == Database.POSTGRESQL) {
                violation("variants[$i].network", variant.network, POSTGRESQL_BEHIND_LINK)
            }
        }
        val writes = parts.orEmpty().any { part -> part.workload is Workload.Members }
        if (writes || parts == null) return
        file.variants.orEmpty().forEachIndexed { i, variant ->
            if (variant.database != null) {
                violation(
                    "variants[$i].database",
                    variant.database,
                    "no database for a scenario that reads (only with members:)",
                )
            }
        }
    }

    /**
     * The topology, and what `direct` cannot be combined with: the null hop is the gateway's
     * (there is none), levels have no exact answer size the driver could check without the
     * gateway's catalogue, and gateway settings have no gateway to go to. A network profile
     * puts the load driver itself on the near side of the link.
     */
    private fun topology(
        file: ScenarioFile,
        parts: List<Part>?,
        variants: List<Variant>,
        violation: (String, Any?, String) -> Unit,
    ): Topology? {
        val topology = Topology.parse(file.topology ?: Topology.GATEWAY.id)
        if (topology == null) violation("topology", file.topology, Topology.accepted)
        if (topology != Topology.DIRECT) return topology
        if (file.nullHop == true) {
            violation(
                "nullHop",
                true,
                "false with topology direct (the null hop is the gateway's; direct has no gateway)",
            )
        }
        if (parts.orEmpty().any { part -> part.workload.targets.any { it is Target.Level || it is Target.Items } }) {
            violation(
                "topology",
                "direct",
                "gateway for complexity levels and your own message (direct measures payload sizes and member creation)",
            )
        }
        if (parts.orEmpty().any { part -> part.workload.targets.any { it is Target.Members && it.batch > 1 } }) {
            violation(
                "members.batch",
                "direct",
                "1 with topology direct (the data-server's HTTP side creates one member per request; batches need the gateway)",
            )
        }
        if (variants.any { it.gateway.isNotEmpty() }) {
            violation("topology", "direct", "gateway for variants with gateway settings (direct has no gateway)")
        }
        return topology
    }

    /** The parts of the built-in scenarios named by `include`, each with its own seed phase. */
    private fun included(file: ScenarioFile, includes: (String) -> Scenario?, violation: (String, Any?, String) -> Unit): List<Part> {
        if (file.sizes != null || file.complexities != null || file.members != null || file.message != null || file.load != null) {
            violation("include", file.include, "either include or sizes/complexities/members/message/load, not both")
        }
        if (file.include!!.isEmpty()) violation("include", "[]", "at least one built-in scenario")
        return file.include.flatMapIndexed { i, included ->
            val scenario = runCatching { includes(included) }.getOrNull()
            if (scenario == null) {
                violation("include[$i]", included, "a built-in scenario: " + ScenarioCatalog.builtInNames.joinToString())
                emptyList()
            } else {
                scenario.parts
            }
        }
    }

    /** The scenario's own workloads under its load: payload sizes and object levels may stand side by side (project A's 1mb and simple). */
    private fun parts(file: ScenarioFile, violation: (String, Any?, String) -> Unit): List<Part> {
        val workloads = workloads(file, violation)
        val load = load(file.load, violation) ?: return emptyList()
        return workloads.map { Part(file.seedPhase, it, load) }
    }

    private fun soak(file: SoakFile?, violation: (String, Any?, String) -> Unit): Soak? {
        fun duration(field: String, text: String?, default: String): Duration? = (text ?: default).let(DurationText::parseOrNull).also {
            if (it == null || it.isZero || it > MAX_DURATION) {
                violation(
                    "soak.$field",
                    text,
                    DurationText.ACCEPTED + ", above zero and at most 10m",
                )
            }
        }
        val window = duration("window", file?.window, "3s")
        val min = duration("min", file?.min, "15s")
        val max = duration("max", file?.max, "120s")
        val tolerance = share("soak.tolerance", file?.tolerance ?: "5%", 0.005..0.5, violation)
        if (min != null && max != null && min > max) violation("soak.max", file?.max, "at least soak.min (${file?.min ?: "15s"})")
        val vus = file?.vus ?: Soak.DEFAULT_VUS
        if (vus !in 1..MAX_SOAK_VUS) violation("soak.vus", vus, "a whole number from 1 to $MAX_SOAK_VUS")
        return if (window != null && min != null && max != null && tolerance != null && vus in 1..MAX_SOAK_VUS) {
            Soak(window, min, max, tolerance, vus)
        } else {
            null
        }
    }

    /** A share written as "5%" or 0.05, inside [range]. */
    private fun share(
        field: String,
        text: String,
        range: ClosedFloatingPointRange<Double>,
        violation: (String, Any?, String) -> Unit,
    ): Double? {
        val value = parseShare(text, range)
        if (value == null) violation(field, text, shareAccepted(range))
        return value
    }

    /** A share written as "5%" or "0.05", when it lies in [range]; null otherwise. */
    fun parseShare(text: String, range: ClosedFloatingPointRange<Double>): Double? {
        val trimmed = text.trim()
        val value = if (trimmed.endsWith("%")) trimmed.dropLast(1).trim().toDoubleOrNull()?.div(100) else trimmed.toDoubleOrNull()
        return value?.takeIf { !it.isNaN() && it in range }
    }

    /** What [parseShare] accepts for [range], in words. */
    fun shareAccepted(range: ClosedFloatingPointRange<Double>) =
        "a share such as 5% or 0.05, from ${percent(range.start)} to ${percent(range.endInclusive)}"

    /** The margins of equivalence a scenario (and `protobench compare --margin`) accepts. */
    val MARGIN_RANGE = 0.001..0.5

    private fun percent(share: Double) = "${(share * 1000).toLong() / 10.0}".removeSuffix(".0") + "%"

    /** What the requests ask for: payload sizes, object levels or both (sizes first), or member creation alone, or a message alone. */
    private fun workloads(file: ScenarioFile, violation: (String, Any?, String) -> Unit): List<Workload> {
        val reads = file.sizes != null || file.complexities != null
        if (listOf(reads, file.members != null, file.message != null).count { it } != 1) {
            violation(
                WORKLOAD_FIELDS,
                null,
                "'sizes' (payload sizes), 'complexities' (object levels) or both, or else 'members' (member creation) alone, " +
                    "or 'message' (your own message) alone",
            )
            return emptyList()
        }
        file.members?.let { return listOf(members(it, violation)) }
        file.message?.let { return listOf(items(it, violation)) }
        val payload = file.sizes?.let { sizes ->
            if (sizes.isEmpty()) violation("sizes", "[]", "at least one size")
            Workload.Payload(sizeList("sizes", sizes, violation))
        }
        val complexity = file.complexities?.let { levels ->
            if (levels.isEmpty()) violation("complexities", "[]", "at least one level")
            levels.forEachIndexed { i, l -> checkParse("complexities[$i]", l, violation) { ComplexityLevel.parse(l) } }
            val normalised = levels.map { it.trim().lowercase() }
            checkDistinct("complexities", levels, normalised, "level", violation)
            Workload.Complexity(normalised)
        }
        return listOfNotNull(payload, complexity)
    }

    /** Payload sizes as measured (1kb and 1024 are one size), each parsed and at most once. */
    private fun sizeList(field: String, sizes: List<String>, violation: (String, Any?, String) -> Unit): List<String> {
        sizes.forEachIndexed { i, s -> checkParse("$field[$i]", s, violation) { PayloadSize.parse(s) } }
        val normalised = sizes.map { runCatching { PayloadSize.parse(it).toString() }.getOrDefault(it) }
        checkDistinct(field, sizes, normalised, "size", violation)
        return normalised
    }

    /**
     * Member creation: image sizes the write path accepts, a batch of 1 to 1,000 whose
     * images fit one `CreateMembers` stream (the gateway's and data-server's own limits).
     */
    private fun members(file: MembersFile, violation: (String, Any?, String) -> Unit): Workload {
        val images = file.images ?: listOf(DEFAULT_IMAGE)
        if (images.isEmpty()) violation("members.images", "[]", "at least one profile image size")
        val normalised = sizeList("members.images", images, violation)
        // Bytes of each image that parsed (sizeList reported the others).
        val bytes = normalised.map { runCatching { PayloadSize.parse(it).bytes.toLong() }.getOrNull() }
        bytes.forEachIndexed { i, b ->
            if (b != null && b > MemberRules.MAX_IMAGE_BYTES) violation("members.images[$i]", images[i], MemberRules.IMAGE_ACCEPTED)
        }
        val batch = file.batch ?: 1
        if (batch !in 1..MemberRules.MAX_BATCH_MEMBERS) {
            violation("members.batch", batch, "members per request, from 1 to ${MemberRules.MAX_BATCH_MEMBERS}")
        } else {
            val largest = bytes.filterNotNull().maxOrNull() ?: 0L
            if (largest * batch > MemberRules.MAX_BATCH_IMAGE_BYTES) {
                violation(
                    "members.batch",
                    batch,
                    "at most ${MemberRules.MAX_BATCH_IMAGE_BYTES} image bytes (32 MiB) per request: " +
                        "${MemberRules.MAX_BATCH_IMAGE_BYTES / largest} members of the largest image",
                )
            }
        }
        return Workload.Members(normalised, batch)
    }

    /** A user's message in batches: counts from 1 to [ItemCount.MAX], each once ([DEFAULT_COUNTS] when none are given). */
    private fun items(file: MessageFile, violation: (String, Any?, String) -> Unit): Workload {
        val counts = file.counts ?: DEFAULT_COUNTS
        if (counts.isEmpty()) violation("message.counts", "[]", "at least one count")
        counts.forEachIndexed { i, c -> if (c !in 1..ItemCount.MAX) violation("message.counts[$i]", c, ItemCount.ACCEPTED) }
        checkDistinct("message.counts", counts, counts, "count", violation)
        return Workload.Items(counts)
    }

    /**
     * The message's inputs as files that exist: paths relative to the scenario file's folder (the
     * working folder for a built-in scenario or the command line), kept absolute. Whether the .proto
     * compiles and the sample reads as the type is `protobench message`'s check, made before a run starts.
     */
    private fun messageSpec(file: MessageFile, source: String, violation: (String, Any?, String) -> Unit): MessageSpec? {
        val base = runCatching { Path.of(source) }.getOrNull()?.takeIf { Files.isRegularFile(it) }?.toAbsolutePath()?.parent
            ?: Path.of("").toAbsolutePath()

        fun existing(field: String, text: String?, accepted: String, isRight: (Path) -> Boolean): String? {
            val path = text?.takeIf { it.isNotBlank() }?.let { runCatching { base.resolve(it).normalize() }.getOrNull() }
            if (path == null || !isRight(path)) {
                violation("message.$field", text, if (path == null) accepted else "$accepted (nothing usable at $path)")
                return null
            }
            return path.toString()
        }
        val proto = existing(
            "proto",
            file.proto,
            "the path of the .proto that defines the message, or of a descriptor set holding it with its imports",
            Files::isRegularFile,
        )
        val sample = existing("sample", file.sample, "the path of one message as JSON (protobuf's JSON mapping)", Files::isRegularFile)
        val includes = file.protoPath.orEmpty().mapIndexed { i, dir ->
            existing("protoPath[$i]", dir, "a folder the .proto's imports are relative to", Files::isDirectory)
        }
        val type = file.type?.trim()?.takeIf { it.matches(MESSAGE_TYPE) }
        if (type == null) violation("message.type", file.type, "a message type of the .proto, e.g. shop.Order")
        if (proto == null || sample == null || type == null || includes.any { it == null }) return null
        return MessageSpec(proto, type, sample, includes.filterNotNull())
    }

    /** Each entry of a list once: [written] as in the file, [normalised] as measured (1kb and 1024 are one size). */
    internal fun checkDistinct(
        field: String,
        written: List<Any>,
        normalised: List<Any>,
        what: String,
        violation: (String, Any?, String) -> Unit,
    ) {
        val repeated = written.indices.groupBy { normalised[it] }.values.filter { it.size > 1 }
        if (repeated.isEmpty()) return
        val which = repeated.joinToString("; ") { same ->
            same.map { written[it] }.distinct().joinToString(" and ") + " (${same.size} times)"
        }
        violation(field, written, "each $what at most once; repeated: $which")
    }

    private fun protocols(names: List<String>?, violation: (String, Any?, String) -> Unit): List<Protocol>? {
        if (names == null) return Protocol.entries
        if (names.isEmpty()) violation("protocols", "[]", "at least one of " + Protocol.entries.joinToString { it.label })
        val parsed = names.mapIndexedNotNull { i, n ->
            try {
                Protocol.parse(n)
            } catch (e: InvalidParameter) {
                violation("protocols[$i]", n, e.accepted)
                null
            }
        }
        if (parsed.toSet().size != parsed.size) violation("protocols", names, "each protocol at most once")
        return parsed
    }

    private fun load(file: LoadFile?, violation: (String, Any?, String) -> Unit): Load? {
        val model = file?.model ?: "closed"
        return when (model) {
            "closed" -> {
                val vus = file?.vus ?: listOf(10)
                if (vus.isEmpty() || vus.any { it !in 1..MAX_VUS }) {
                    violation(
                        "load.vus",
                        vus,
                        "a list of virtual-user counts from 1 to $MAX_VUS",
                    )
                }
                checkDistinct("load.vus", vus, vus, "virtual-user count", violation)
                if (file?.rates != null) violation("load.rates", file.rates, "rates only with model: open")
                Load.Closed(vus)
            }

            "open" -> {
                val rates = file?.rates
                if (rates.isNullOrEmpty() || rates.any { it !in 1..MAX_RATE }) {
                    violation(
                        "load.rates",
                        rates,
                        "a list of request rates per second from 1 to $MAX_RATE",
                    )
                }
                if (rates != null) checkDistinct("load.rates", rates, rates, "rate", violation)
                val maxVus = file?.maxVus ?: 500
                if (maxVus !in 1..MAX_VUS) violation("load.maxVus", maxVus, "a number from 1 to $MAX_VUS")
                if (file?.vus != null) violation("load.vus", file.vus, "vus only with model: closed (open uses rates and maxVus)")
                Load.Open(rates ?: emptyList(), maxVus)
            }

            else -> {
                violation("load.model", model, "closed or open")
                null
            }
        }
    }

    private fun checkParse(field: String, value: String, violation: (String, Any?, String) -> Unit, parse: () -> Unit) {
        try {
            parse()
        } catch (e: InvalidParameter) {
            violation(field, value, e.accepted)
        }
    }
}

/** The scenario back in file form, so overrides go through the same validation as a file. */
fun Scenario.toFile(): ScenarioFile {
    // Its own workloads share one seed phase and one load; an include's parts have one each.
    val own = parts.takeIf { included.isEmpty() && it.map { p -> p.seedPhase to p.load }.distinct().size == 1 }
    val single = own?.first()
    return ScenarioFile(
        name = name,
        description = description,
        seedPhase = single?.seedPhase,
        sizes = own?.firstNotNullOfOrNull { it.workload as? Workload.Payload }?.sizes,
        complexities = own?.firstNotNullOfOrNull { it.workload as? Workload.Complexity }?.levels,
        members = own?.firstNotNullOfOrNull { it.workload as? Workload.Members }?.let { MembersFile(it.images, it.batch) },
        message = message?.let { m ->
            MessageFile(
                m.proto,
                m.type,
                m.sample,
                m.includes.ifEmpty {
                    null
                },
                own?.firstNotNullOfOrNull { it.workload as? Workload.Items }?.counts,
            )
        },
        protocols = protocols.map { it.label },
        load = single?.load?.let { l ->
            when (l) {
                is Load.Closed -> LoadFile(model = "closed", vus = l.vus)
                is Load.Open -> LoadFile(model = "open", rates = l.ratesPerSecond, maxVus = l.maxVus)
            }
        },
        // Several parts come only from an include; before scenarios kept its names, seed phases stood for them.
        include = if (single == null) included.ifEmpty { seedPhases } else null,
        mode = mode.id,
        duration = DurationText.millis(duration),
        soak = SoakFile(
            DurationText.millis(soak.window),
            DurationText.millis(soak.min),
            DurationText.millis(soak.max),
            soak.tolerance.toString(),
            soak.vus,
        ),
        forks = forks,
        maxForks = maxForks,
        margin = margin.toString(),
        utilisation = utilisation.toString(),
        nullHop = nullHop,
        noiseControl = aaControl,
        budget = budget?.let(DurationText::millis),
        probes = probes.id,
        minRequests = minRequests,
        topology = topology.id.takeIf { topology != Topology.GATEWAY },
        variants = variants.map { it.toFile() }.ifEmpty { null },
        compareVariants = compareVariants.id.takeIf { compareVariants != VariantPairs.EVERY_PAIR },
        costRates = costRates.ifEmpty { null },
        rounds = rounds.takeIf { it != 1 },
        forksByTarget = forksByTarget.ifEmpty { null },
        roundsByTarget = roundsByTarget.ifEmpty { null },
        seedTools = seedTools.mapKeys { (vus, _) -> vus.toString() }.ifEmpty { null },
        hopClients = hopClients.map { it.toFile() }.ifEmpty { null },
    )
}

private fun Variant.toFile() = VariantFile(
    name = name,
    gateway = gateway.ifEmpty { null },
    dataServer = dataServer.ifEmpty { null },
    jvm = jvmOptions.ifEmpty { null },
    heap = heap,
    jdk = jdk,
    network = network,
    database = database,
    affects = affects.ifEmpty { null },
)
