package io.protobench.dataserver.grpc

import io.grpc.Status
import io.grpc.StatusException
import io.protobench.contract.InvalidParameter

/** A rejected parameter as the gRPC services answer it: INVALID_ARGUMENT with the [InvalidParameter] message. */
fun InvalidParameter.asStatus(): StatusException = Status.INVALID_ARGUMENT.withDescription(message).asException()
