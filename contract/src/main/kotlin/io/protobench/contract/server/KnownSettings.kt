package io.protobench.contract.server

import io.protobench.contract.text.EditDistance
import io.protobench.contract.text.PropertyNames
import org.springframework.beans.factory.SmartInitializingSingleton
import org.springframework.boot.context.properties.ConfigurationPropertiesBean
import org.springframework.boot.context.properties.source.ConfigurationPropertyName
import org.springframework.boot.context.properties.source.ConfigurationPropertySources
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.core.env.StandardEnvironment
import kotlin.reflect.KClass
import kotlin.reflect.full.primaryConstructor

/**
 * Fails start-up on a `protobench.*` property that no settings class of this server
 * declares, naming the nearest known one: a typo such as
 * `--protobench.gateway.http.verison=H2C` would otherwise be ignored silently and a
 * whole run measured with the default. Runs once every bean exists, before any
 * server starts listening.
 *
 * Environment variables are not checked: children inherit them from every tool above
 * (the wrapper exports PROTOBENCH_HOME, which would read as `protobench.home`), so an
 * unknown one cannot be told from an unrelated one.
 */
class KnownSettings(private val context: ConfigurableApplicationContext) : SmartInitializingSingleton {

    override fun afterSingletonsInstantiated() {
        val known = declaredNames()
        val unknown = givenNames().filter { given -> known.none { declares(it, given) } }
        if (unknown.isNotEmpty()) throw SettingsRejected(unknown.map { problem(it.toString(), known) })
    }

    /** Every leaf property the `protobench` settings classes of this context declare. */
    private fun declaredNames(): List<String> = ConfigurationPropertiesBean.getAll(context).values
        .filter { ConfigurationPropertyName.of(PREFIX).let { root -> root == name(it) || root.isAncestorOf(name(it)) } }
        .flatMap { declaredBy(it.annotation.prefix, it.asBindTarget().type.resolve()!!.kotlin) }
        .distinct()

    private fun name(bean: ConfigurationPropertiesBean) = ConfigurationPropertyName.of(bean.annotation.prefix)

    /** The `protobench.*` names set in this environment, apart from environment variables. */
    private fun givenNames(): List<ConfigurationPropertyName> {
        val root = ConfigurationPropertyName.of(PREFIX)
        return ConfigurationPropertySources.get(context.environment)
            .filterIsInstance<IterableConfigurationPropertySource>()
            .filter { it.underlyingSource != systemEnvironment() }
            .flatMap { source -> source.stream().filter { root.isAncestorOf(it) }.toList() }
            .distinct()
            .sortedBy { it.toString() }
    }

    private fun systemEnvironment() = context.environment.propertySources.get(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)

    companion object {
        const val PREFIX = "protobench"

        /**
         * The leaf property names of a constructor-bound settings class under [prefix], in
         * kebab case: nested data classes are walked, a map of them by name is walked under
         * `*` (the name, `clients.*.http.version`), anything else is one leaf.
         */
        fun declaredBy(prefix: String, type: KClass<*>): List<String> = type.primaryConstructor!!.parameters.flatMap { parameter ->
            val name = "$prefix.${PropertyNames.kebab(parameter.name!!)}"
            val nested = parameter.type.classifier as? KClass<*>
            val mapped = if (nested == Map::class) parameter.type.arguments.getOrNull(1)?.type?.classifier as? KClass<*> else null
            when {
                nested != null && nested.isData -> declaredBy(name, nested)
                mapped != null && mapped.isData -> declaredBy("$name.$ANY_KEY", mapped)
                else -> listOf(name)
            }
        }

        /** Whether the [declared] name (perhaps with a map's `*`) is the [given] one: any one element stands for `*`. */
        fun declares(declared: String, given: ConfigurationPropertyName): Boolean {
            val elements = declared.split('.')
            val key = elements.indexOf(ANY_KEY)
            if (key < 0) return ConfigurationPropertyName.of(declared) == given
            if (given.numberOfElements != elements.size) return false
            val concrete = elements.toMutableList().also { it[key] = given.getElement(key, ConfigurationPropertyName.Form.ORIGINAL) }
            return ConfigurationPropertyName.isValid(concrete.joinToString(".")) &&
                ConfigurationPropertyName.of(concrete.joinToString(".")) == given
        }

        private const val ANY_KEY = "*"

        /**
         * The line reporting [name]: the nearest known name when it is a plausible typo
         * (at most a third of the characters differ), else every name this server knows.
         */
        fun problem(name: String, known: Collection<String>): String {
            val nearest = EditDistance.suggestion(name, known)
            return if (nearest != null) {
                "unknown setting '$name' (did you mean $nearest?)"
            } else {
                "unknown setting '$name' (this server's settings: ${known.sorted().joinToString(", ")})"
            }
        }

        /** The known name closest to [name] by edit distance (the first of equals). */
        fun nearest(name: String, known: Collection<String>): String = known.minBy { editDistance(name, it) }

        /** Levenshtein distance (see [EditDistance]). */
        fun editDistance(a: String, b: String): Int = EditDistance.between(a, b)
    }
}
