package io.protobench.dataserver.config

import com.fasterxml.jackson.annotation.JsonValue
import io.protobench.contract.payload.PayloadSize
import org.springframework.boot.context.properties.ConfigurationProperties
import java.util.UUID

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
    /** How HTTP/Binary responses (protobuf and raw) get their payload bytes; the same choice as [grpcPayloadMode]. */
    val httpBinaryPayloadMode: GrpcPayloadMode = GrpcPayloadMode.SHARED,
    /** How protobuf-encoded complex responses are built; see [ComplexEncoding]. */
    val complexEncoding: ComplexEncoding = ComplexEncoding.PER_REQUEST,
    /** Largest payload slice carried by one GetDataStream chunk, bytes. */
    val chunkSizeBytes: Int = DEFAULT_CHUNK_SIZE_BYTES,
    /** Whether responses are compressed for clients that accept it, over HTTP and gRPC; see [Compression]. */
    val compression: Compression = Compression.NONE,
    /** The members database of the write path. */
    val db: Db = Db(),
    /** Whether the write path (and its database) exists in this server. */
    val members: Members = Members(),
    /** A user's own message to serve in batches (`/message/json`, `/message/binary`, `protobench.ItemService`); none without a jar. */
    val message: MessageFiles = MessageFiles(),
) {
    init {
        require(chunkSizeBytes in 1..PayloadSize.MAX_BYTES) {
            "protobench.data.chunk-size-bytes must be from 1 to ${PayloadSize.MAX_BYTES} (bytes), got $chunkSizeBytes"
        }
    }

    /**
     * `protobench.data.message.*`: the [jar] `protobench message` built for a user's message and
     * the [sample] every answer repeats, one item as protobuf bytes.
     */
    data class MessageFiles(val jar: String = "", val sample: String = "") {
        init {
            require(jar.isEmpty() || sample.isNotEmpty()) {
                "protobench.data.message.sample must name the sample's protobuf bytes when protobench.data.message.jar is set"
            }
        }
    }

    data class Grpc(
        /** Interface the gRPC server binds, e.g. 127.0.0.1 or 0.0.0.0. */
        val address: String = "127.0.0.1",
        /** TCP port of the gRPC server; 0 lets the OS pick a free one. */
        val port: Int = 9091,
        /** Which threads run the gRPC calls; see [GrpcExecutor]. */
        val executor: GrpcExecutor = GrpcExecutor.POOL,
        /** Netty worker event-loop threads of the gRPC server; 0 = grpc-netty's default (shared, twice the cores). */
        val eventLoopThreads: Int = 0,
    ) {
        init {
            require(port in 0..65535) { "protobench.data.grpc.port must be from 0 to 65535, got $port" }
            require(eventLoopThreads in 0..MAX_EVENT_LOOP_THREADS) {
                "protobench.data.grpc.event-loop-threads must be 0 (grpc-netty's default) or 1 to " +
                    "$MAX_EVENT_LOOP_THREADS, got $eventLoopThreads"
            }
        }
    }

    /**
     * `protobench.data.members.*`: [enabled] false leaves out the database and the write
     * path's endpoints; [uniqueEmails] false drops the unique index on email, as seed 003's
     * schema had none (its hey and ghz post one body over and over).
     */
    data class Members(val enabled: Boolean = true, val uniqueEmails: Boolean = true)

    /** The members database (`protobench.data.db.*`), reached through a HikariCP pool of [poolSize] connections. */
    data class Db(
        /** JDBC URL; the default is a database of its own in this JVM's memory, empty at every start. */
        val url: String = freshInMemoryUrl(),
        val user: String = "sa",
        val password: String = "",
        /** Connections in the pool (a fixed pool: as many kept open), and JDBC calls running at once. */
        val poolSize: Int = DEFAULT_POOL_SIZE,
        /** Longest wait for a connection before a creation fails as "database unavailable", ms. */
        val connectionTimeoutMs: Long = DEFAULT_CONNECTION_TIMEOUT_MS,
        /**
         * The schema the members table lives in, created by Flyway when missing; null = the
         * connection's own (H2's PUBLIC, PostgreSQL's search path). A database the lab did not
         * make gets one of its own, so the table the runner empties is never somebody else's.
         */
        val schema: String? = null,
    ) {
        init {
            require(ACCEPTED_URL_PREFIXES.any { url.startsWith(it) }) {
                "protobench.data.db.url must be a JDBC URL of a database this server has a driver for " +
                    "(${ACCEPTED_URL_PREFIXES.joinToString(" or ") { "$it…" }}), got '$url'"
            }
            require(poolSize in 1..MAX_POOL_SIZE) { "protobench.data.db.pool-size must be from 1 to $MAX_POOL_SIZE, got $poolSize" }
            require(connectionTimeoutMs in MIN_CONNECTION_TIMEOUT_MS..MAX_CONNECTION_TIMEOUT_MS) {
                "protobench.data.db.connection-timeout-ms must be from $MIN_CONNECTION_TIMEOUT_MS to " +
                    "$MAX_CONNECTION_TIMEOUT_MS, got $connectionTimeoutMs"
            }
            require(schema == null || schema.matches(SCHEMA_NAME)) {
                "protobench.data.db.schema must be a plain lower-case name (a letter or _, then letters, digits or _, " +
                    "at most 63), got '$schema'"
            }
        }

        /** Never the password: settings end up in logs and failure reports. */
        override fun toString() = "Db(url=$url, user=$user, password=(${password.length} characters), poolSize=$poolSize, " +
            "connectionTimeoutMs=$connectionTimeoutMs, schema=$schema)"

        companion object {
            /** HikariCP's own default. */
            const val DEFAULT_POOL_SIZE = 10

            /** Most connections a pool may hold: beyond any use on the machines the lab runs on. */
            const val MAX_POOL_SIZE = 200

            /** Long enough for a busy database, short enough that a dead one is answered 503 promptly. */
            const val DEFAULT_CONNECTION_TIMEOUT_MS = 5_000L

            /** HikariCP's lower bound. */
            const val MIN_CONNECTION_TIMEOUT_MS = 250L
            const val MAX_CONNECTION_TIMEOUT_MS = 600_000L

            /**
             * A schema name both H2 and PostgreSQL take as written, quoted or not: lower case, so
             * Flyway's quoted name and the connection's are the same (PostgreSQL's 63-byte limit).
             */
            val SCHEMA_NAME = Regex("[a-z_][a-z0-9_]{0,62}")

            /** The drivers on the class path: H2 (the default, in memory) and PostgreSQL. */
            val ACCEPTED_URL_PREFIXES = listOf("jdbc:h2:", "jdbc:postgresql:")

            /**
             * A uniquely named H2 database in memory: the name keeps two servers in one JVM (tests)
             * apart, and DB_CLOSE_DELAY=-1 keeps it while the pool has no connection open.
             */
            fun freshInMemoryUrl() = "jdbc:h2:mem:members-${UUID.randomUUID()};DB_CLOSE_DELAY=-1"
        }
    }

    companion object {
        /** 64 KiB, the chunk size the seeds streamed with. */
        const val DEFAULT_CHUNK_SIZE_BYTES = 64 * 1024

        /** Most event-loop threads a setting may ask for: far above any core count the lab runs on. */
        const val MAX_EVENT_LOOP_THREADS = 64
    }
}

