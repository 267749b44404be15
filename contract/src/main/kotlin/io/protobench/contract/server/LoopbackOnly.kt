package io.protobench.contract.server

/**
 * Who may call the control (`/benchmark/…`) and internal (`/internal/…`) endpoints:
 * requests addressed to this machine by a loopback name, and no cross-site browser
 * requests. A web page the operator happens to visit can otherwise make the browser
 * reset a measurement window or read process details (DNS rebinding changes the
 * page's host name, not the Host header it sends; the browser names a foreign page in
 * `Origin` and `Sec-Fetch-Site`). Pure text checks: no name is resolved.
 */
object LoopbackOnly {
    /** First path segments the check guards; the data API (`/api/…`, `/data/…`) is open. */
    val GUARDED_SEGMENTS = setOf("benchmark", "internal")

    const val ACCEPTED_HOSTS = "localhost, 127.x.y.z or [::1], with any port"

    /** Longest Host or Origin looked at; loopback ones are far shorter. */
    private const val MAX_LENGTH = 255

    /**
     * Whether a path whose first non-empty segment (matrix parameters removed, as Spring
     * matches it) is [firstSegment] is guarded. Case is ignored, so no spelling slips by.
     */
    fun guards(firstSegment: String?): Boolean = firstSegment != null && firstSegment.lowercase() in GUARDED_SEGMENTS

    /**
     * Why such a request is refused, or null when it may pass. [extraHosts]: names besides
     * the loopback ones a Host may carry (any port), as `protobench.internal-hosts` gives them.
     */
    fun refusal(host: String?, origin: String?, secFetchSite: String?, extraHosts: Set<String> = emptySet()): String? = when {
        host == null -> "the request has no Host header; accepted ${accepted(extraHosts)}"

        !isLoopbackHost(host) && !isExtraHost(host, extraHosts) ->
            "Host '${host.take(MAX_LENGTH)}' is not a loopback name; accepted ${accepted(extraHosts)}"

        origin != null && !isLoopbackOrigin(origin) ->
            "cross-site browser request (Origin '${origin.take(MAX_LENGTH)}'); accepted no Origin or a loopback one"

        secFetchSite.equals("cross-site", ignoreCase = true) -> "cross-site browser request (Sec-Fetch-Site: cross-site)"

        else -> null
    }

    /** `localhost`, `127.x.y.z` or `[::1]`, each optionally followed by `:port`. */
    fun isLoopbackHost(hostAndPort: String): Boolean {
        if (hostAndPort.length > MAX_LENGTH) return false
        val (host, port) = splitPort(hostAndPort) ?: return false
        return (port == null || isPort(port)) && isLoopbackName(host)
    }

    private fun accepted(extraHosts: Set<String>) = if (extraHosts.isEmpty()) {
        ACCEPTED_HOSTS
    } else {
        "$ACCEPTED_HOSTS, or ${extraHosts.sorted().joinToString()} " +
            "(protobench.internal-hosts)"
    }

    private fun isExtraHost(hostAndPort: String, extraHosts: Set<String>): Boolean {
        if (extraHosts.isEmpty() || hostAndPort.length > MAX_LENGTH) return false
        val (host, port) = splitPort(hostAndPort) ?: return false
        return (port == null || isPort(port)) && extraHosts.any { it.equals(host, ignoreCase = true) }
    }

    /** A name `protobench.internal-hosts` may list: an IPv4 address or DNS name, or a bracketed IPv6 address; no port. */
    fun isHostName(text: String): Boolean = text.length in 1..MAX_LENGTH &&
        (HOST_NAME.matches(text) || (text.startsWith("[") && text.endsWith("]") && IPV6.matches(text.drop(1).dropLast(1))))

    private val HOST_NAME = Regex("[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*")
    private val IPV6 = Regex("[0-9A-Fa-f:.]+")

    /** `http://` or `https://` followed by a loopback host and port, nothing after. */
    fun isLoopbackOrigin(origin: String): Boolean {
        val rest = listOf("http://", "https://").firstOrNull { origin.startsWith(it, ignoreCase = true) }
            ?.let { origin.substring(it.length) } ?: return false
        return isLoopbackHost(rest)
    }

    /** Host and port text ("[::1]:80" -> "[::1]", "80"); null when the form is wrong. */
    private fun splitPort(text: String): Pair<String, String?>? {
        if (text.startsWith("[")) {
            val close = text.indexOf(']')
            if (close < 0) return null
            val after = text.substring(close + 1)
            return when {
                after.isEmpty() -> text to null
                after.startsWith(":") -> text.substring(0, close + 1) to after.substring(1)
                else -> null
            }
        }
        val colon = text.indexOf(':')
        if (colon < 0) return text to null
        if (text.indexOf(':', colon + 1) >= 0) return null
        return text.substring(0, colon) to text.substring(colon + 1)
    }

    private fun isPort(text: String) = text.length in 1..5 && text.all { it in '0'..'9' } && text.toInt() <= 65_535

    private fun isLoopbackName(host: String): Boolean =
        host.equals("localhost", ignoreCase = true) || host == "[::1]" || host == "[0:0:0:0:0:0:0:1]" || isLoopbackIpv4(host)

    private fun isLoopbackIpv4(host: String): Boolean {
        val parts = host.split('.')
        return parts.size == 4 && parts[0] == "127" &&
            parts.all { it.length in 1..3 && it.all { c -> c in '0'..'9' } && it.toInt() <= 255 }
    }
}
