package io.protobench.dataserver.info

import io.protobench.dataserver.config.ComplexEncoding
import io.protobench.dataserver.config.Compression
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.config.GrpcExecutor
import io.protobench.dataserver.config.GrpcPayloadMode

/**
 * The `protobench.data.*` settings this data-server runs with, as `GET /internal/settings`
 * reports them so every measurement can be tied to the configuration that produced it.
 * Only these: no JVM arguments, environment or system properties (they may hold secrets).
 * Field names are the properties' in camel case (the bench maps them back to compare).
 */
data class EffectiveSettings(
    val grpcPayloadMode: GrpcPayloadMode,
    val httpBinaryPayloadMode: GrpcPayloadMode,
    val complexEncoding: ComplexEncoding,
    /** Largest GetDataStream chunk, bytes. */
    val chunkSizeBytes: Int,
    val compression: Compression,
    val grpc: Grpc,
    val db: Db,
    val members: Members,
) {
    /**
     * `protobench.data.grpc.*`; [port] is the one bound (the OS's pick when configured as 0),
     * [eventLoopThreads] as configured (0 = grpc-netty's default loops).
     */
    data class Grpc(val address: String, val port: Int, val executor: GrpcExecutor, val eventLoopThreads: Int)

    /** `protobench.data.members.*`: whether the write path is served. */
    data class Members(val enabled: Boolean)

    /** `protobench.data.db.*` without the password; a password given in [url] is masked too. */
    data class Db(val url: String, val user: String, val poolSize: Int, val connectionTimeoutMs: Long, val schema: String?) {
        companion object {
            private val PASSWORD_IN_URL = Regex("(?i)(password=)[^&;]*")

            fun of(settings: DataServerSettings.Db) = Db(
                url = settings.url.replace(PASSWORD_IN_URL, "$1***"),
                user = settings.user,
                poolSize = settings.poolSize,
                connectionTimeoutMs = settings.connectionTimeoutMs,
                schema = settings.schema,
            )
        }
    }
}
