package io.protobench.bench.scenario

import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import io.protobench.contract.server.SettableSettings
import io.protobench.contract.server.SettableSettings.Server

/**
 * A second set of the gateway's hop clients in the same gateway, with some of its settings
 * changed ([gateway]: full property names, as a variant writes them), measured as arms of
 * their own on [protocols]: "HTTP/Binary (h2c)" beside "HTTP/Binary", request by request in
 * one server pair. A variant starts a fresh pair for its settings, and on two cores a fresh
 * pair's capacity scatters by about 20%, more than the settings the seeds ask about move it;
 * inside one gateway that scatter is paired away.
 */
data class HopClient(val name: String, val gateway: Map<String, String>, val protocols: List<Protocol>) {
    /** The gateway's command-line properties that create this set: `protobench.gateway.clients.<name>.<setting>`. */
    fun properties(): Map<String, String> = gateway.mapKeys { (key, _) -> "$PREFIX.$name.${key.removePrefix("${Server.GATEWAY.prefix}.")}" }

    companion object {
        private val PREFIX = "${Server.GATEWAY.prefix}.clients"

        /** The gateway settings a set of hop clients may change, and the protocols each acts on. */
        val SETTINGS: Map<String, List<Protocol>> = mapOf(
            "http.version" to HTTP,
            "http.pool-size" to HTTP,
            "grpc.channels" to GRPC,
            "grpc.executor" to GRPC,
        ).mapKeys { (key, _) -> "${Server.GATEWAY.prefix}.$key" }

        val NAME = Regex("[a-z0-9][a-z0-9-]{0,31}")
        const val NAME_ACCEPTED = "1-32 lowercase letters, digits or '-', starting with a letter or digit (it travels in the request)"
        const val MAX = 8
    }
}

private val HTTP = listOf(Protocol.HTTP_JSON, Protocol.HTTP_BINARY)
private val GRPC = listOf(Protocol.GRPC_UNARY, Protocol.GRPC_STREAM)

/** `hopClients:` entries as written. */
data class HopClientFile(val name: String? = null, val gateway: Map<String, String>? = null, val protocols: List<String>? = null)

/**
 * Checks a scenario's `hopClients:` and builds them: a name that can travel in a query, one
 * to [HopClient.MAX] settings the gateway can hold per set (each value checked against the
 * servers' catalogue), and protocols of the scenario that those settings act on, so that no
 * arm measures the gateway's own clients under a second name.
 */
internal object HopClientChecks {
    const val ACCEPTED = "a list of sets of hop clients, each {name: h2c, gateway: {protobench.gateway.http.version: H2C}, " +
        "protocols: [HTTP/Binary]}"

    class Checked(val clients: List<HopClient>, val violations: List<Violation>)

    fun check(files: List<HopClientFile>?, source: String, protocols: List<Protocol>?): Checked {
        if (files == null) return Checked(emptyList(), emptyList())
        val violations = mutableListOf<Violation>()
        fun violation(field: String, value: Any?, accepted: String) {
            violations += Violation(source, field, value?.toString(), accepted)
        }
        if (files.isEmpty() || files.size > HopClient.MAX) violation("hopClients", "${files.size} sets", "1 to ${HopClient.MAX} sets")
        val clients = files.mapIndexedNotNull { i, file -> client("hopClients[$i]", file, protocols, ::violation) }
        val names = files.mapNotNull { it.name }
        ScenarioParser.checkDistinct("hopClients", names, names, "name", ::violation)
        return Checked(clients, violations)
    }

    private fun client(
        path: String,
        file: HopClientFile,
        protocols: List<Protocol>?,
        violation: (String, Any?, String) -> Unit,
    ): HopClient? {
        val problems = CountingViolations(violation)
        if (file.name?.matches(HopClient.NAME) != true) problems.add("$path.name", file.name, HopClient.NAME_ACCEPTED)
        val settingsAccepted = "a mapping of 1 to ${HopClient.SETTINGS.size} of ${HopClient.SETTINGS.keys.joinToString()}"
        val gateway = file.gateway.orEmpty()
        if (gateway.isEmpty()) problems.add("$path.gateway", file.gateway ?: "nothing", settingsAccepted)
        gateway.forEach { (name, value) ->
            when {
                name !in HopClient.SETTINGS -> problems.add("$path.gateway.$name", value, settingsAccepted)

                else -> SettableSettings.refusal(Server.GATEWAY, name, value)?.let {
                    problems.add("$path.gateway.$name", value, it.accepted)
                }
            }
        }
        val actedOn = gateway.keys.flatMap { HopClient.SETTINGS[it].orEmpty() }.toSet()
        val named = protocols(path, file.protocols, protocols, actedOn, problems)
        if (problems.count > 0) return null
        val normalised = gateway.mapValues { (name, value) -> SettableSettings.setting(Server.GATEWAY, name)?.normalised(value) ?: value }
        return HopClient(file.name!!, normalised, named)
    }

    private fun protocols(
        path: String,
        names: List<String>?,
        scenario: List<Protocol>?,
        actedOn: Set<Protocol>,
        violations: CountingViolations,
    ): List<Protocol> {
        val known = scenario ?: return emptyList()
        // Without a setting it knows, a set's protocols are judged against the scenario's alone: its settings are reported already.
        val candidates = if (actedOn.isEmpty()) known else known.filter { it in actedOn }
        val accepted = "a list of the scenario's protocols its settings act on: " +
            candidates.joinToString { it.label }.ifEmpty { "none of ${known.joinToString { it.label }}" }
        if (names.isNullOrEmpty()) violations.add("$path.protocols", names ?: "nothing", accepted)
        val parsed = names.orEmpty().mapIndexedNotNull { i, name ->
            val protocol = try {
                Protocol.parse(name)
            } catch (e: InvalidParameter) {
                null
            }
            if (protocol == null || protocol !in candidates) violations.add("$path.protocols[$i]", name, accepted)
            protocol
        }
        if (parsed.toSet().size != parsed.size) violations.add("$path.protocols", names, "each protocol at most once")
        return parsed
    }

    private class CountingViolations(private val violation: (String, Any?, String) -> Unit) {
        var count = 0

        fun add(field: String, value: Any?, accepted: String) {
            count++
            violation(field, value, accepted)
        }
    }
}

/** The file form of [HopClient], for a record's scenario. */
internal fun HopClient.toFile() = HopClientFile(name, gateway, protocols.map { it.label })
