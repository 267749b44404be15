package io.protobench.bench.runner

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.scenario.Variant

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
        return json.fields().asSequence().flatMap { (name, value) -> flatten("$prefix.${kebab(name)}", value).entries }
            .associate { it.key to it.value }
    }

    /** What [variant] asked for that [effective] does not show, one line each; empty when every setting took effect. */
    fun mismatches(variant: Variant, effective: Map<String, String>): List<String> =
        (variant.gateway + variant.dataServer).mapNotNull { (name, asked) ->
            val running = effective[name]
            when {
                running == null -> "$name: asked '$asked', the server does not report it"
                !same(asked, running) -> "$name: asked '$asked', the server runs '$running'"
                else -> null
            }
        }

    /** Values as servers write them: enum names or ids, any case, '-' or '_' ("h2c" = "H2C", "per_request" = "per-request"). */
    private fun same(asked: String, running: String) =
        asked.trim().replace('_', '-').equals(running.trim().replace('_', '-'), ignoreCase = true)

    private fun kebab(camel: String) = camel.replace(Regex("([a-z0-9])([A-Z])"), "$1-$2").lowercase()
}
