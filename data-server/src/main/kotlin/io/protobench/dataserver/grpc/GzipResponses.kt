package io.protobench.dataserver.grpc

import io.grpc.Metadata
import io.grpc.ServerCall
import io.grpc.ServerCallHandler
import io.grpc.ServerInterceptor

/**
 * Asks grpc-java to gzip every response message of the calls it intercepts. grpc-java
 * does so only when the client's `grpc-accept-encoding` lists gzip (grpc-java clients
 * list it unless told otherwise) and says so in `grpc-encoding`; otherwise the call goes
 * out uncompressed.
 */
object GzipResponses : ServerInterceptor {
    const val ENCODING = "gzip"

    override fun <Q, R> interceptCall(call: ServerCall<Q, R>, headers: Metadata, next: ServerCallHandler<Q, R>): ServerCall.Listener<Q> {
        call.setCompression(ENCODING)
        return next.startCall(call, headers)
    }
}
