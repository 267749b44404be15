package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonAlias
import com.fasterxml.jackson.annotation.JsonIgnore
import com.fasterxml.jackson.annotation.JsonSubTypes
import com.fasterxml.jackson.annotation.JsonTypeInfo
import io.protobench.bench.text.Texts
import java.util.Locale

/**
 * Why a trial's figures deserve doubt. Each kind carries its own numbers and says in
 * [describe] what happened and in [meaning] why it matters; run.json stores the kind
 * by name (`"kind": "machine-busy"`).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "kind")
@JsonSubTypes(
    JsonSubTypes.Type(Flag.MachineBusy::class, name = "machine-busy"),
    JsonSubTypes.Type(Flag.LoadGeneratorBusy::class, name = "load-generator-busy"),
    JsonSubTypes.Type(Flag.RateNotHeld::class, name = "rate-not-held"),
    JsonSubTypes.Type(Flag.Unsteady::class, name = "unsteady"),
    JsonSubTypes.Type(Flag.WrongAnswers::class, name = "wrong-answers"),
    JsonSubTypes.Type(Flag.JitActive::class, name = "jit-active"),
    JsonSubTypes.Type(Flag.RowsMismatch::class, name = "rows-mismatch"),
    JsonSubTypes.Type(Flag.ColdConnections::class, name = "cold-connections"),
    JsonSubTypes.Type(Flag.ConnectionsWarming::class, name = "connections-warming"),
    JsonSubTypes.Type(Flag.DriverLate::class, name = "driver-late"),
)
sealed interface Flag {
    /** What happened in this trial, with its numbers, in the report's language. */
    @JsonIgnore fun describe(t: Texts = Texts.EN): String

    /** Why it matters, in the report's language. */
    @JsonIgnore fun meaning(t: Texts = Texts.EN): String

    /**
     * Whether the trial is left out of the verdicts (kept in run.json and listed under the
     * report's problems): only where its figures answer another question than the one asked.
     * The other flags mark doubt and the median of a fork's rounds absorbs one disturbed trial.
     */
    fun leavesTrialOut(): Boolean = false

    companion object {
        /** The kind run.json stores [flag] under (`machine-busy`, `rate-not-held`, …). */
        fun kindOf(flag: Flag): String = Flag::class.java.getAnnotation(JsonSubTypes::class.java).value.first {
            it.value.java ==
                flag.javaClass
        }.name
    }

    /** The machine was busier than the mode allows: [limit] 0.7 in cost mode, 0.9 in capacity mode. */
    data class MachineBusy(val busyShare: Double, val limit: Double, val cores: Int) : Flag {
        override fun describe(t: Texts) = t("flag.machine-busy", f("%.0f", busyShare * 100), cores, f("%.0f", limit * 100))
        override fun meaning(t: Texts) = t("flag.machine-busy.meaning")
    }

    /** The load generator alone used at least [limitShare] of all cores (`k6Cores` in records of k6's time). */
    data class LoadGeneratorBusy(@param:JsonAlias("k6Cores") val generatorCores: Double, val limitShare: Double, val cores: Int) : Flag {
        override fun describe(t: Texts) = t("flag.load-generator-busy", f("%.2f", generatorCores), cores)
        override fun meaning(t: Texts) = t("flag.load-generator-busy.meaning")
    }

    /**
     * Open model: the arrival rate was not held or arrivals were dropped. Left out of the
     * verdicts: its CPU per request and latency are those of another load than the one
     * compared (a saturated arm measured at the rate it could carry).
     */
    data class RateNotHeld(val achievedPerSecond: Double, val targetPerSecond: Int, val droppedIterations: Double) : Flag {
        override fun describe(t: Texts) =
            t("flag.rate-not-held", f("%.0f", achievedPerSecond), targetPerSecond, f("%.0f", droppedIterations))
        override fun meaning(t: Texts) = t("flag.rate-not-held.meaning")
        override fun leavesTrialOut() = true
    }

    /**
     * Open model: the driver sent [late] of its [arrivals] more than [lateMs] after they were
     * due (the latest [maxLateMs] after): their latency counts from when they were due, so the
     * tail includes the driver's own delay, not only the servers'.
     */
    data class DriverLate(val late: Long, val arrivals: Long, val lateMs: Long, val maxLateMs: Double) : Flag {
        override fun describe(t: Texts) = t("flag.driver-late", late, arrivals, lateMs, f("%.1f", maxLateMs))
        override fun meaning(t: Texts) = t("flag.driver-late.meaning")
    }

    /** The gateway's per-second completions varied or drifted inside the trial. */
    data class Unsteady(val coefficientOfVariation: Double, val drift: Double, val seconds: Int) : Flag {
        override fun describe(t: Texts) = t("flag.unsteady", f("%.0f", coefficientOfVariation * 100), f("%+.0f", drift * 100), seconds)
        override fun meaning(t: Texts) = t("flag.unsteady.meaning")
    }

    /**
     * Topology direct: only [timedCalls] of [calls] came after their virtual user's first
     * [coldPerUser], which open and warm its connection, fewer than [minimum]: the trial's
     * latency rests on those few (none: the trial has no latency).
     */
    data class ColdConnections(val timedCalls: Long, val calls: Long, val coldPerUser: Int, val minimum: Int) : Flag {
        override fun describe(t: Texts) = t("flag.cold-connections", timedCalls, calls, coldPerUser)
        override fun meaning(t: Texts) = t("flag.cold-connections.meaning", minimum)
    }

    /**
     * Topology direct: the calls right after each virtual user's first [coldPerUser] (its
     * calls coldPerUser+1 to 2×coldPerUser, [nextCalls] of them) had a p50 of [nextP50Ms],
     * above the [laterP50Ms] of its later ones ([laterCalls]) by more than [TrialFigures.WARMING_MARGIN]:
     * the connections were still warming when the trial's latency began to be timed.
     */
    data class ConnectionsWarming(
        val nextP50Ms: Double,
        val nextCalls: Long,
        val laterP50Ms: Double,
        val laterCalls: Long,
        val coldPerUser: Int,
    ) : Flag {
        override fun describe(t: Texts) = t(
            "flag.connections-warming",
            coldPerUser + 1,
            2 * coldPerUser,
            f("%.2f", nextP50Ms),
            nextCalls,
            f("%.2f", laterP50Ms),
            laterCalls,
        )
        override fun meaning(t: Texts) = t("flag.connections-warming.meaning", coldPerUser)
    }

    /**
     * The servers' JIT compiler threads used at least [limit] of both servers' CPU in the
     * trial. Their CPU is left out of CPU per request, but the code that ran meanwhile was
     * still changing: the figure is not yet the steady state's.
     */
    data class JitActive(val compilerShare: Double, val limit: Double) : Flag {
        override fun describe(t: Texts) = t("flag.jit-active", f("%.0f", compilerShare * 100), f("%.0f", limit * 100))
        override fun meaning(t: Texts) = t("flag.jit-active.meaning")

        companion object {
            /** Above this share the trial is flagged; once settled it stays at a few percent. */
            const val LIMIT = 0.10

            /** The flag for a trial's figures, or null when the compilers stayed below [LIMIT] or were not visible. */
            fun of(figures: Figures): JitActive? {
                val api = figures[Figure.API_CPU_US] ?: return null
                val data = figures[Figure.DATA_CPU_US] ?: 0.0
                val jit = (figures[Figure.API_JIT_CPU_US] ?: return null) + (figures[Figure.DATA_JIT_CPU_US] ?: 0.0)
                val share = if (api + data > 0) jit / (api + data) else return null
                return if (share >= LIMIT) JitActive(share, LIMIT) else null
            }
        }
    }

    /**
     * A member-creation trial whose table does not add up: [rows] new rows, [committed]
     * creations the data-server committed, against [confirmed] creations the load driver saw confirmed.
     * More rows than confirmed: writes that committed although the caller saw a failure (a
     * timeout); fewer: a confirmation without its row, a lost write.
     */
    data class RowsMismatch(val confirmed: Long, val rows: Long, val committed: Long) : Flag {
        /** Confirmed creations without a row. */
        @get:JsonIgnore val lost: Long get() = maxOf(0, confirmed - rows)

        override fun describe(t: Texts) = t("flag.rows-mismatch", rows, committed, confirmed)
        override fun meaning(t: Texts) = t("flag.rows-mismatch.meaning")

        /** A lost write leaves the trial out: its confirmations are not the database's. */
        override fun leavesTrialOut() = lost > 0
    }

    /** Some answers were not status 200 with the expected size. */
    data class WrongAnswers(val wrong: Long, val total: Long) : Flag {
        override fun describe(t: Texts) = t("flag.wrong-answers", wrong, total)
        override fun meaning(t: Texts) = t("flag.wrong-answers.meaning")
    }
}

private fun f(format: String, vararg args: Any?) = String.format(Locale.ROOT, format, *args)
