package io.protobench.apiserver.client

import io.protobench.apiserver.client.grpc.GrpcChannels
import io.protobench.apiserver.client.grpc.GrpcStreamMemberClient
import io.protobench.apiserver.client.grpc.GrpcUnaryMemberClient
import io.protobench.apiserver.client.http.DataServerHttp
import io.protobench.apiserver.client.http.HttpMemberClient
import io.protobench.apiserver.client.http.MemberBodyFormat
import io.protobench.contract.Protocol
import org.springframework.stereotype.Component

/** The write path's client for each protocol, on the same HTTP pool and gRPC channels as the read paths. */
@Component
class MemberClients(http: DataServerHttp, grpc: GrpcChannels) {
    private val httpJson = HttpMemberClient(http, MemberBodyFormat.JSON)
    private val httpBinary = HttpMemberClient(http, MemberBodyFormat.PROTOBUF)
    private val grpcUnary = GrpcUnaryMemberClient(grpc)
    private val grpcStream = GrpcStreamMemberClient(grpc)

    fun of(protocol: Protocol): MemberClient = when (protocol) {
        Protocol.HTTP_JSON -> httpJson
        Protocol.HTTP_BINARY -> httpBinary
        Protocol.GRPC_UNARY -> grpcUnary
        Protocol.GRPC_STREAM -> grpcStream
    }
}
