package io.protobench.apiserver.client.http

import com.fasterxml.jackson.databind.JsonNode
import io.netty.buffer.Unpooled
import io.netty.channel.ChannelOption
import io.netty.channel.ConnectTimeoutException
import io.netty.handler.codec.http.HttpHeaderNames
import io.netty.handler.codec.http.HttpMethod
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.asUnexpectedFailure
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.apiserver.config.GatewaySettings.HttpVersion
import io.protobench.contract.Json
import kotlinx.coroutines.reactor.awaitSingle
import reactor.core.Exceptions
import reactor.core.publisher.Mono
import reactor.netty.http.HttpProtocol
import reactor.netty.http.client.HttpClient
import reactor.netty.http.client.PrematureCloseException
import reactor.netty.internal.shaded.reactor.pool.PoolAcquirePendingLimitException
import reactor.netty.resources.ConnectionProvider
import java.io.IOException
import java.net.ConnectException
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeoutException
import kotlin.coroutines.cancellation.CancellationException

/**
 * A Reactor Netty HTTP client bound to the data-server, with its own connection pool.
 * Every exchange reads the whole body into memory and has a total deadline of
 * [timeoutMs] (request sent → last body byte); transport errors become [HopFailure]s.
 * With [gzip], requests say `Accept-Encoding: gzip` and gzipped bodies are decoded
 * before they are returned, so callers always see (and count) the decoded body.
 */
class DataServerHttp(
    settings: GatewaySettings,
    poolName: String,
    version: HttpVersion,
    maxConnections: Int,
    pendingAcquireMax: Int,
    private val timeoutMs: Long,
    gzip: Boolean,
) : AutoCloseable {
    /** host:port of the data-server's HTTP endpoints, for failure details. */
    val target = "${settings.dataServer.host}:${settings.dataServer.httpPort}"
    private val timeout = Duration.ofMillis(timeoutMs)
    private val connectMs = settings.timeouts.connectMs

    private val pool = ConnectionProvider.builder(poolName)
        .maxConnections(maxConnections)
        .pendingAcquireMaxCount(pendingAcquireMax)
        .pendingAcquireTimeout(timeout)
        .build()

    private val client = HttpClient.create(pool)
        .host(settings.dataServer.host)
        .port(settings.dataServer.httpPort)
        .protocol(
            when (version) {
                HttpVersion.HTTP_1_1 -> HttpProtocol.HTTP11
                HttpVersion.H2C -> HttpProtocol.H2C
            },
        )
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMs.toInt())
        .compress(gzip)

    /** One configured client per Accept value, so no request copies the client configuration. */
    private val clientsByAccept = ConcurrentHashMap<String, HttpClient>()

    private fun clientAccepting(accept: String): HttpClient = clientsByAccept.computeIfAbsent(accept) { value ->
        client.headers { it.set(HttpHeaderNames.ACCEPT, value) }
    }

    /** One configured client per body type sent (and accepted back), for the same reason. */
    private val clientsBySentType = ConcurrentHashMap<String, HttpClient>()

    private fun clientSending(mediaType: String): HttpClient = clientsBySentType.computeIfAbsent(mediaType) { value ->
        client.headers { it.set(HttpHeaderNames.CONTENT_TYPE, value).set(HttpHeaderNames.ACCEPT, value) }
    }

    /** GETs [uri] asking for [accept]; returns the body of a 200 response. */
    suspend fun get(uri: String, accept: String): ByteArray = exchange(HttpMethod.GET, uri, accept)

    /** POSTs an empty body to [uri]; returns the body of a 2xx response (empty for 204). */
    suspend fun post(uri: String): ByteArray = exchange(HttpMethod.POST, uri, "application/json")

    /**
     * POSTs [body] as [mediaType], accepting the same, and returns the status and body
     * whatever the status: the caller judges an error answer (the write path keeps the
     * data-server's 400, 409 and 503 apart). Transport failures are thrown as for [get].
     */
    suspend fun post(uri: String, body: ByteArray, mediaType: String): HttpReply = awaitReply {
        clientSending(mediaType).post().uri(uri).send(Mono.just(Unpooled.wrappedBuffer(body)))
    }

    private suspend fun exchange(method: HttpMethod, uri: String, accept: String): ByteArray {
        val reply = awaitReply { clientAccepting(accept).request(method).uri(uri) }
        if (reply.status !in 200..299) {
            throw HopFailure.Rejected("HTTP ${reply.status} from $target$uri: ${errorMessage(reply.body)}")
        }
        return reply.body
    }

    /** The whole answer to [request] within the deadline; transport failures as [HopFailure]s. */
    private suspend inline fun awaitReply(request: () -> HttpClient.ResponseReceiver<*>): HttpReply = try {
        request()
            .responseSingle { response, body ->
                body.asByteArray().defaultIfEmpty(EMPTY).map { HttpReply(response.status().code(), it) }
            }
            .timeout(timeout)
            .awaitSingle()
    } catch (e: CancellationException) {
        throw e
    } catch (e: Throwable) {
        throw translate(Exceptions.unwrap(e))
    }

    private fun translate(e: Throwable): HopFailure = when (e) {
        is HopFailure -> e
        is PoolAcquirePendingLimitException -> HopFailure.Overloaded("HTTP pool '$target': ${e.message}", e)
        is ConnectTimeoutException -> HopFailure.TimedOut("connecting to $target took over $connectMs ms", e)
        is TimeoutException -> HopFailure.TimedOut("no complete HTTP response from $target within $timeoutMs ms", e)
        is ConnectException -> HopFailure.Unavailable("cannot connect to $target: ${e.message}", e)
        is PrematureCloseException -> HopFailure.Unavailable("$target closed the connection: ${e.message}", e)
        is IOException -> HopFailure.Unavailable("I/O error talking to $target: ${e.message}", e)
        else -> e.asUnexpectedFailure()
    }

    override fun close() = pool.dispose()

    companion object {
        /** The `error` field of a JSON error body (the data-server's 400s), else the body as text. */
        fun errorMessage(body: ByteArray): String {
            val error = errorJson(body)?.get("error")?.takeIf { it.isTextual }?.asText()
            return (error ?: body.decodeToString()).take(MAX_MESSAGE)
        }

        /** A JSON error body as a tree; null when it is not JSON. */
        fun errorJson(body: ByteArray): JsonNode? = try {
            errorReader.readTree(body)
        } catch (e: IOException) {
            null
        }

        private val EMPTY = ByteArray(0)
        private val errorReader = Json.newMapper().reader()
        private const val MAX_MESSAGE = 1_000

        /** The client of the HTTP/JSON and HTTP/Binary hops: the configured version, pool, deadline and compression. */
        fun forHop(settings: GatewaySettings, poolName: String = "data-server-hop") = DataServerHttp(
            settings,
            poolName,
            settings.http.version,
            settings.http.poolSize,
            settings.http.pendingAcquireMax,
            settings.timeouts.requestMs,
            gzip = settings.compression == GatewaySettings.Compression.GZIP,
        )

        /** A small plain HTTP/1.1 client for the gateway's own calls (health, /internal), apart from the pool under test. */
        fun forControl(settings: GatewaySettings) = DataServerHttp(
            settings,
            "data-server-control",
            HttpVersion.HTTP_1_1,
            4,
            100,
            settings.timeouts.controlMs,
            gzip = false,
        )
    }
}

/** An HTTP answer: its status and whole body. */
class HttpReply(val status: Int, val body: ByteArray)
