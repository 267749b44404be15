package io.protobench.bench.run

import io.protobench.bench.serve.ControlEndpoint
import java.net.URI

/** A value given on the command line that names no remote server in an accepted form. */
class InvalidRemote(message: String) : IllegalArgumentException(message)

/**
 * Servers another host runs (`protobench serve`) that a run measures instead of starting
 * its own (the `remote` topology). Where `serve`'s control answers (the lab's `ServedControl`) each
 * fork asks it for a fresh JVM first; where it does not, a fork is a fresh gateway (with
 * [DataServer]) or nothing fresh at all (with [Gateway]), and the report says so.
 */
sealed interface Remote {
    /** How run.json and the report name it. */
    val text: String

    /** Where `serve`'s control would answer: beside the server's HTTP port ([ControlEndpoint.portFor]). */
    val controlUrl: String

    /**
     * A data-server elsewhere at [host], HTTP on [httpPort], gRPC on [grpcPort]: each fork
     * starts a fresh gateway here pointed at it, or with `topology: direct` the load driver calls it itself.
     */
    data class DataServer(val host: String, val httpPort: Int, val grpcPort: Int) : Remote {
        /** An IPv6 literal goes in brackets in a URL and a gRPC target. */
        private val hostInUrl get() = if (':' in host) "[$host]" else host
        val httpUrl get() = "http://$hostInUrl:$httpPort"
        val grpcAddress get() = "$hostInUrl:$grpcPort"
        override val text get() = "$hostInUrl:$httpPort:$grpcPort"
        override val controlUrl get() = "http://$hostInUrl:${ControlEndpoint.portFor(httpPort)}"
    }

    /** A gateway elsewhere, told its own data-server when it was started: nothing runs here but the load driver. */
    data class Gateway(val url: String) : Remote {
        override val text get() = url
        override val controlUrl: String get() =
            URI(url).let { "http://${it.rawAuthority.substringBeforeLast(':')}:${ControlEndpoint.portFor(it.port)}" }
    }

    companion object {
        const val DATA_SERVER_FORM = "HOST:HTTP_PORT:GRPC_PORT, e.g. 10.0.0.2:8081:9091 or [fd00::2]:8081:9091"
        const val GATEWAY_FORM = "an http:// URL with host and port, e.g. http://10.0.0.3:8080"

        /** `--data-server HOST:HTTP:GRPC`; an IPv6 host in brackets. */
        fun dataServer(text: String): DataServer {
            fun invalid(why: String) = InvalidRemote("--data-server $text: $why; accepted: $DATA_SERVER_FORM")
            val parts = text.split(':')
            if (parts.size < 3) throw invalid("not three parts")
            val (httpText, grpcText) = parts.takeLast(2)
            val written = parts.dropLast(2).joinToString(":")
            val bracketed = written.startsWith("[") && written.endsWith("]")
            val host = if (bracketed) written.substring(1, written.length - 1) else written
            if (host.isBlank() || '/' in host || (':' in host && !bracketed)) {
                throw invalid(
                    "no host name or address (an IPv6 address goes in brackets)",
                )
            }
            val (http, grpc) = listOf(httpText, grpcText).map { port ->
                port.toIntOrNull()?.takeIf { it in 1..65535 } ?: throw invalid("port '$port' is not a number from 1 to 65535")
            }
            if (http == grpc) throw invalid("HTTP and gRPC need two different ports")
            return DataServer(host, http, grpc)
        }

        /** `--gateway http://HOST:PORT`. */
        fun gateway(text: String): Gateway {
            val uri = runCatching { URI(text) }.getOrNull()
            if (uri == null || uri.scheme != "http" || uri.host == null || uri.port !in 1..65535 ||
                (!uri.path.isNullOrEmpty() && uri.path != "/")
            ) {
                throw InvalidRemote("--gateway $text: not a gateway address; accepted: $GATEWAY_FORM")
            }
            return Gateway(text.removeSuffix("/"))
        }

        /** Whether [text] is meant as a gateway address rather than a Spring property (which always has '='). */
        fun isGatewayAddress(text: String) = text.startsWith("http://") || text.startsWith("https://")

        /** Whether [text] is meant as a data-server address rather than a Spring property. */
        fun isDataServerAddress(text: String) = '=' !in text && ':' in text
    }
}

/** The command-line form of [remote], as `resume` gives it back: `--data-server HOST:HTTP:GRPC` or `--gateway URL`. */
fun remoteFlag(remote: Remote): String = when (remote) {
    is Remote.DataServer -> "--data-server ${remote.text}"
    is Remote.Gateway -> "--gateway ${remote.text}"
}

/** [remoteFlag] read back. */
fun remoteOfFlag(flag: String): Remote {
    val (name, value) = flag.split(' ', limit = 2)
    return if (name == "--gateway") Remote.gateway(value) else Remote.dataServer(value)
}
