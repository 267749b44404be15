package io.protobench.dataserver.web

import io.protobench.contract.members.CreateMemberJson
import io.protobench.contract.members.MemberCreated
import io.protobench.contract.members.MemberRules
import io.protobench.contract.proto.CreateMemberRequest
import io.protobench.contract.proto.CreateMemberResponse
import io.protobench.dataserver.members.MemberStore
import io.protobench.dataserver.members.MembersEnabled
import org.springframework.http.HttpStatus
import org.springframework.http.MediaType
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController
import org.springframework.web.reactive.accept.RequestedContentTypeResolver
import org.springframework.web.server.ServerWebExchange

/**
 * Member creation over HTTP (seed 003's `POST /api/members`): a JSON body (Jackson, the
 * image as base64 text) or a protobuf `CreateMemberRequest` (Spring's protobuf codec),
 * answered 201 with the new id as [MemberBody] negotiates. The body is required (an
 * optional one would let a bodiless request match both methods). Errors:
 * [MemberErrorHandler] and [InvalidParameterHandler].
 */
@RestController
@MembersEnabled
@RequestMapping("/api/members")
class MemberController(private val store: MemberStore, private val contentTypes: RequestedContentTypeResolver) {
    @PostMapping(consumes = [MediaType.APPLICATION_JSON_VALUE], produces = [MediaType.APPLICATION_JSON_VALUE, APPLICATION_PROTOBUF])
    suspend fun createFromJson(@RequestBody body: CreateMemberJson, exchange: ServerWebExchange): ResponseEntity<Any> =
        created(store.create(MemberRules.fromJson(body)), MemberBody.JSON, exchange)

    @PostMapping(consumes = [APPLICATION_PROTOBUF], produces = [MediaType.APPLICATION_JSON_VALUE, APPLICATION_PROTOBUF])
    suspend fun createFromProtobuf(@RequestBody body: CreateMemberRequest, exchange: ServerWebExchange): ResponseEntity<Any> =
        created(store.create(MemberRules.fromProto(body)), MemberBody.PROTOBUF, exchange)

    /** 201 with [id], in the form `Accept` asks for, else in the form of the request's body ([sent]). */
    private fun created(id: Long, sent: MemberBody, exchange: ServerWebExchange): ResponseEntity<Any> {
        val form = negotiateBody(contentTypes.resolveMediaTypes(exchange), MemberBody.entries, fallback = sent)
        val body: Any = when (form) {
            MemberBody.JSON -> MemberCreated(id)
            MemberBody.PROTOBUF -> CreateMemberResponse.newBuilder().setId(id).build()
        }
        return ResponseEntity.status(HttpStatus.CREATED).contentType(form.mediaType).body(body)
    }
}
