package io.protobench.driver

import java.util.concurrent.ScheduledExecutorService

/**
 * A client the driver calls through. Arrivals are timers on its [loop], so the thread that
 * sends is the one that paces: no hand-off between threads per call.
 */
interface Calls : AutoCloseable {
    /** The event loop this client sends from (any thread may call, at the cost of a hand-off). */
    val loop: ScheduledExecutorService

    /** Connections opened so far. */
    val connectionsOpened: Long

    /** One call of [target] (with [body] for a POST or a member message); [done] gets its outcome, on any thread. */
    fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit)

    companion object {
        /**
         * The clients [plan]'s targets need: HTTP (the lean one unless the plan asks for Reactor
         * Netty's) and gRPC. Arrivals are paced on the first target's client; the other's calls
         * (only a soak mixes them) cost a hand-off.
         */
        fun of(plan: Plan, arrivals: Arrivals): Calls {
            val http = lazy { httpCalls(plan, arrivals.maxConnections) }
            val grpc = lazy { GrpcCalls(checkNotNull(plan.grpcAddress), arrivals.startConnections, arrivals.maxConnections) }
            val first = if (plan.targets.first().grpc) grpc.value else http.value
            if (plan.targets.all { it.grpc == plan.targets.first().grpc }) return first
            return MixedCalls(http.value, grpc.value, first)
        }

        private fun httpCalls(plan: Plan, maxConnections: Int): Calls = when (plan.client) {
            Plan.REACTOR -> ReactorHttpCalls(plan.baseUrl, maxConnections)
            else -> Http1Calls(plan.baseUrl, maxConnections)
        }

        /** A failure's reason as a summary keeps it: its kind and first line. */
        fun describe(error: Throwable): String =
            "${error.javaClass.simpleName}: ${error.message?.lineSequence()?.firstOrNull()?.take(160) ?: ""}".trimEnd(' ', ':')
    }
}

/** HTTP and gRPC targets in one run (a direct soak): each call goes to its transport's client. */
private class MixedCalls(private val http: Calls, private val grpc: Calls, first: Calls) : Calls {
    override val loop = first.loop
    override val connectionsOpened get() = http.connectionsOpened + grpc.connectionsOpened

    override fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit) =
        (if (target.grpc) grpc else http).call(target, check, body, done)

    override fun close() {
        http.use { grpc.close() }
    }
}

/**
 * How one call ended: [problem] null for a correct answer; [dropped] when it was never sent.
 * [number] is the call's place among its connection's calls (1 for the first); a server
 * stream's [firstMessageNanos] is when its first message came (System.nanoTime); a wrong
 * answer's [sample] is the start of its body as text ([AnswerCheck.sample]).
 */
data class Outcome(
    val problem: String?,
    val number: Long,
    val dropped: Boolean = false,
    val firstMessageNanos: Long? = null,
    val sample: String? = null,
) {
    val place: Place get() = if (number <= Connections.COLD_CALLS) Place.NEW else Place.WARM

    /** The call's place in finer steps: each cold call by its number, the [Connections.COLD_CALLS] after them, then the rest. */
    val step: String
        get() = when {
            number <= Connections.COLD_CALLS -> number.coerceAtLeast(1).toString()
            number <= 2 * Connections.COLD_CALLS -> NEXT
            else -> LATER
        }

    companion object {
        const val NEXT = "next"
        const val LATER = "later"

        /** Every [step] in order: "1" … "3", then [NEXT] and [LATER]. */
        val STEPS: List<String> = (1..Connections.COLD_CALLS).map { it.toString() } + listOf(NEXT, LATER)
    }
}

/** A call's place among its connection's calls: the first [Connections.COLD_CALLS] open and warm it. */
enum class Place(val label: String) { NEW("new"), WARM("warm") }

object Connections {
    /** Calls of a connection counted as `new`: TCP's slow start, the server's first buffers, HTTP/2's windows. */
    const val COLD_CALLS = 3

    /** Arrivals that may wait for a connection, per connection of the cap, before one is dropped. */
    const val WAITING_PER_CONNECTION = 4
}
