package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.annotation.JsonValue
import com.fasterxml.jackson.core.JsonParser
import com.fasterxml.jackson.databind.DeserializationContext
import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.annotation.JsonDeserialize
import com.fasterxml.jackson.databind.deser.std.StdDeserializer
import com.fasterxml.jackson.databind.node.ObjectNode
import com.fasterxml.jackson.module.kotlin.jacksonTypeRef
import io.protobench.bench.message.MessageRecord
import io.protobench.bench.scenario.Variant

/**
 * What a run was measured on, as run.json's `environment` keeps it: the machine, the JDKs and
 * options of the servers, the load generator, library versions, the source revision, CPU
 * placement, the links and databases the run used, remote servers, and the servers' command lines.
 *
 * The JSON is the one object of every record: a fact of one variant sits under `key · variant`
 * (`serverJdk · zgc`, `network · wan`), records from before the lab's own driver name k6 under
 * `k6`, and keys this version does not know are kept as read ([other]), so a record read and
 * written again loses nothing. A fact the run could not learn is left out, and reads back as null.
 */
@JsonDeserialize(using = RunEnvironment.Reader::class)
data class RunEnvironment(
    val cpuModel: String? = null,
    val cpuCores: Int? = null,
    val memoryTotalMb: Long? = null,
    /** The kernel's release (`/proc/sys/kernel/osrelease`). */
    val kernel: String? = null,
    val os: String? = null,
    /** The JDK the CLI itself runs on. */
    val jdk: String? = null,
    val serverJvmOptions: List<String>? = null,
    /** The load generator's name and version, whichever key its record used (see [k6]). */
    val loadGenerator: String? = null,
    /** k6's version as records from before the lab's own driver keep it, under `k6`: written back there. */
    val k6: String? = null,
    /** Library versions the build filtered into `versions.properties`, by library. */
    val libraries: Map<String, String>? = null,
    val gitCommit: String? = null,
    /** Uncommitted changes in the working tree the run was started from. */
    val gitDirty: Boolean? = null,
    /** Which processes share this machine's cores, in words. */
    val processesSharingCpus: String? = null,
    /** How the processes were pinned to cores, or why not, in words. */
    val placement: String? = null,
    /**
     * Whether the kernel shared the cores between sessions first (`kernel.sched_autogroup_enabled`):
     * then the driver and both servers, all in the run's session, together get one session's share
     * against any busy session beside them. Null where the kernel has no autogroup or it was not read.
     */
    val schedAutogroup: Boolean? = null,
    /**
     * How idle cores wait (the cpuidle driver; for a guest's haltpoll, how long it polls before
     * halting): a core that halts at once makes every wake of a sleeping process dear on a VM.
     */
    val cpuIdle: String? = null,
    /** The names of the variables every child process inherits. */
    val childEnvironment: List<String>? = null,
    /** The servers' `java` executable. */
    val serverJava: String? = null,
    /** `java -version` of the servers' JVM, its lines joined by "; ". */
    val serverJdk: String? = null,
    /** The JDK of each variant that names its own, by variant. */
    val serverJdkByVariant: Map<String, String> = emptyMap(),
    /** The run's own link (`run --network`); null: loopback. */
    val network: LinkRecord? = null,
    /** The link of each variant that names a network profile, by variant. */
    val networkByVariant: Map<String, LinkRecord> = emptyMap(),
    /** The throw-away PostgreSQL cluster, when a variant wrote to one. */
    val postgresql: PostgresClusterRecord? = null,
    /** The server another host ran, when one did. */
    val remote: RemoteServersRecord? = null,
    /** The command lines of the servers last started, by server (`api-server · variant` with variants). */
    val serverCommands: Map<String, List<String>>? = null,
    /** When `protobench resume` took the run up again, each time. */
    val resumedAt: List<String>? = null,
    /** The user's own message the run carried, when it carried one. */
    val message: MessageRecord? = null,
    /** Keys this version does not read, kept as read. */
    val other: Map<String, JsonNode> = emptyMap(),
) {
    /** The facts of the machine and the build, which a crossover search keeps from its first point. */
    fun machine() = RunEnvironment(
        cpuModel = cpuModel, cpuCores = cpuCores, memoryTotalMb = memoryTotalMb, kernel = kernel, serverJdk = serverJdk,
        loadGenerator = loadGenerator, k6 = k6, gitCommit = gitCommit, gitDirty = gitDirty, placement = placement,
        schedAutogroup = schedAutogroup, cpuIdle = cpuIdle,
    )

    /** The record's JSON object: every known fact in the order a run learns it, then [other]; nulls left out. */
    @JsonValue
    fun jsonObject(): Map<String, Any> = (
        listOf(
            "cpuModel" to cpuModel,
            "cpuCores" to cpuCores,
            "memoryTotalMb" to memoryTotalMb,
            "kernel" to kernel,
            "os" to os,
            "jdk" to jdk,
            "serverJvmOptions" to serverJvmOptions,
        ) + loadGeneratorKeys() + listOf(
            "libraries" to libraries, "gitCommit" to gitCommit, "gitDirty" to gitDirty, "processesSharingCpus" to processesSharingCpus,
            "placement" to placement, "schedAutogroup" to schedAutogroup, "cpuIdle" to cpuIdle, "childEnvironment" to childEnvironment,
            "serverJava" to serverJava, "serverJdk" to serverJdk,
        ) + byVariant(SERVER_JDK, serverJdkByVariant) + listOf(NETWORK to network) + byVariant(NETWORK, networkByVariant) + listOf(
            "postgresql" to postgresql,
            "remote" to remote,
            "serverCommands" to serverCommands,
            "resumedAt" to resumedAt,
            "message" to message,
        ) + other.toList()
        ).mapNotNull { (key, value) -> value?.let { key to it } }.toMap()

    /** `k6` where the record had it (and `loadGenerator` too, should it name another), else `loadGenerator`. */
    private fun loadGeneratorKeys(): List<Pair<String, String?>> = if (k6 == null) {
        listOf(LOAD_GENERATOR to loadGenerator)
    } else {
        listOf(K6 to k6, LOAD_GENERATOR to loadGenerator?.takeIf { it != k6Named(k6) })
    }

    private fun byVariant(key: String, values: Map<String, Any>) = values.map { (variant, value) -> Variant.label(key, variant) to value }

    companion object {
        private const val LOAD_GENERATOR = "loadGenerator"
        private const val K6 = "k6"
        private const val SERVER_JDK = "serverJdk"
        private const val NETWORK = "network"

        val NONE = RunEnvironment()

        /** The load generator a record's `k6` key names: k6 and its version. */
        private fun k6Named(version: String) = if (version.startsWith("k6")) version else "k6 $version"
    }

    /** Reads the JSON object [jsonObject] writes, and the `k6` key of older records. */
    internal class Reader : StdDeserializer<RunEnvironment>(RunEnvironment::class.java) {
        override fun deserialize(parser: JsonParser, context: DeserializationContext): RunEnvironment =
            Keys(parser.readValueAsTree<ObjectNode>(), context).environment()
    }

    /** The keys of one environment object, each taken once; what no field takes stays for [other]. */
    private class Keys(json: ObjectNode, private val context: DeserializationContext) {
        private val left = LinkedHashMap<String, JsonNode>().apply { json.properties().forEach { (key, value) -> put(key, value) } }

        fun environment(): RunEnvironment {
            val k6 = take<String>(K6)
            return RunEnvironment(
                cpuModel = take("cpuModel"), cpuCores = take("cpuCores"), memoryTotalMb = take("memoryTotalMb"), kernel = take("kernel"),
                os = take("os"), jdk = take("jdk"), serverJvmOptions = take("serverJvmOptions"),
                loadGenerator = take(LOAD_GENERATOR) ?: k6?.let(::k6Named), k6 = k6, libraries = take("libraries"),
                gitCommit = take("gitCommit"), gitDirty = take("gitDirty"), processesSharingCpus = take("processesSharingCpus"),
                placement = take("placement"), schedAutogroup = take("schedAutogroup"), cpuIdle = take("cpuIdle"),
                childEnvironment = take("childEnvironment"), serverJava = take("serverJava"),
                serverJdk = take(SERVER_JDK), serverJdkByVariant = byVariant(SERVER_JDK), network = take(NETWORK),
                networkByVariant = byVariant(NETWORK), postgresql = take("postgresql"), remote = take("remote"),
                serverCommands = take("serverCommands"), resumedAt = take("resumedAt"), message = take("message"), other = left,
            )
        }

        /** [key]'s value as [T]; null when absent or null. A value that does not read as [T] stays in [left], to be kept as read. */
        private inline fun <reified T> take(key: String): T? {
            val node = left[key] ?: return null
            val value = if (node.isNull) {
                null
            } else {
                runCatching<T?> {
                    context.readTreeAsValue(node, context.typeFactory.constructType(jacksonTypeRef<T>()))
                }.getOrNull()
            }
            if (value != null || node.isNull) left.remove(key)
            return value
        }

        /** Every `key · variant` value as [T], by variant. */
        private inline fun <reified T> byVariant(key: String): Map<String, T> = left.keys.map(Variant::split).filter { (name, variant) ->
            name ==
                key &&
                variant != null
        }
            .mapNotNull { (name, variant) -> take<T>(Variant.label(name, variant))?.let { variant!! to it } }.toMap()
    }
}

