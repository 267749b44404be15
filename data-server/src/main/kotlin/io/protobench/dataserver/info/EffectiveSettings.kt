package io.protobench.dataserver.info

import io.protobench.dataserver.config.ComplexEncoding
import io.protobench.dataserver.config.GrpcPayloadMode

/**
 * The settings this data-server runs with, as `GET /internal/settings` reports them
 * so every measurement can be tied to the configuration that produced it.
 */
data class EffectiveSettings(
    val grpcPayloadMode: GrpcPayloadMode,
    val complexEncoding: ComplexEncoding,
    /** Largest GetDataStream chunk, bytes. */
    val chunkSizeBytes: Int,
    val httpAddress: String?,
    /** Port the HTTP server is bound to (HTTP/1.1 and h2c). */
    val httpPort: Int?,
    val grpcAddress: String,
    /** Port the gRPC server is bound to. */
    val grpcPort: Int,
    /** Largest inbound gRPC message the server accepts, bytes. */
    val grpcMaxMessageBytes: Int,
    val jdkVersion: String,
    val jdkVendor: String,
    val vmName: String,
    /** The JVM's own command-line arguments (-Xmx, -XX:..., -D...), not the application's. */
    val jvmInputArguments: List<String>,
    val availableProcessors: Int,
    /** Largest heap the JVM may use, bytes. */
    val maxHeapBytes: Long,
    /** Versions of the libraries on the measured path, by name. */
    val libraries: Map<String, String>,
)
