package io.protobench.apiserver.client

import io.protobench.apiserver.client.grpc.GrpcChannels
import io.protobench.apiserver.client.grpc.GrpcStreamClient
import io.protobench.apiserver.client.grpc.GrpcUnaryClient
import io.protobench.apiserver.client.http.DataServerHttp
import io.protobench.apiserver.client.http.HttpBinaryClient
import io.protobench.apiserver.client.http.HttpJsonClient
import io.protobench.apiserver.config.GatewaySettings
import io.protobench.apiserver.gateway.GatewayMessage
import io.protobench.contract.InvalidParameter
import io.protobench.contract.Protocol
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component

/**
 * The client for each protocol under test: the gateway's own, and one more set per named
 * client of [GatewaySettings.clients], each on its own connections (its own HTTP pool and
 * gRPC channels), so that a request can pick which set carries its hop.
 */
@Component
class DataClients(
    httpJson: HttpJsonClient,
    httpBinary: HttpBinaryClient,
    grpcUnary: GrpcUnaryClient,
    grpcStream: GrpcStreamClient,
    settings: GatewaySettings,
    message: GatewayMessage,
) : DisposableBean {
    private val own = ProtocolClients(httpJson, httpBinary, grpcUnary, grpcStream)
    private val named: Map<String, NamedClients> = settings.clients.keys.associateWith { NamedClients(it, settings.forClient(it), message) }
    private val accepted = "one of the gateway's named clients (${named.keys.joinToString(", ").ifEmpty { "it has none" }}), or none"

    /** The set a request's `client` parameter names (null: the gateway's own); an unknown name is an invalid request. */
    fun set(client: String?): ProtocolClients = when (client) {
        null -> own
        else -> named[client]?.clients ?: throw InvalidParameter("client", client, accepted)
    }

    fun of(protocol: Protocol): DataClient = own.of(protocol)

    override fun destroy() {
        named.values.forEach(NamedClients::close)
    }
}

/** One client per protocol. */
class ProtocolClients(
    private val httpJson: DataClient,
    private val httpBinary: DataClient,
    private val grpcUnary: DataClient,
    private val grpcStream: DataClient,
) {
    fun of(protocol: Protocol): DataClient = when (protocol) {
        Protocol.HTTP_JSON -> httpJson
        Protocol.HTTP_BINARY -> httpBinary
        Protocol.GRPC_UNARY -> grpcUnary
        Protocol.GRPC_STREAM -> grpcStream
    }
}

/** A named client's own HTTP pool and gRPC channels, and the protocol clients over them. */
private class NamedClients(name: String, settings: GatewaySettings, message: GatewayMessage) : AutoCloseable {
    private val http = DataServerHttp.forHop(settings, "data-server-hop-$name")
    private val channels = GrpcChannels(settings, message)
    val clients = ProtocolClients(
        HttpJsonClient(http, message),
        HttpBinaryClient(http, settings, message),
        GrpcUnaryClient(channels),
        GrpcStreamClient(channels),
    )

    override fun close() {
        http.close()
        channels.destroy()
    }
}
