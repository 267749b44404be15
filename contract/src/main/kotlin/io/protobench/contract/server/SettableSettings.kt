package io.protobench.contract.server

import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.text.EditDistance

/**
 * The `protobench.*` properties a scenario variant may set, per server, each with what it
 * accepts: the bench checks a scenario's variants against this before any server starts,
 * so that a typo in the last variant does not stop a run hours in. The servers' own tests
 * hold this catalogue against their settings classes, so it cannot drift from them.
 *
 * The settings the lab sets itself (ports, host and address, the parent pid, the deadline
 * of its control calls) are listed apart: a variant that moved them would break the run
 * rather than configure the servers.
 */
object SettableSettings {
    /** A server of the pair: [key] is its field in a scenario variant, [prefix] its properties' root. */
    enum class Server(val key: String, val prefix: String, val label: String) {
        GATEWAY("gateway", "protobench.gateway", "gateway"),
        DATA_SERVER("dataServer", "protobench.data", "data-server"),
    }

    /**
     * One settable property: its full [name], what it [accepted] in words, and either the
     * [choices] of a closed set (accepted in any letter case) or the [ranges] of a whole number.
     */
    class Setting private constructor(val name: String, val accepted: String, val choices: List<String>, val ranges: List<LongRange>) {
        /** [value] in the one spelling the catalogue keeps (h2c → H2C, 010 → 10), or null when it is not accepted. */
        fun normalised(value: String): String? =
            if (choices.isNotEmpty()) choices.firstOrNull { it.equals(value, ignoreCase = true) } else wholeNumber(value)

        fun valid(value: String): Boolean = normalised(value) != null

        /**
         * Values on both sides of every edge of what is accepted (each choice in either
         * case and a near miss; each range's ends and their neighbours), for the tests that
         * hold this catalogue against a server's own checks.
         */
        fun edges(): List<String> = if (choices.isNotEmpty()) {
            (choices + choices.map { it.lowercase() } + choices.map { it.uppercase() } + "${choices.first()}x").distinct()
        } else {
            ranges.flatMap { listOf(it.first - 1, it.first, it.last, it.last + 1) }.distinct().map { it.toString() }
        }

        private fun wholeNumber(value: String): String? = value.takeIf { WHOLE_NUMBER.matches(it) }?.toLongOrNull()?.takeIf { n ->
            ranges.any {
                n in
                    it
            }
        }?.toString()

        override fun toString() = "$name ($accepted)"

        companion object {
            private val WHOLE_NUMBER = Regex("-?\\d{1,18}")

            internal fun choice(name: String, vararg choices: String, accepted: String = choices.joinToString(" or ")) =
                Setting(name, accepted, choices.toList(), emptyList())

            internal fun wholeNumber(name: String, accepted: String, vararg ranges: LongRange) =
                Setting(name, accepted, emptyList(), ranges.toList())
        }
    }

    /**
     * Why a variant may not set a property: [problem] says what is wrong with its name (null
     * when only the value is wrong) and [accepted] what would do instead.
     */
    data class Refusal(val problem: String?, val accepted: String)

    // KnownSettings.PREFIX is a constant: the bench, which has no Spring, never loads that class.
    private const val PARENT_PID = "${KnownSettings.PREFIX}.parent-pid"
    private const val INTERNAL_HOSTS = "${KnownSettings.PREFIX}.internal-hosts"

    private val settable: Map<Server, List<Setting>> = mapOf(
        Server.DATA_SERVER to with(Server.DATA_SERVER) {
            listOf(
                Setting.choice(property("grpc-payload-mode"), "shared", "copy"),
                Setting.choice(property("complex-encoding"), "per-request", "prebuilt"),
                Setting.wholeNumber(property("chunk-size-bytes"), "1..${PayloadSize.MAX_BYTES} (bytes)", 1L..PayloadSize.MAX_BYTES),
                Setting.choice(property("compression"), "none", "gzip"),
                Setting.choice(property("http-binary-payload-mode"), "shared", "copy"),
                Setting.choice(property("grpc.executor"), "pool", "direct"),
                Setting.wholeNumber(property("grpc.event-loop-threads"), "0 (gRPC's default) or 1..64", 0L..64),
                Setting.wholeNumber(property("db.pool-size"), "1..200 (connections)", 1L..200),
                Setting.wholeNumber(property("db.connection-timeout-ms"), "250..600000 (ms)", 250L..600_000),
            )
        },
        Server.GATEWAY to with(Server.GATEWAY) {
            listOf(
                Setting.choice(property("http.version"), "HTTP_1_1", "H2C", accepted = "HTTP_1_1 or H2C (any letter case)"),
                Setting.wholeNumber(property("http.pool-size"), "1..100000", 1L..100_000),
                Setting.wholeNumber(property("http.pending-acquire-max"), "-1 (no limit) or 1..1000000", -1L..-1L, 1L..1_000_000),
                Setting.wholeNumber(property("grpc.channels"), "1..64", 1L..64),
                Setting.wholeNumber(
                    property("grpc.max-inbound-message-bytes"),
                    "$MIN_INBOUND (9 MiB) to ${Int.MAX_VALUE}",
                    MIN_INBOUND..Int.MAX_VALUE,
                ),
                Setting.wholeNumber(property("timeouts.connect-ms"), "1..600000", 1L..600_000),
                Setting.wholeNumber(property("timeouts.request-ms"), "1..3600000", 1L..3_600_000),
                Setting.choice(property("compression"), "none", "gzip"),
                Setting.choice(property("http.binary-body"), "protobuf", "raw"),
                Setting.choice(property("grpc.executor"), "default", "direct"),
                Setting.wholeNumber(property("grpc.event-loop-threads"), "0 (gRPC's default) or 1..64", 0L..64),
            )
        },
    )

