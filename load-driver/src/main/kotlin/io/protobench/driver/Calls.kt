package io.protobench.driver

import io.netty.channel.EventLoop

/**
 * A client the driver calls through. Arrivals are timers on its [loop], so the thread that
 * sends is the one that paces: no hand-off between threads per call.
 */
interface Calls : AutoCloseable {
    val loop: EventLoop

    /** Connections opened so far. */
    val connectionsOpened: Long

    /** One call of [target] (with [body] for a POST); [done] gets its outcome on [loop]. */
    fun call(target: CallTarget, check: AnswerCheck, body: ByteArray?, done: (Outcome) -> Unit)

    companion object {
        /** The client [plan] names: the lean HTTP/1.1 one unless it asks for Reactor Netty's. */
        fun of(plan: Plan, maxConnections: Int): Calls = when (plan.client) {
            Plan.REACTOR -> ReactorHttpCalls(plan.baseUrl, maxConnections)
            else -> Http1Calls(plan.baseUrl, maxConnections)
        }

        /** A failure's reason as a summary keeps it: its kind and first line. */
        fun describe(error: Throwable): String =
            "${error.javaClass.simpleName}: ${error.message?.lineSequence()?.firstOrNull()?.take(160) ?: ""}".trimEnd(' ', ':')
    }
}

/** How one call ended: [problem] null for a correct answer; [dropped] when it was never sent. */
data class Outcome(val problem: String?, val place: Place, val dropped: Boolean = false)

/** A call's place among its connection's calls: the first [Connections.COLD_CALLS] open and warm it. */
enum class Place(val label: String) { NEW("new"), WARM("warm") }

object Connections {
    /** Calls of a connection counted as `new`: TCP's slow start, the server's first buffers. */
    const val COLD_CALLS = 3

    /** Arrivals that may wait for a connection, per connection of the cap, before one is dropped. */
    const val WAITING_PER_CONNECTION = 4
}

