package io.protobench.driver

import com.fasterxml.jackson.annotation.JsonInclude

/**
 * One load run of the driver: where to call, what each call must get back, how calls
 * arrive, and for how long. A warm-up of [warmUpMs] (same model, same targets) runs before
 * the timed [durationMs]; its answers are counted apart and never in the latency.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class Plan(
    /** The gateway, or in a direct run the data-server's HTTP side: `http://host:port`. */
    val baseUrl: String,
    /** One target for a trial; several for a soak, taken in turn by the arrivals. */
    val targets: List<CallTarget>,
    val load: Load,
    val durationMs: Long,
    val warmUpMs: Long = 0,
    /** Where to write the timed phase's latency as a standard HdrHistogram log (none when null). */
    val histogramLog: String? = null,
    /** Tells this driver's member emails from any other's sending to the same server (a pod index, say). */
    val instance: Int = 0,
    /** The HTTP client: [LEAN] (plain Netty, the harness's own) or [REACTOR] (Reactor Netty, the gateway's). */
    val client: String = LEAN,
    /** The data-server's gRPC side, `host:port`, for [CallTarget.GRPC] targets (a direct run). */
    val grpcAddress: String? = null,
) {
    /** What is wrong with this plan, or null: every problem said at once, in words a person can act on. */
    fun problems(): List<String> = buildList {
        if (!baseUrl.matches(Regex("https?://[^/\\s]+"))) add("baseUrl '$baseUrl' is not http://host:port")
        if (targets.isEmpty()) add("no targets: give at least one")
        targets.forEachIndexed { i, t -> t.problem()?.let { add("target ${i + 1}: $it") } }
        addAll(load.problems())
        if (durationMs <= 0) add("durationMs must be above 0, not $durationMs")
        if (warmUpMs < 0) add("warmUpMs must be 0 or more, not $warmUpMs")
        if (instance !in 0 until MAX_INSTANCES) add("instance must be in 0..${MAX_INSTANCES - 1}, not $instance")
        if (client !in CLIENTS) add("client '$client' is not one of $CLIENTS")
        if (targets.any { it.grpc } && grpcAddress?.matches(Regex("[^:/\\s]+:\\d+")) != true) {
            add("gRPC targets need grpcAddress as host:port, not $grpcAddress")
        }
    }

    companion object {
        /** Instances are written into member emails in six digits ([Emails]). */
        const val MAX_INSTANCES = 1_000_000
        const val LEAN = "netty"
        const val REACTOR = "reactor-netty"
        val CLIENTS = listOf(LEAN, REACTOR)
    }
}

/**
 * A call and its one correct answer. Over HTTP ([transport] `http`): [status], and the JSON
 * number [field] equal to [value] (null: any value above 0), in a body of at least [minBytes]
 * — or, with [field] null, a body of exactly [value] bytes; [accept] and [contentType] set
 * those headers. A POST sends the file [body], with a fresh email written at each of [emails]
 * (byte offsets). Over gRPC ([transport] `grpc`, a direct run): [path] is one of [GrpcCalls]'s
 * methods, [size] the payload asked for, [value] the bytes or members that must come back, and
 * [body] a serialized `CreateMemberRequest` for a member creation.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class CallTarget(
    val path: String,
    val field: String? = null,
    val value: Long? = null,
    val method: String = "GET",
    val status: Int = 200,
    val body: String? = null,
    val emails: List<Int>? = null,
    val transport: String = HTTP,
    val size: String? = null,
    val minBytes: Long? = null,
    val accept: String? = null,
    val contentType: String? = null,
) {
    @get:com.fasterxml.jackson.annotation.JsonIgnore
    val grpc: Boolean get() = transport == GRPC

    fun problem(): String? = when {
        transport !in TRANSPORTS -> "transport '$transport' is not one of $TRANSPORTS"
        grpc -> GrpcCalls.problem(this)
        !path.startsWith("/") -> "path '$path' must start with /"
        method !in METHODS -> "method '$method' is not one of $METHODS"
        method == "POST" && body == null -> "a POST needs a body file"
        field == null && value == null -> "give a field to check or the body's exact size (value)"
        else -> null
    }

    companion object {
        val METHODS = listOf("GET", "POST")
        const val HTTP = "http"
        const val GRPC = "grpc"
        val TRANSPORTS = listOf(HTTP, GRPC)
    }
}

/**
 * How calls arrive. `open`: [rate] arrivals per second at start + i/rate, each on a free
 * keep-alive connection of a pool that starts at [connections] and grows to
 * [maxConnections] while every one is busy. `closed`: [users] users, each calling again as
 * soon as its answer is in (the seeds' user counts, capacity probes).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class Load(
    val model: String,
    val rate: Double? = null,
    val connections: Int? = null,
    val maxConnections: Int? = null,
    val users: Int? = null,
) {
    @get:com.fasterxml.jackson.annotation.JsonIgnore
    val open get() = model == OPEN

    /**
     * The arrivals this load describes, typed; only for a load without [problems] (a plan is
     * checked before it runs). The JSON keeps its flat fields, so a hand-written plan with
     * several faults hears of all of them at once, not of the first a parser met.
     */
    @get:com.fasterxml.jackson.annotation.JsonIgnore
    val arrivals: Arrivals
        get() = when (model) {
            OPEN -> Arrivals.Open(checkNotNull(rate), connections ?: 1, checkNotNull(maxConnections))
            CLOSED -> Arrivals.Closed(checkNotNull(users))
            else -> throw IllegalStateException(problems().joinToString("; "))
        }

    fun problems(): List<String> = when (model) {
        OPEN -> listOfNotNull(
            if (rate == null || rate <= 0 || rate > MAX_RATE) {
                "an open load needs a rate above 0 and at most $MAX_RATE per second, " +
                    "not $rate"
            } else {
                null
            },
            if ((maxConnections ?: 0) < 1) "an open load needs maxConnections of 1 or more" else null,
            if ((connections ?: 1) !in 1..(maxConnections ?: Int.MAX_VALUE)) "connections must be 1..maxConnections" else null,
        )

        CLOSED -> listOfNotNull(if ((users ?: 0) !in 1..MAX_USERS) "a closed load needs 1..$MAX_USERS users, not $users" else null)

        else -> listOf("load model '$model' is not '$OPEN' or '$CLOSED'")
    }

    companion object {
        const val OPEN = "open"
        const val CLOSED = "closed"

        /** Above this the pacer's spacing (20 µs) is below what a parked thread can keep on a VM's timer. */
        const val MAX_RATE = 50_000.0
        const val MAX_USERS = 10_000

        fun open(rate: Double, connections: Int, maxConnections: Int) =
            Load(OPEN, rate = rate, connections = connections, maxConnections = maxConnections)
        fun closed(users: Int) = Load(CLOSED, users = users)
    }
}

/** How calls arrive, once a [Load] is checked: what the run loop and the clients switch on. */
sealed interface Arrivals {
    /** The connections the driver may hold at once. */
    val maxConnections: Int

    /** The connections a client opens at its start. */
    val startConnections: Int

    /** [rate] arrivals a second, on [connections] keep-alive connections growing to [maxConnections]. */
    data class Open(val rate: Double, val connections: Int, override val maxConnections: Int) : Arrivals {
        override val startConnections get() = connections
    }

    /** [users] users, each calling again as soon as its answer is in; one connection each. */
    data class Closed(val users: Int) : Arrivals {
        override val maxConnections get() = users
        override val startConnections get() = users
    }
}
