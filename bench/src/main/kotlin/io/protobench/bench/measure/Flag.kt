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

    /** Some answers were not status 200 with the expected size. */
    data class WrongAnswers(val wrong: Long, val total: Long) : Flag {
        override fun describe() = f("%d of %d answers wrong", wrong, total)
        override fun meaning() = "over 0.1% wrong answers make a trial invalid: it is kept in run.json and left out of every verdict"
    }
}

private fun f(format: String, vararg args: Any?) = String.format(Locale.ROOT, format, *args)