/**
 * A link the hop crossed: the [profile] asked for, how it was applied and what was measured
 * before the run; or, for a variant's link that did not hold, only why it was [refused].
 * Figures not measured are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class LinkRecord(
    val profile: String,
    /** The profile in words: "RTT 10 ms, 1 Gbit/s". */
    val asked: String? = null,
    val applied: List<String>? = null,
    val measuredRttMs: Double? = null,
    /** The delay the user-space relay adds each way, after its own wake-ups came off. */
    val relayOneWayMs: Double? = null,
    val measuredBandwidthMbit: Double? = null,
    /** How long a large answer took across the link, and what one at the profile's rate would take. */
    val measuredAnswerMs: Double? = null,
    val answerAtRateMs: Double? = null,
    val holds: Boolean? = null,
    /** Set when the delay relay runs in the bench process, saying its CPU is not in the servers' figures. */
    val relayCpu: String? = null,
    val refused: String? = null,
)

/** The throw-away PostgreSQL cluster of a run: its version, address, folder, the account it ran as, and its settings. */
data class PostgresClusterRecord(
    val version: String,
    val jdbcUrl: String,
    val dataDir: String,
    val serverAccount: String,
    val settings: Map<String, String>,
)

/**
 * The server another host ran, at the address the run was given ([dataServer] or [gateway]),
 * and whether `serve` restarted it before every fork.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class RemoteServersRecord(val dataServer: String? = null, val gateway: String? = null, val restartedPerFork: Boolean)
