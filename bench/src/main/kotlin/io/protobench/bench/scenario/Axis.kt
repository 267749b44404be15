package io.protobench.bench.scenario

import io.protobench.contract.InvalidParameter
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.message.ItemCount
import io.protobench.contract.payload.PayloadSize
import kotlin.math.ln
import kotlin.math.roundToLong
import kotlin.math.sqrt

/**
 * What a crossover search moves along. A point on an axis is a whole number: bytes of
 * payload, the index of a complexity level, virtual users, requests per second, or items of
 * the user's own message per answer. Sizes, virtual users, rates and counts are bisected on a
 * log scale (geometric midpoints), complexity levels by index.
 */
enum class Axis(val id: String) {
    SIZE("size"),
    COMPLEXITY("complexity"),
    VUS("vus"),
    RATE("rate"),
    COUNT("count"),
    ;

    /** What [parse] accepts on this axis, for messages. */
    val accepted: String
        get() = when (this) {
            SIZE -> PayloadSize.ACCEPTED
            COMPLEXITY -> "a complexity level: ${ComplexityLevel.accepted}"
            VUS -> "a whole number of virtual users from 1 to ${ScenarioParser.MAX_VUS}"
            RATE -> "a whole number of requests per second from 1 to ${ScenarioParser.MAX_RATE}"
            COUNT -> ItemCount.ACCEPTED
        }

    /** [text] as a point on this axis, or null when it is not one. */
    fun parse(text: String): Long? = when (this) {
        SIZE -> try {
            PayloadSize.parse(text).bytes.toLong()
        } catch (e: InvalidParameter) {
            null
        }

        COMPLEXITY -> try {
            ComplexityLevel.parse(text).ordinal.toLong()
        } catch (e: InvalidParameter) {
            null
        }

        VUS -> text.trim().toLongOrNull()?.takeIf { it in 1L..ScenarioParser.MAX_VUS }

        RATE -> text.trim().toLongOrNull()?.takeIf { it in 1L..ScenarioParser.MAX_RATE }

        COUNT -> text.trim().toLongOrNull()?.takeIf { it in 1L..ItemCount.MAX }
    }

    /** The point as a scenario writes it: "143kb", "ultra", "50", "800". */
    fun label(position: Long): String = when (this) {
        SIZE -> PayloadSize.label(position.toInt())
        COMPLEXITY -> ComplexityLevel.entries[position.toInt()].id
        VUS, RATE, COUNT -> position.toString()
    }

    /** The point for people: "143kb", "1500 bytes", "ultra", "50 VUs", "800/s". */
    fun display(position: Long): String = when (this) {
        SIZE -> label(position).let { if (it.all(Char::isDigit)) "$it bytes" else it }
        COMPLEXITY -> label(position)
        VUS -> "$position VUs"
        RATE -> "$position/s"
        COUNT -> if (position == 1L) "1 item" else "$position items"
    }

    /** The point in a folder name: "143kb", "ultra", "50vus", "800rps". */
    fun slug(position: Long): String = when (this) {
        SIZE, COMPLEXITY -> label(position)
        VUS -> "${position}vus"
        RATE -> "${position}rps"
        COUNT -> "${position}items"
    }

    /**
     * The point that splits [low]..[high]: the geometric mean for sizes (whole KB from 1 KB
     * on, whole bytes below), virtual users and rates (whole numbers); the middle level for
     * complexity. Null when no such point lies strictly between them at that rounding.
     */
    fun midpoint(low: Long, high: Long): Long? {
        val middle = when (this) {
            COMPLEXITY -> (low + high) / 2

            SIZE -> sqrt(low.toDouble() * high).let { g ->
                if (g >= PayloadSize.KIB) (g / PayloadSize.KIB).roundToLong() * PayloadSize.KIB else g.roundToLong()
            }

            VUS, RATE, COUNT -> sqrt(low.toDouble() * high).roundToLong()
        }
        return middle.takeIf { it > low && it < high }
    }

    /** Whether [low]..[high] is as narrow as the search should go: ends within [resolution] as a ratio, or adjacent levels. */
    fun narrow(low: Long, high: Long, resolution: Double): Boolean = if (this ==
        COMPLEXITY
    ) {
        high - low <= 1
    } else {
        high.toDouble() / low <= resolution
    }

    /** How wide [low]..[high] is, to bisect the wider of two brackets first: log ratio, or levels apart. */
    fun width(low: Long, high: Long): Double = if (this == COMPLEXITY) (high - low).toDouble() else ln(high.toDouble() / low)

    /**
     * [base] measuring the single point [position]: its size or level under the closed model
     * at [vus] virtual users, or [size] at [position] virtual users, or [size] at the fixed
     * rate [position] (open model, with the virtual users a calibrated rate would get), or
     * [base]'s message in batches of [position] items under the closed model at [vus].
     */
    fun scenarioAt(base: ScenarioFile, position: Long, size: String, vus: Int): ScenarioFile = when (this) {
        SIZE -> base.copy(sizes = listOf(label(position)), load = LoadFile(model = "closed", vus = listOf(vus)))

        COMPLEXITY -> base.copy(complexities = listOf(label(position)), load = LoadFile(model = "closed", vus = listOf(vus)))

        VUS -> base.copy(sizes = listOf(size), load = LoadFile(model = "closed", vus = listOf(position.toInt())))

        COUNT -> base.copy(
            message = checkNotNull(base.message) { "the count axis needs a message" }.copy(counts = listOf(position.toInt())),
            load = LoadFile(model = "closed", vus = listOf(vus)),
        )

        RATE -> base.copy(
            sizes = listOf(size),
            load = LoadFile(
                model = "open",
                rates = listOf(position.toInt()),
                maxVus = rateVus(vus),
            ),
        )
    }

    companion object {
        val acceptedIds: String get() = entries.joinToString(", ") { it.id }

        fun parse(text: String): Axis? = entries.firstOrNull { it.id.equals(text.trim(), ignoreCase = true) }

        /**
         * The connections (virtual users) the load driver may use to hold a rate on the rate axis:
         * as many as a calibrated rate at [vus] gets.
         */
        fun rateVus(vus: Int) = LoadLevel.rateVus(vus)
    }
}
