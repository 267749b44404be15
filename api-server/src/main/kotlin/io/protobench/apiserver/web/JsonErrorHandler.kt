package io.protobench.apiserver.web

import com.fasterxml.jackson.databind.ObjectMapper
import org.slf4j.LoggerFactory
import org.springframework.core.annotation.Order
import org.springframework.http.MediaType
import org.springframework.stereotype.Component
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.WebExceptionHandler
import reactor.core.publisher.Mono

/**
 * Answers every error, from handlers and from routing (unknown path, wrong method),
 * with the JSON of [ErrorMapping]. Runs before Spring Boot's default error handler.
 */
@Component
@Order(-2)
class JsonErrorHandler(private val mapper: ObjectMapper) : WebExceptionHandler {
    private val log = LoggerFactory.getLogger(javaClass)

    override fun handle(exchange: ServerWebExchange, error: Throwable): Mono<Void> {
        val response = exchange.response
        if (response.isCommitted) return Mono.error(error)
        val request = exchange.request
        val mapped = ErrorMapping.of(error, request.method.name(), request.path.value())
        if (mapped.status.value() == 500) log.error("unexpected error on ${request.path}", error)
        response.statusCode = mapped.status
        response.headers.contentType = MediaType.APPLICATION_JSON
        val bytes = mapper.writeValueAsBytes(mapped.body)
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)))
    }
}
