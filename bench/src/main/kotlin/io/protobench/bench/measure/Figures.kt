package io.protobench.bench.measure

import com.fasterxml.jackson.annotation.JsonCreator
import com.fasterxml.jackson.annotation.JsonValue

/**
 * One trial's (or seed tool run's) figures, read by [Figure]: `figures[Figure.THROUGHPUT]`.
 * A figure can be present with the value null (measured where it could not be: the
 * data-server's CPU when the gateway could not read it) or absent (not measured in this
 * kind of trial); run.json writes the first as `null` and leaves the second out, so both
 * stay apart here as in a map.
 *
 * run.json holds them as one JSON object by [Figure.key], in the order the lab put them
 * (not the enum's): the order is kept, so a published record written again is the same
 * object, byte for byte. A key this version does not know (a record from a later one) is
 * kept in [unknown] and written back after the known ones, never dropped: reading a record
 * and saving it loses nothing.
 */
class Figures private constructor(private val byFigure: Map<Figure, Double?>, val unknown: Map<String, Double?>) {
    /** The figure's value; null when it is absent or was not available. */
    operator fun get(figure: Figure): Double? = byFigure[figure]

    operator fun contains(figure: Figure): Boolean = figure in byFigure

    /** The figures present by [Figure] (null values included), in the order they were put; not [unknown]. */
    fun toMap(): Map<Figure, Double?> = byFigure

    /** These figures with [more]'s: a figure in both takes [more]'s value and keeps its place, as a map's `+`. */
    operator fun plus(more: Figures): Figures = Figures(byFigure + more.byFigure, unknown + more.unknown)

    /** These with one figure set: in its place when present, else last. */
    operator fun plus(figure: Pair<Figure, Double?>): Figures = Figures(byFigure + figure, unknown)

    /** As run.json writes them: by [Figure.key], in their order, then the keys this version does not know. */
    @JsonValue
    fun byKey(): Map<String, Double?> = LinkedHashMap<String, Double?>().apply {
        byFigure.forEach { (figure, value) -> put(figure.key, value) }
        putAll(unknown)
    }

    override fun equals(other: Any?): Boolean = other is Figures && byFigure == other.byFigure && unknown == other.unknown

    override fun hashCode(): Int = byFigure.hashCode() * 31 + unknown.hashCode()

    override fun toString(): String = byKey().toString()

    companion object {
        val NONE = Figures(emptyMap(), emptyMap())

        fun of(vararg figures: Pair<Figure, Double?>): Figures = Figures(linkedMapOf(*figures), emptyMap())

        fun of(figures: Map<Figure, Double?>): Figures = Figures(LinkedHashMap(figures), emptyMap())

        /** Figures as run.json holds them: each key its [Figure], in the record's order; other keys kept in [unknown]. */
        @JvmStatic
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        fun read(byKey: Map<String, Double?>): Figures {
            val known = LinkedHashMap<Figure, Double?>()
            val unknown = LinkedHashMap<String, Double?>()
            byKey.forEach { (key, value) ->
                val figure = Figure.byKey(key)
                if (figure != null) known[figure] = value else unknown[key] = value
            }
            return Figures(known, unknown)
        }
    }
}
