package io.protobench.contract.server

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.contract.Json
import org.springframework.core.Ordered
import org.springframework.http.HttpHeaders
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.server.PathContainer
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.WebFilter
import org.springframework.web.server.WebFilterChain
import reactor.core.publisher.Mono

/**
 * Answers 403 with a JSON explanation to a control or internal request that
 * [LoopbackOnly] refuses; everything else passes untouched. Runs first, so a refused
 * request reaches no handler. [extraHosts]: `protobench.internal-hosts`.
 */
class LoopbackOnlyFilter(private val extraHosts: Set<String> = emptySet()) :
    WebFilter,
    Ordered {
    private val mapper: ObjectMapper = Json.newMapper()

    override fun getOrder() = Ordered.HIGHEST_PRECEDENCE

    override fun filter(exchange: ServerWebExchange, chain: WebFilterChain): Mono<Void> {
        val request = exchange.request
        val path = request.path.pathWithinApplication()
        if (!LoopbackOnly.guards(firstSegment(path))) return chain.filter(exchange)
        val headers = request.headers
        val reason = LoopbackOnly.refusal(
            headers.getFirst(HttpHeaders.HOST),
            headers.getFirst(HttpHeaders.ORIGIN),
            headers.getFirst(SEC_FETCH_SITE),
            extraHosts,
        ) ?: return chain.filter(exchange)
        return forbidden(exchange, path.value(), reason)
    }

    /** The first non-empty path segment as Spring matches it (without `;matrix` parameters). */
    private fun firstSegment(path: PathContainer): String? =
        path.elements().filterIsInstance<PathContainer.PathSegment>().map { it.valueToMatch() }.firstOrNull { it.isNotEmpty() }

    private fun forbidden(exchange: ServerWebExchange, path: String, reason: String): Mono<Void> {
        val body = mapOf(
            "error" to "forbidden",
            "status" to HttpStatus.FORBIDDEN.value(),
            "path" to path,
            "message" to "control and internal endpoints answer only local, same-site requests: $reason",
        )
        val response = exchange.response
        response.statusCode = HttpStatus.FORBIDDEN
        response.headers.contentType = MediaType.APPLICATION_JSON
        return response.writeWith(Mono.just(response.bufferFactory().wrap(mapper.writeValueAsBytes(body))))
    }

    private companion object {
        const val SEC_FETCH_SITE = "Sec-Fetch-Site"
    }
}
