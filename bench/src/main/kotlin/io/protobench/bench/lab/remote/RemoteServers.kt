package io.protobench.bench.lab.remote

import io.protobench.bench.run.Remote
import io.protobench.bench.run.RunOptions
import io.protobench.bench.serve.ControlEndpoint
import io.protobench.contract.Json
import java.net.InetAddress
import java.net.InetSocketAddress
import java.net.Socket
import java.net.URI
import java.time.Duration

/**
 * Whether remote servers answer before a run starts, within a deadline (10 s by default):
 * each TCP port accepts a connection, then the server answers its health check. The
 * answer is the first problem, naming the address, or null when all is well.
 */
class RemoteCheck(private val deadline: Duration = Duration.ofSeconds(10)) {

    fun problem(remote: Remote): String? {
        val until = System.nanoTime() + deadline.toNanos()
        return when (remote) {
            is Remote.DataServer ->
                connect(remote.host, remote.httpPort, "HTTP", until) ?: connect(remote.host, remote.grpcPort, "gRPC", until)
                    ?: health(remote.httpUrl, "/actuator/health", "the data-server", until)

            is Remote.Gateway -> {
                val uri = URI(remote.url)
                connect(uri.host, uri.port, "HTTP", until) ?: health(remote.url, "/api/health", "the gateway (and its data-server)", until)
            }
        }
    }

    private fun left(until: Long) = Duration.ofNanos(until - System.nanoTime()).coerceAtLeast(Duration.ofMillis(1))

    private fun connect(host: String, port: Int, side: String, until: Long): String? = try {
        Socket().use { it.connect(InetSocketAddress(InetAddress.getByName(host), port), left(until).toMillis().toInt().coerceAtLeast(1)) }
        null
    } catch (e: java.net.SocketTimeoutException) {
        "$host port $port ($side) did not accept a connection within ${deadline.seconds} s"
    } catch (e: Exception) {
        "$host port $port ($side) could not be reached: ${e.message ?: e.javaClass.simpleName} " +
            "(is `protobench serve` running there, on that port?)"
    }

    private fun health(baseUrl: String, path: String, who: String, until: Long): String? = try {
        val http = java.net.http.HttpClient.newBuilder().connectTimeout(left(until)).build()
        val request = java.net.http.HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(left(until)).GET().build()
        val status = http.send(request, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode()
        if (status == 200) null else "$baseUrl$path answered $status: $who is not healthy"
    } catch (e: Exception) {
        "$baseUrl$path did not answer within ${deadline.seconds} s (${e.message ?: e.javaClass.simpleName}): " +
            "is it $who started by `protobench serve`?"
    }
}

/**
 * The control of a server `protobench serve` runs ([ControlEndpoint]), beside its HTTP port:
 * whether it answers, and a fresh JVM on request, which the runner asks for before each fork.
 */
class ServedControl(val url: String, private val restartTimeout: Duration = Duration.ofSeconds(200)) {
    private val json = Json.newMapper()
    private val http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()

    /** Whether `serve`'s control answers there, within 2 s (not when serve ran with --no-restarts, or is older). */
    fun available(): Boolean = runCatching {
        val request = java.net.http.HttpRequest.newBuilder(URI.create(url + ControlEndpoint.PATH)).timeout(Duration.ofSeconds(2))
            .GET().build()
        http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode() == 200
    }.getOrDefault(false)

    /** A fresh JVM, healthy when this returns; what was restarted, for the progress line. [ServedRestartFailed] otherwise. */
    fun restart(): String {
        val request = java.net.http.HttpRequest.newBuilder(URI.create("$url${ControlEndpoint.PATH}/restart")).timeout(restartTimeout)
            .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build()
        val response = try {
            http.send(request, java.net.http.HttpResponse.BodyHandlers.ofString())
        } catch (e: Exception) {
            throw ServedRestartFailed("$url did not restart its server: ${e.message ?: e.javaClass.simpleName}")
        }
        val body = runCatching { json.readTree(response.body()) }.getOrNull()
        if (response.statusCode() != 200 || body == null) {
            throw ServedRestartFailed(
                "$url did not restart its server: ${body?.path("error")?.asText() ?: "answered ${response.statusCode()}"}",
            )
        }
        val also = body.path("alsoRestarted").map { it.asText() }
        return (also + body.path("server").asText()).joinToString(" and ") +
            " restarted (pid ${body.path("pid").asLong()}, JVM ${body.path("starts").asInt()} of serve, " +
            "${"%.1f".format(java.util.Locale.ROOT, body.path("seconds").asDouble())} s)"
    }
}

/** A served server that did not come back fresh: the fork fails, saying why. */
class ServedRestartFailed(message: String) : RuntimeException(message)

/** Remote servers that do not answer before the run: bad input, found out before a results folder exists. */
class RemoteUnreachable(message: String) : RuntimeException(message)

/**
 * What a run cannot do with [remote] servers, or null: a setting this machine would have to
 * give a server it does not start, a link it would have to shape, or a topology they cannot
 * serve. Each answer says what to do instead.
 */
fun remoteRefusal(remote: Remote, scenario: io.protobench.bench.scenario.Scenario, options: RunOptions): String? {
    val serveHint = "give it to `protobench serve` on the server's host"
    val beyondTheGateway = scenario.variants.filter {
        it.copy(name = "", gateway = emptyMap(), affects = emptyList()) !=
            io.protobench.bench.scenario.Variant("")
    }
    return when {
        options.network != null || scenario.variants.any { it.network != null } ->
            "a network profile shapes a link between servers on this machine; " +
                "with a remote server the link is the real network between the hosts"

        scenario.writes -> "member creation needs a data-server on this machine (the runner empties and counts its table between trials)"

        options.dataServerArguments.isNotEmpty() -> "--data-server properties cannot reach a data-server another host runs: $serveHint"

        remote is Remote.DataServer && beyondTheGateway.isNotEmpty() ->
            "variant(s) ${beyondTheGateway.joinToString { it.name }} change the data-server or both JVMs, " +
                "and the data-server runs elsewhere; " +
                "only variants of gateway properties can run against a remote data-server"

        remote is Remote.Gateway && scenario.topology == io.protobench.bench.scenario.Topology.DIRECT ->
            "topology direct calls the data-server itself: give --data-server HOST:HTTP:GRPC instead of --gateway"

        remote is Remote.Gateway && (options.gatewayArguments.isNotEmpty() || scenario.variants.isNotEmpty()) ->
            "gateway properties and variants need a gateway this machine starts: $serveHint"

        remote is Remote.Gateway && scenario.hopClients.isNotEmpty() ->
            "hopClients are sets of clients the gateway creates at start: give their properties to `protobench serve`, " +
                "or run the gateway here"

        else -> null
    }
}