    private val setByLab: Map<Server, List<String>> = mapOf(
        // The members database is the run's (one --db-url for every pair), not a variant's, and
        // whether there is one follows from the scenario (a run that only reads has none), as does
        // the email index (dropped only for seed 003's own tools, which post one body over and over).
        // A user's message is the scenario's, built by the run, and the same for every pair.
        Server.DATA_SERVER to with(Server.DATA_SERVER) {
            listOf(
                property("grpc.address"), property("grpc.port"), PARENT_PID, INTERNAL_HOSTS,
                property("db.url"), property("db.user"), property("db.password"), property("db.schema"), property("members.enabled"),
                property("members.unique-emails"), property("message.jar"), property("message.sample"),
            )
        },
        Server.GATEWAY to with(Server.GATEWAY) {
            listOf(
                property("data-server.host"),
                property("data-server.http-port"),
                property("data-server.grpc-port"),
                property("timeouts.control-ms"),
                property("message.jar"),
                property("message.sample"),
                // A scenario's hopClients, the same in every pair of the run.
                property("clients.*.http.version"),
                property("clients.*.http.pool-size"),
                property("clients.*.grpc.channels"),
                property("clients.*.grpc.executor"),
                PARENT_PID,
                INTERNAL_HOSTS,
            )
        },
    )

    /** The largest payload (8 MiB) plus room for the message framing, as the gateway requires. */
    private const val MIN_INBOUND: Long = PayloadSize.MAX_BYTES + PayloadSize.MIB.toLong()

    private fun Server.property(leaf: String) = "$prefix.$leaf"

    /** What a variant may set on [server]. */
    fun of(server: Server): List<Setting> = settable.getValue(server)

    /** The properties of [server] that the lab sets itself. */
    fun setByLab(server: Server): List<String> = setByLab.getValue(server)

    /** The settable property of [server] called [name], or null. */
    fun setting(server: Server, name: String): Setting? = of(server).firstOrNull { it.name == name }

    /**
     * Null when a variant may set [name] to [value] on [server]; else one line: the name is
     * unknown (with the nearest settable name, or the list), set by the lab, another server's,
     * or the value is not accepted (saying what is).
     */
    fun problem(server: Server, name: String, value: String): String? =
        refusal(server, name, value)?.let { "${it.problem ?: "$name = '$value'"}: accepted ${it.accepted}" }

    /** [problem] in parts, for a caller that reports where and what separately. */
    fun refusal(server: Server, name: String, value: String): Refusal? {
        val setting = setting(server, name) ?: return Refusal(nameProblem(server, name), settableList(server))
        return if (setting.valid(value)) null else Refusal(null, setting.accepted)
    }

    private fun nameProblem(server: Server, name: String): String {
        if (Server.entries.any { name in setByLab(it) }) return "'$name' is set by the lab, not by a scenario"
        val owner = Server.entries.firstOrNull { setting(it, name) != null }
        if (owner != null) return "'$name' is a ${owner.label} setting: write it under ${owner.key}"
        return "unknown setting '$name'" + (suggestion(server, name)?.let { " (did you mean $it?)" } ?: "")
    }

    /** The settable name [name] most likely meant: itself with the server's prefix left out, else a near spelling. */
    private fun suggestion(server: Server, name: String): String? {
        val names = of(server).map { it.name }
        return server.property(name).takeIf { it in names } ?: EditDistance.suggestion(name, names)
    }

    private fun settableList(server: Server) =
        "the ${server.label} settings a variant may set: " + of(server).joinToString(", ") { it.name }
}
