package io.protobench.dataserver.config

import com.fasterxml.jackson.annotation.JsonValue
import io.protobench.contract.payload.PayloadSize
import org.springframework.boot.context.properties.ConfigurationProperties

/**
 * Every data-server setting, bound from `protobench.data.*` (see application.yml for
 * what each one means). Invalid values fail startup with a message naming the
 * property and what it accepts.
 */
@ConfigurationProperties("protobench.data")
data class DataServerSettings(
    val grpc: Grpc = Grpc(),
    /** How gRPC responses get their payload bytes; see [GrpcPayloadMode]. */
    val grpcPayloadMode: GrpcPayloadMode = GrpcPayloadMode.SHARED,
    /** How protobuf-encoded complex responses are built; see [ComplexEncoding]. */
    val complexEncoding: ComplexEncoding = ComplexEncoding.PER_REQUEST,
    /** Largest payload slice carried by one GetDataStream chunk, bytes. */
    val chunkSizeBytes: Int = DEFAULT_CHUNK_SIZE_BYTES,
) {
    init {
        require(chunkSizeBytes in 1..PayloadSize.MAX_BYTES) {
            "protobench.data.chunk-size-bytes must be from 1 to ${PayloadSize.MAX_BYTES} (bytes), got $chunkSizeBytes"
        }
    }

    data class Grpc(
        /** Interface the gRPC server binds, e.g. 127.0.0.1 or 0.0.0.0. */
        val address: String = "127.0.0.1",
        /** TCP port of the gRPC server; 0 lets the OS pick a free one. */
        val port: Int = 9091,
    ) {
        init {
            require(port in 0..65535) { "protobench.data.grpc.port must be from 0 to 65535, got $port" }
        }
    }

    companion object {
        /** 64 KiB, the chunk size the seeds streamed with. */
        const val DEFAULT_CHUNK_SIZE_BYTES = 64 * 1024
    }
}

/** A value of a closed-set setting, written in configuration and JSON as [id]. */
interface SettingValue {
    val id: String
}

enum class GrpcPayloadMode(@get:JsonValue override val id: String) : SettingValue {
    /** Responses carry zero-copy views of the one shared payload buffer; chunks are views of their ranges. */
    SHARED("shared"),

    /** Every response copies the payload into a new ByteString (the seeds' naive path). */
    COPY("copy"),
}

enum class ComplexEncoding(@get:JsonValue override val id: String) : SettingValue {
    /** Every protobuf response maps the cached Kotlin object to a new message, as a service maps its domain object. */
    PER_REQUEST("per-request"),

    /** The message of each level is built once and reused; the difference to per-request is the builder cost. */
    PREBUILT("prebuilt"),
}
