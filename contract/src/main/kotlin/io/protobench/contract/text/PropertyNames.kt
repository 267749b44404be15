package io.protobench.contract.text

/** How a Kotlin field name is written as a Spring property name. */
object PropertyNames {
    /** `grpcPayloadMode` → `grpc-payload-mode`, the relaxed-binding form the servers' settings use. */
    fun kebab(camel: String): String = camel.replace(Regex("([a-z0-9])([A-Z])"), "$1-$2").lowercase()
}
