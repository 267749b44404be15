package io.protobench.apiserver.client

import io.protobench.apiserver.client.grpc.GrpcStreamClient
import io.protobench.apiserver.client.grpc.GrpcUnaryClient
import io.protobench.apiserver.client.http.HttpBinaryClient
import io.protobench.apiserver.client.http.HttpJsonClient
import io.protobench.contract.Protocol
import org.springframework.stereotype.Component

/** The client for each protocol under test. */
@Component
class DataClients(
    private val httpJson: HttpJsonClient,
    private val httpBinary: HttpBinaryClient,
    private val grpcUnary: GrpcUnaryClient,
    private val grpcStream: GrpcStreamClient,
) {
    fun of(protocol: Protocol): DataClient = when (protocol) {
        Protocol.HTTP_JSON -> httpJson
        Protocol.HTTP_BINARY -> httpBinary
        Protocol.GRPC_UNARY -> grpcUnary
        Protocol.GRPC_STREAM -> grpcStream
    }
}
