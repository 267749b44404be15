package io.protobench.driver

/**
 * Part [index] of [count] of a plan: one of [count] drivers (pods of an Indexed Job, or
 * processes on several machines) running the same plan together, each sending its share.
 * Open load: rate / count each, the connection pool split too, so the servers see the
 * arrivals and connections one driver would bring. Closed load: the users split as evenly
 * as possible (the first `users % count` parts get one more). Indices run from 0, as an
 * Indexed Job's `JOB_COMPLETION_INDEX` does.
 */
data class Part(val index: Int, val count: Int) {
    val label: String get() = "$index/$count"

    /** [plan]'s share for this part, unchecked; [problems] says whether it can run. */
    fun share(plan: Plan): Plan = plan.copy(
        load = share(plan.load),
        // Unique over the parts of every plan: instance i of a plan becomes i * count + index.
        instance = plan.instance * count + index,
        histogramLog = plan.histogramLog?.let(::ownLog),
    )

    /** Why this part of [plan] cannot run (a part left with no user or connection, a share the plan refuses), or nothing. */
    fun problems(plan: Plan): List<String> {
        // A load with none at all, or no model, is the plan's own problem, said below.
        val connections = plan.load.maxConnections ?: 0
        val users = plan.load.users ?: 0
        val empty = when (plan.load.model) {
            Load.OPEN -> if (connections in 1 until count) {
                "part $label would get no connection: " +
                    "the plan's open load allows $connections; run it in at most $connections parts"
            } else {
                null
            }

            Load.CLOSED -> if (users in 1 until count) {
                "part $label would get no user: " +
                    "the plan's closed load has $users; run it in at most $users parts"
            } else {
                null
            }

            else -> null
        }
        return if (empty != null) listOf(empty) else share(plan).problems().map { "part $label: $it" }
    }

    /** [plan]'s share for this part, or [PlanRefused] saying why it has none. */
    fun of(plan: Plan): Plan {
        val problems = problems(plan)
        if (problems.isNotEmpty()) throw PlanRefused(problems.joinToString("; "))
        return share(plan)
    }

    private fun share(load: Load): Load = when {
        load.open -> load.copy(
            rate = load.rate?.div(count),
            // A pool that starts with fewer than one connection per part still starts with one.
            connections = load.connections?.let { split(it).coerceAtLeast(1) },
            maxConnections = load.maxConnections?.let(::split),
        )

        else -> load.copy(users = load.users?.let(::split))
    }

    /** This part's whole share of [total]: total / count, one more for the first total % count parts. */
    fun split(total: Int): Int = total / count + if (index < total % count) 1 else 0

    /** `latency.hlog` becomes `latency.part-1-of-4.hlog`: parts writing into one folder never share a log. */
    fun ownLog(path: String): String {
        val slash = path.lastIndexOf('/') + 1
        val dot = path.lastIndexOf('.').takeIf { it > slash } ?: path.length
        return path.substring(0, dot) + ".part-$index-of-$count" + path.substring(dot)
    }

    companion object {
        /** More parts than this is not one plan on several drivers but a different tool. */
        const val MAX_PARTS = 1000

        /** Set by Kubernetes in each pod of an Indexed Job: the pod's index, 0 to completions - 1. */
        const val JOB_INDEX_VARIABLE = "JOB_COMPLETION_INDEX"

        const val PART_FLAG = "--part"
        const val JOB_PART_FLAG = "--job-part"

        /**
         * The part `run`'s [args] ask for: `--part I/N`, or `--job-part N` (an Indexed Job's
         * pod: I from [environment]'s `JOB_COMPLETION_INDEX`); null for the whole plan.
         */
        fun fromArgs(args: List<String>, environment: (String) -> String?): Part? {
            val part = valueOf(args, PART_FLAG)
            val jobPart = valueOf(args, JOB_PART_FLAG)
            return when {
                part != null && jobPart != null -> throw PlanRefused("give $PART_FLAG I/N or $JOB_PART_FLAG N, not both")
                part != null -> parse(part)
                jobPart != null -> ofJob(jobPart, environment(JOB_INDEX_VARIABLE))
                else -> null
            }
        }

        private fun valueOf(args: List<String>, flag: String): String? {
            val at = args.indexOf(flag).takeIf { it >= 0 } ?: return null
            return args.getOrNull(at + 1)?.takeUnless { it.startsWith("--") } ?: throw PlanRefused("$flag needs a value")
        }

        /** `I/N`, I from 0 to N - 1. */
        fun parse(text: String): Part {
            val (index, count) = Regex("""(\d{1,9})/(\d{1,9})""").matchEntire(text.trim())?.destructured
                ?: throw PlanRefused("$PART_FLAG '$text' is not I/N (part I of N, I from 0 to N - 1, e.g. 0/4)")
            return checked(index.toInt(), count.toInt(), "$PART_FLAG $text")
        }

        /** Part [index] (the pod's `JOB_COMPLETION_INDEX`) of [count] parts. */
        fun ofJob(count: String, index: String?): Part {
            val n = count.trim().toIntOrNull() ?: throw PlanRefused("$JOB_PART_FLAG '$count' is not a whole number of parts")
            val i = index ?: throw PlanRefused(
                "$JOB_PART_FLAG needs $JOB_INDEX_VARIABLE, which Kubernetes sets in an Indexed Job's pods; elsewhere give $PART_FLAG I/N",
            )
            val parsed = i.trim().toIntOrNull() ?: throw PlanRefused("$JOB_INDEX_VARIABLE '$i' is not a whole number")
            return checked(parsed, n, "$JOB_PART_FLAG $count with $JOB_INDEX_VARIABLE=$i")
        }

        private fun checked(index: Int, count: Int, given: String): Part = when {
            count !in 1..MAX_PARTS -> throw PlanRefused("$given: the number of parts must be 1 to $MAX_PARTS, not $count")
            index !in 0 until count -> throw PlanRefused("$given: the part must be 0 to ${count - 1} (parts count from 0), not $index")
            else -> Part(index, count)
        }
    }
}
