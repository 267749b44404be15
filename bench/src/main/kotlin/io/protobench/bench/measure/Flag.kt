package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonIgnore
import com.fasterxml.jackson.annotation.JsonSubTypes
import com.fasterxml.jackson.annotation.JsonTypeInfo
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
)
sealed interface Flag {
    @JsonIgnore fun describe(): String
    @JsonIgnore fun meaning(): String

    /** The machine was busier than the mode allows: [limit] 0.7 in cost mode, 0.9 in capacity mode. */
    data class MachineBusy(val busyShare: Double, val limit: Double, val cores: Int) : Flag {
        override fun describe() = f("machine %.0f%% busy over %d cores (limit %.0f%%)", busyShare * 100, cores, limit * 100)
        override fun meaning() = "the processes competed for CPU, which inflates CPU per request and compresses differences"
    }

    /** k6 alone used at least [limitShare] of all cores. */
    data class LoadGeneratorBusy(val k6Cores: Double, val limitShare: Double, val cores: Int) : Flag {
        override fun describe() = f("k6 used %.2f of %d cores", k6Cores, cores)
        override fun meaning() = "the load generator took CPU the servers needed"
    }

    /** Open model: the arrival rate was not held or iterations were dropped. */
    data class RateNotHeld(val achievedPerSecond: Double, val targetPerSecond: Int, val droppedIterations: Double) : Flag {
        override fun describe() = f("achieved %.0f/s of %d/s, %.0f iterations dropped", achievedPerSecond, targetPerSecond, droppedIterations)
        override fun meaning() = "the latency shown is not the latency at the target rate (coordinated omission returns)"
    }

    /** The gateway's per-second completions varied or drifted inside the trial. */
    data class Unsteady(val coefficientOfVariation: Double, val drift: Double, val seconds: Int) : Flag {
        override fun describe() = f("throughput varied %.0f%% (CoV) and drifted %+.0f%% over %d s", coefficientOfVariation * 100, drift * 100, seconds)
        override fun meaning() = "warm-up or interference inside the trial"
    }

    /**
     * The servers' JIT compiler threads used at least [limit] of both servers' CPU in the
     * trial. Their CPU is left out of CPU per request, but the code that ran meanwhile was
     * still changing: the figure is not yet the steady state's.
     */
    data class JitActive(val compilerShare: Double, val limit: Double) : Flag {
        override fun describe() = f("JIT compilers used %.0f%% of the servers' CPU (limit %.0f%%)", compilerShare * 100, limit * 100)
        override fun meaning() = "the JVMs were still compiling: CPU per request and latency are above their steady state"

        companion object {
            /** Above this share the trial is flagged; once settled it stays at a few percent. */
            const val LIMIT = 0.10

            /** The flag for a trial's figures, or null when the compilers stayed below [LIMIT] or were not visible. */
            fun of(figures: Map<String, Double?>): JitActive? {
                val api = figures[Figure.API_CPU_US.key] ?: return null
                val data = figures[Figure.DATA_CPU_US.key] ?: 0.0
                val jit = (figures[Figure.API_JIT_CPU_US.key] ?: return null) + (figures[Figure.DATA_JIT_CPU_US.key] ?: 0.0)
                val share = if (api + data > 0) jit / (api + data) else return null
                return if (share >= LIMIT) JitActive(share, LIMIT) else null
            }
        }
    }

    /** Some answers were not status 200 with the expected size. */
    data class WrongAnswers(val wrong: Long, val total: Long) : Flag {
        override fun describe() = f("%d of %d answers wrong", wrong, total)
        override fun meaning() = "over 0.1% wrong answers make a trial invalid: it is kept in run.json and left out of every verdict"
    }
}

private fun f(format: String, vararg args: Any?) = String.format(Locale.ROOT, format, *args)
