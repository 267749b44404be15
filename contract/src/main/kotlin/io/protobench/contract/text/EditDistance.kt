package io.protobench.contract.text

/**
 * Levenshtein distance: single-character insertions, deletions and substitutions,
 * each costing 1. Used to suggest the nearest valid name for a mistyped setting or
 * scenario field.
 */
object EditDistance {
    fun between(a: String, b: String): Int {
        var previous = IntArray(b.length + 1) { it }
        for (i in 1..a.length) {
            val current = IntArray(b.length + 1)
            current[0] = i
            for (j in 1..b.length) {
                val substitution = previous[j - 1] + if (a[i - 1] == b[j - 1]) 0 else 1
                current[j] = minOf(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            previous = current
        }
        return previous[b.length]
    }

    /**
     * The name of [known] that [name] is a plausible typo of: the nearest (the first of
     * equals), when at most a third of its characters differ; else null.
     */
    fun suggestion(name: String, known: Collection<String>): String? = known.minByOrNull { between(name, it) }?.takeIf {
        between(name, it) <=
            name.length / 3
    }
}
