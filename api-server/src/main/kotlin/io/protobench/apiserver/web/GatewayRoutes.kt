package io.protobench.apiserver.web

import io.protobench.apiserver.gateway.DataGateway
import io.protobench.apiserver.gateway.MemberGateway
import io.protobench.apiserver.gateway.MemberRequest
import io.protobench.contract.InvalidParameter
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.reactor.mono
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.io.buffer.DataBuffer
import org.springframework.core.io.buffer.DataBufferLimitException
import org.springframework.core.io.buffer.DataBufferUtils
import org.springframework.http.HttpMethod
import org.springframework.http.MediaType
import org.springframework.web.reactive.function.server.RouterFunction
import org.springframework.web.reactive.function.server.ServerRequest
import org.springframework.web.reactive.function.server.ServerResponse
import org.springframework.web.reactive.function.server.router
import org.springframework.web.server.MethodNotAllowedException
import reactor.core.publisher.Mono

/**
 * The calls the load generator makes: `/api/data/<protocol>?size=`,
 * `/api/complex/<protocol>?complexity=`, `/api/message/<protocol>?count=` (a batch of the
 * user's own message, when the gateway has one), each with an optional `client=<name>` (which of
 * the gateway's named sets of hop clients carries the hop), and `POST /api/members/<protocol>` (seed 003's
 * member creation, one member object or a JSON array of them), where <protocol> is
 * http/json, http/binary, grpc or grpc/stream, or `none` for the null hop (no data-server
 * call). A missing `size` means 1mb and a missing `complexity` simple, as in the seed project.
 *
 * Functional routes rather than an annotated controller: this is the harness's share of
 * every request, paid equally by every protocol and the null hop, so it is kept small.
 * An annotated Kotlin `suspend` handler goes through Kotlin reflection, argument
 * resolvers and a cancelled coroutine on every call; this route costs less CPU per
 * request (measured before and after: docs/journal/2026-11-22-leaner-harness.md).
 */
@Configuration
class GatewayRoutes(private val gateway: DataGateway, private val members: MemberGateway) {

    @Bean
    fun gatewayRouter(): RouterFunction<ServerResponse> = router {
        GET("/api/data/{*protocol}") { request ->
            answer { gateway.data(protocol(request), request.queryParam("size").orElse(null), client(request)) }
        }
        GET("/api/complex/{*protocol}") { request ->
            answer { gateway.complex(protocol(request), request.queryParam("complexity").orElse(null), client(request)) }
        }
        GET("/api/message/{*protocol}") { request ->
            answer { gateway.items(protocol(request), request.queryParam("count").orElse(null), client(request)) }
        }
        POST("/api/members/{*protocol}") { request ->
            answer { members.create(protocol(request)) { bodyOf(request) } }
        }
        // Any other method on these paths: 405, as an annotated mapping answers.
        (path("/api/data/**") or path("/api/complex/**") or path("/api/message/**")) { request ->
            Mono.error(MethodNotAllowedException(request.method(), setOf(HttpMethod.GET)))
        }
        path("/api/members/**") { request -> Mono.error(MethodNotAllowedException(request.method(), setOf(HttpMethod.POST))) }
    }

    /** The whole request body, at most [MemberRequest.MAX_BODY_BYTES] (a longer one is an invalid body). */
    private suspend fun bodyOf(request: ServerRequest): ByteArray {
        val joined = try {
            DataBufferUtils.join(request.bodyToFlux(DataBuffer::class.java), MemberRequest.MAX_BODY_BYTES).awaitSingleOrNull()
        } catch (e: DataBufferLimitException) {
            throw InvalidParameter("body", "(over ${MemberRequest.MAX_BODY_BYTES} bytes)", MemberRequest.BODY_ACCEPTED)
        } ?: return ByteArray(0)
        return try {
            ByteArray(joined.readableByteCount()).also { joined.read(it) }
        } finally {
            DataBufferUtils.release(joined)
        }
    }

    private fun protocol(request: ServerRequest) = request.pathVariable("protocol").removePrefix("/")

    private fun client(request: ServerRequest): String? = request.queryParam("client").orElse(null)

    // Unconfined: the null hop and validation finish on Tomcat's thread; a hop resumes on
    // the client's event loop, which writes the answer, as the annotated handler did.
    private fun answer(reply: suspend () -> Any): Mono<ServerResponse> = mono(Dispatchers.Unconfined) {
        reply()
    }.flatMap { ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(it) }
}
