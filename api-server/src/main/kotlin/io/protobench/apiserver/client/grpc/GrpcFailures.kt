package io.protobench.apiserver.client.grpc

import io.grpc.Status
import io.grpc.StatusException
import io.grpc.StatusRuntimeException
import io.protobench.apiserver.client.HopFailure
import io.protobench.apiserver.client.asUnexpectedFailure
import io.protobench.contract.members.MemberFailures
import kotlin.coroutines.cancellation.CancellationException

/** Runs one gRPC call, turning its failure status into a [HopFailure]. */
internal suspend fun <T> GrpcChannels.call(block: suspend (GrpcChannels) -> T): T = try {
    block(this)
} catch (e: CancellationException) {
    throw e
} catch (e: Throwable) {
    throw translate(e)
}

/**
 * [call] for the write path: the data-server's refusals keep their meaning. INVALID_ARGUMENT
 * names the field, ALREADY_EXISTS is a taken email, and UNAVAILABLE is a database the
 * data-server cannot reach when its description says so (else, as on the read paths, no
 * connection to the data-server).
 */
internal suspend fun <T> GrpcChannels.memberCall(block: suspend (GrpcChannels) -> T): T = try {
    call(block)
} catch (e: HopFailure) {
    throw e.asMemberFailure()
}

private fun HopFailure.asMemberFailure(): HopFailure {
    val status = Status.fromThrowable(cause ?: return this)
    val description = status.description.orEmpty()
    return when {
        status.code == Status.Code.INVALID_ARGUMENT -> HopFailure.MemberRejected(parameterNamedIn(description), detail, cause)

        status.code == Status.Code.ALREADY_EXISTS -> HopFailure.DuplicateEmail(detail, cause)

        status.code == Status.Code.UNAVAILABLE && description.startsWith(MemberFailures.DATABASE_UNAVAILABLE) ->
            HopFailure.DatabaseUnavailable(detail, cause)

        else -> this
    }
}

/** The parameter an [io.protobench.contract.InvalidParameter] message names ("invalid members[2].email '…': …"). */
internal fun parameterNamedIn(description: String): String =
    description.takeIf { it.startsWith(INVALID) }?.removePrefix(INVALID)?.substringBefore(" '")?.takeIf { it.isNotBlank() } ?: "member"

private const val INVALID = "invalid "

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
