package io.protobench.bench.scenario

import java.time.Duration

/** Durations as scenarios and people write them: "500ms", "30s", "2m", "1h". */
object DurationText {
    const val ACCEPTED = "a whole number with ms, s, m or h (e.g. 30s, 2m)"
    private val pattern = Regex("""^(\d{1,7})(ms|s|m|h)$""")

    fun parseOrNull(text: String): Duration? {
        val (number, unit) = pattern.matchEntire(text.trim())?.destructured ?: return null
        val n = number.toLong()
        return when (unit) {
            "ms" -> Duration.ofMillis(n)
            "s" -> Duration.ofSeconds(n)
            "m" -> Duration.ofMinutes(n)
            else -> Duration.ofHours(n)
        }
    }

    /** A duration in whole milliseconds, e.g. 3000ms. */
    fun millis(duration: Duration) = "${duration.toMillis()}ms"
}