/** A value of a closed-set setting, written in configuration and JSON as [id]. */
interface SettingValue {
    val id: String
}

/**
 * How responses get their payload bytes from the catalog's one shared buffer. Named for
 * gRPC, where it was first a setting; `http-binary-payload-mode` takes the same values.
 */
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

/** Response compression, applied only when the client says it accepts it. */
enum class Compression(@get:JsonValue override val id: String) : SettingValue {
    /** Responses go out as encoded. */
    NONE("none"),

    /**
     * gzip: HTTP responses of every media type and size get `Content-Encoding: gzip` when the
     * request's `Accept-Encoding` allows it; gRPC responses get `grpc-encoding: gzip` when
     * the client's `grpc-accept-encoding` lists it.
     */
    GZIP("gzip"),
}

/** Which threads run the data-server's gRPC calls. */
enum class GrpcExecutor(@get:JsonValue override val id: String) : SettingValue {
    /**
     * grpc-java's default: call callbacks on its shared cached thread pool; grpc-kotlin then
     * runs the handler coroutine on `Dispatchers.Default`.
     */
    POOL("pool"),

    /**
     * `directExecutor()`: callbacks on the Netty event loop, and the handler coroutine started
     * there too (unconfined), so a call never changes thread. Fine for these handlers, which
     * never block; one slow call would hold up every connection of its event loop.
     */
    DIRECT("direct"),
}
