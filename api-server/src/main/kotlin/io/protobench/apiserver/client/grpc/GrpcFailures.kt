package io.protobench.apiserver.client.grpc

import io.grpc.Status
import io.grpc.StatusException
import io.grpc.StatusRuntimeException
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.asUnexpectedFailure
import kotlin.coroutines.cancellation.CancellationException

/** Runs one gRPC call, turning its failure status into a [HopFailure]. */
internal suspend fun <T> GrpcChannels.call(block: suspend (GrpcChannels) -> T): T =
    try {
        block(this)
    } catch (e: CancellationException) {
        throw e
    } catch (e: Throwable) {
        throw translate(e)
    }

private fun GrpcChannels.translate(e: Throwable): HopFailure {
    val status = when (e) {
        is StatusException -> e.status
        is StatusRuntimeException -> e.status
        else -> return e.asUnexpectedFailure()
    }
    val reasons = listOfNotNull(status.description, status.cause?.message).distinct()
    val detail = "gRPC ${status.code} from $target: ${reasons.joinToString(": ").ifEmpty { "no description" }}"
    return when (status.code) {
        Status.Code.UNAVAILABLE -> HopFailure.Unavailable(detail, e)
        Status.Code.DEADLINE_EXCEEDED -> HopFailure.TimedOut("$detail (deadline $deadlineMs ms)", e)
        else -> HopFailure.Rejected(detail, e)
    }
}
