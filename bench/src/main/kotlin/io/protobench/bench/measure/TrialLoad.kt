package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonCreator
import com.fasterxml.jackson.annotation.JsonValue
import io.protobench.bench.scenario.LoadLevel

/**
 * The load a trial or warm-up offered: [vus] virtual users (closed model) or [ratePerSecond]
 * arrivals a second (open model), written in run.json as its [label], "vus=10" or "rate=1500/s".
 * A type of its own rather than [LoadLevel]: the label is all a record keeps, and a
 * [LoadLevel.Rate] read back from it would not know the connections it ran on.
 */
data class TrialLoad(val vus: Int?, val ratePerSecond: Int?) {
    init {
        require((vus == null) != (ratePerSecond == null)) {
            "a trial's load is virtual users or a rate, one of them: vus=$vus, rate=$ratePerSecond"
        }
    }

    @get:JsonValue
    val label: String get() = if (vus != null) LoadLevel.vusLabel(vus) else LoadLevel.rateLabel(ratePerSecond!!)

    /** The [label], so a report prints the load as run.json writes it. */
    override fun toString() = label

    companion object {
        fun vus(vus: Int) = TrialLoad(vus, null)

        fun rate(perSecond: Int) = TrialLoad(null, perSecond)

        fun of(level: LoadLevel): TrialLoad = when (level) {
            is LoadLevel.Vus -> vus(level.vus)
            is LoadLevel.Rate -> rate(level.perSecond)
        }

        /** [label] read back: "vus=N" or "rate=N/s"; anything else is not a load this lab offers. */
        @JvmStatic
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        fun parse(label: String): TrialLoad {
            val vus = label.takeIf { it.startsWith(LoadLevel.VUS_PREFIX) }?.removePrefix(LoadLevel.VUS_PREFIX)?.toIntOrNull()
            val rate = label.takeIf { it.startsWith(LoadLevel.RATE_PREFIX) && it.endsWith(LoadLevel.PER_SECOND) }
                ?.removePrefix(LoadLevel.RATE_PREFIX)?.removeSuffix(LoadLevel.PER_SECOND)?.toIntOrNull()
            require(vus != null || rate != null) { "not a trial's load: \"$label\" (expected vus=N or rate=N/s)" }
            return TrialLoad(vus, rate)
        }
    }
}
