package io.protobench.apiserver.config

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.annotation.JsonValue
import io.protobench.contract.payload.PayloadSize
import io.protobench.contract.server.SettingsRejected
import org.springframework.boot.context.properties.ConfigurationProperties

/**
 * How the gateway calls the data-server: where it is, whether the hops ask for
 * compression, which HTTP version, pool and binary body the HTTP hop uses, how many gRPC
 * channels on which threads, and the time limits. Documented with defaults in
 * `api-server.yml`. An instance is always valid: construction refuses bad values with an
 * [InvalidSettings] listing every violation, so a misconfigured gateway does not start;
 * an unknown value of a closed set is refused by the binder, naming the property (Spring
 * Boot's start-up report lists the accepted values). Reported whole as the window
 * report's `clientSettings`: the closed sets by their lowercase ids, except [HttpVersion].
 */
@ConfigurationProperties("protobench.gateway")
data class GatewaySettings(
    val dataServer: DataServer = DataServer(),
    /** Whether the hops ask the data-server for compressed responses; see [Compression]. */
    val compression: Compression = Compression.NONE,
    val http: Http = Http(),
    val grpc: Grpc = Grpc(),
    val timeouts: Timeouts = Timeouts(),
    /** A user's own message the `/api/message` hops carry; none without a jar. */
    val message: MessageFiles = MessageFiles(),
    /**
     * Further sets of hop clients in this gateway, by name, each changing some of [http]'s and
     * [grpc]'s settings; a request picks one with `client=<name>` (none: the gateway's own).
     */
    @get:JsonInclude(JsonInclude.Include.NON_EMPTY)
    val clients: Map<String, ClientChanges> = emptyMap(),
) {
    init {
        val violations = violations()
        if (violations.isNotEmpty()) throw InvalidSettings(violations)
    }

    data class DataServer(
        val host: String = "127.0.0.1",
        /** Port of the data-server's HTTP endpoints (/data, /complex, /internal). */
        val httpPort: Int = 8081,
        /** Port of the data-server's gRPC server (DataService and health). */
        val grpcPort: Int = 9091,
    )

    /** HTTP version of the HTTP/JSON and HTTP/Binary hops. */
    enum class HttpVersion {
        /** HTTP/1.1, one request at a time per pooled connection. */
        HTTP_1_1,

        /** HTTP/2 over cleartext with prior knowledge; requests multiplexed over the pooled connections. */
        H2C,
    }

    /** Compression of the hops to the data-server. */
    enum class Compression(@get:JsonValue val id: String) {
        /** Plain: the HTTP hop sends no Accept-Encoding, the gRPC channels accept identity only. */
        NONE("none"),

        /**
         * gzip: the HTTP hop sends `Accept-Encoding: gzip` and decodes gzip bodies; the gRPC
         * hop sends its requests gzipped and accepts gzipped responses. A response is
         * compressed only when the data-server's compression is gzip too.
         */
        GZIP("gzip"),
    }

    /** The HTTP/Binary payload body the gateway asks for. */
    enum class BinaryBody(@get:JsonValue val id: String) {
        /** A serialized `DataResponse` (`application/x-protobuf`), its declared size checked. */
        PROTOBUF("protobuf"),

        /**
         * The bare payload bytes (`application/octet-stream`), their length checked against
         * the size asked for. Level objects have no raw form: `/complex` stays protobuf.
         */
        RAW("raw"),
    }

    /** Which threads complete the gateway's gRPC calls. */
    enum class GrpcExecutor(@get:JsonValue val id: String) {
        /** grpc-java's default: call callbacks on its shared cached thread pool. */
        DEFAULT("default"),

        /** `directExecutor()`: callbacks on the channel's Netty event loop, no hand-off. */
        DIRECT("direct"),
    }

    data class Http(
        val version: HttpVersion = HttpVersion.HTTP_1_1,
        /** Most connections the HTTP hop keeps open to the data-server. */
        val poolSize: Int = 500,
        /** Most requests waiting for a pooled connection; more fail at once (-1 = no limit). */
        val pendingAcquireMax: Int = 10_000,
        /** The HTTP/Binary payload body asked for; see [BinaryBody]. */
        val binaryBody: BinaryBody = BinaryBody.PROTOBUF,
    )

    data class Grpc(
        /** ManagedChannels (each one HTTP/2 connection) used round-robin by the gRPC hops. */
        val channels: Int = 1,
        /** Largest gRPC message the gateway accepts, bytes; must hold an 8 MiB payload plus framing. */
        val maxInboundMessageBytes: Int = 16 * PayloadSize.MIB,
        /** Which threads complete the calls; see [GrpcExecutor]. */
        val executor: GrpcExecutor = GrpcExecutor.DEFAULT,
        /** Netty event-loop threads shared by the channels; 0 = grpc-netty's default (shared, twice the cores). */
        val eventLoopThreads: Int = 0,
    )

    /**
     * A named second set of hop clients: the settings it changes, every other one as the
     * gateway's own. Two such sets in one gateway let a run compare, say, the HTTP hop on h2c
     * with HTTP/1.1 request by request in one server pair, instead of across two pairs whose
     * start-up alone scatters their capacity.
     */
    data class ClientChanges(val http: HttpChanges = HttpChanges(), val grpc: GrpcChanges = GrpcChanges())

    /** Reported with only what it changes. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    data class HttpChanges(val version: HttpVersion? = null, val poolSize: Int? = null)

    @JsonInclude(JsonInclude.Include.NON_NULL)
    data class GrpcChanges(val channels: Int? = null, val executor: GrpcExecutor? = null)

    /** These settings with the named client's changes applied: what its hops run on. */
    fun forClient(name: String): GatewaySettings {
        val changes = clients.getValue(name)
        return copy(
            http = http.copy(version = changes.http.version ?: http.version, poolSize = changes.http.poolSize ?: http.poolSize),
            grpc = grpc.copy(channels = changes.grpc.channels ?: grpc.channels, executor = changes.grpc.executor ?: grpc.executor),
            clients = emptyMap(),
        )
    }

    /**
     * The [jar] `protobench message` built for a user's message, and its [sample] as protobuf
     * bytes (the null hop reports the bytes a batch of it would have had).
     */
    data class MessageFiles(val jar: String = "", val sample: String = "")

    data class Timeouts(
        /** Time allowed to open a connection to the data-server, ms (HTTP and gRPC). */
        val connectMs: Long = 2_000,
        /**
         * Deadline of one hop, ms: from sending the request until the whole response has
         * arrived (HTTP: Mono timeout over the exchange; gRPC: call deadline).
         */
        val requestMs: Long = 10_000,
        /** Deadline of the gateway's own calls to the data-server (health, /internal metrics and settings), ms. */
        val controlMs: Long = 5_000,
    )

    /** Every rule the values break, in property order; empty when the settings are usable. */
    fun violations(): List<Violation> = listOfNotNull(
        check("data-server.host", dataServer.host, "a host name or IP address") { it.isNotBlank() },
        check("data-server.http-port", dataServer.httpPort, PORTS) { it in 1..65_535 },
        check("data-server.grpc-port", dataServer.grpcPort, PORTS) { it in 1..65_535 },
        check("http.pool-size", http.poolSize, "1..100000") { it in 1..100_000 },
        check("http.pending-acquire-max", http.pendingAcquireMax, "-1 (no limit) or 1..1000000") {
            it == -1 || it in 1..1_000_000
        },
        check("grpc.channels", grpc.channels, "1..64") { it in 1..64 },
        check("message.sample", message.sample, "the sample's protobuf bytes, needed with message.jar") {
            message.jar.isEmpty() || it.isNotEmpty()
        },
        check("grpc.max-inbound-message-bytes", grpc.maxInboundMessageBytes, "at least $MIN_INBOUND (9 MiB)") {
            it >= MIN_INBOUND
        },
        check("grpc.event-loop-threads", grpc.eventLoopThreads, "0 (grpc-netty's default) or 1..$MAX_EVENT_LOOP_THREADS") {
            it in 0..MAX_EVENT_LOOP_THREADS
        },
        check("timeouts.connect-ms", timeouts.connectMs, "1..600000") { it in 1..600_000 },
        check("timeouts.request-ms", timeouts.requestMs, "1..3600000") { it in 1..3_600_000 },
        check("timeouts.control-ms", timeouts.controlMs, "1..600000") { it in 1..600_000 },
    ) + clientViolations()

    private fun clientViolations(): List<Violation> = clients.flatMap { (name, changes) ->
        listOfNotNull(
            check("clients", name, "names of lowercase letters, digits and '-', at most 32") { CLIENT_NAME.matches(it) },
            changes.http.poolSize?.let { size -> check("clients.$name.http.pool-size", size, "1..100000") { it in 1..100_000 } },
            changes.grpc.channels?.let { channels -> check("clients.$name.grpc.channels", channels, "1..64") { it in 1..64 } },
        )
    }

    companion object {
        const val PREFIX = "protobench.gateway"
        private const val PORTS = "1..65535"

        /** The largest payload (8 MiB) plus room for the message framing. */
        const val MIN_INBOUND = PayloadSize.MAX_BYTES + PayloadSize.MIB

        /** Most event-loop threads a setting may ask for: far above any core count the lab runs on. */
        const val MAX_EVENT_LOOP_THREADS = 64

        /** What a named client may be called: it travels as a query parameter and a label. */
        val CLIENT_NAME = Regex("[a-z0-9][a-z0-9-]{0,31}")

        private fun <T> check(property: String, value: T, accepted: String, isValid: (T) -> Boolean): Violation? =
            if (isValid(value)) null else Violation("$PREFIX.$property", value.toString(), accepted)
    }
}

/** One setting that is not accepted: the full property name, the value given and what is accepted. */
data class Violation(val property: String, val value: String, val accepted: String) {
    override fun toString() = "$property = '$value': accepted $accepted"
}

/** Reported at start-up by the contract's InvalidSettingsFailureAnalyzer, one line per violation. */
class InvalidSettings(val violations: List<Violation>) : SettingsRejected(violations.map { it.toString() })
