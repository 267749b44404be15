package io.protobench.bench.text

import java.util.Properties

/** The languages a report can be written in: English by default, Korean for the seeds' readers. */
enum class Lang(val id: String, val englishName: String) {
    EN("en", "English"),
    KO("ko", "Korean"),
    ;

    companion object {
        /** The language for `--lang`, or null when [text] names none of them. */
        fun parse(text: String): Lang? = entries.firstOrNull { it.id.equals(text.trim(), ignoreCase = true) }

        val accepted get() = entries.joinToString(", ") { "${it.id} (${it.englishName})" }
    }
}

/**
 * One message catalogue per language (`i18n/report_<lang>.properties`, UTF-8): every
 * sentence the reports print, with `{0}`, `{1}` … where numbers and names go. A key
 * missing from a translation falls back to English, so a report is never left with a
 * hole; a test keeps the catalogues in step.
 */
class Texts private constructor(val lang: Lang, private val entries: Map<String, String>, private val fallback: Map<String, String>) {

    /** The message [key] with its placeholders filled by [args] in order. */
    operator fun invoke(key: String, vararg args: Any?): String {
        val pattern = entries[key] ?: fallback[key] ?: error("no message '$key' in the report catalogue")
        return PLACEHOLDER.replace(pattern) { m ->
            val index = m.groupValues[1].toInt()
            // A value the record lacks prints as a dash; a blank with no argument at all stays visible.
            if (index < args.size) args[index]?.toString() ?: "–" else m.value
        }
    }

    /** Whether the catalogue has [key] (in this language or English). */
    fun has(key: String) = key in entries || key in fallback

    /**
     * A scenario's description in this language: the translation `i18n/descriptions_<lang>.yaml`
     * gives for [english], which holds the built-ins' descriptions as they stand and as earlier
     * versions worded them; null where it has none (a user's own description).
     */
    fun description(english: String): String? = if (lang == Lang.EN) english else descriptions[english]

    private val descriptions: Map<String, String> by lazy {
        val stream = Texts::class.java.getResourceAsStream("/i18n/descriptions_${lang.id}.yaml") ?: return@lazy emptyMap()
        stream.use {
            com.fasterxml.jackson.databind.ObjectMapper(com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readValue(it, DESCRIPTIONS)
        }
    }

    /**
     * [text], a sentence a record keeps in English, said in this language. Some sentences are
     * written into run.json and crossover.json as they happen (why the planner stopped, why a
     * variant was rejected, how the CPUs were placed …), each made of this catalogue's English
     * patterns one after another as one of [shapes] lists them (a key ending in `?` may be
     * absent). The first shape whose English patterns match the whole [text] is said again
     * with this language's patterns, each recorded value passed through [value] (which reads
     * back a value that is itself such a sentence). Text no shape matches, such as an
     * exception's message, a server's own words or the wording of an older version, is
     * returned as recorded, in English: the record is data and stays as it was written.
     */
    fun recorded(text: String, shapes: List<List<String>>, value: (String) -> String = { it }): String = if (lang ==
        Lang.EN
    ) {
        text
    } else {
        readBack(text, shapes, value) ?: text
    }

    /** [recorded], or null when no shape matches [text]. */
    fun readBack(text: String, shapes: List<List<String>>, value: (String) -> String = { it }): String? {
        for (shape in shapes) {
            val parts = shape.map { it.removeSuffix("?") }
            val match = RecordedShapes.regex(shape).matchEntire(text) ?: continue
            return parts.withIndex().joinToString("") { (i, key) ->
                if (match.groups["p$i"] == null) return@joinToString ""
                val count = RecordedShapes.placeholders(EN.pattern(key)).maxOrNull()?.plus(1) ?: 0
                invoke(key, *Array(count) { n -> match.groups["p${i}v$n"]?.value?.let(value) })
            }
        }
        return null
    }

    private fun pattern(key: String) = entries[key] ?: error("no message '$key' in the report catalogue")

    companion object {
        private val PLACEHOLDER = Regex("""\{(\d+)}""")
        private val DESCRIPTIONS = object : com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() {}

        /** The keys and patterns of one language's catalogue as written. */
        fun catalogue(lang: Lang): Map<String, String> {
            val resource = "/i18n/report_${lang.id}.properties"
            val stream = Texts::class.java.getResourceAsStream(resource) ?: error("missing $resource")
            val properties = Properties().apply { stream.reader(Charsets.UTF_8).use { load(it) } }
            return properties.stringPropertyNames().associateWith { properties.getProperty(it) }
        }

        val EN: Texts by lazy { Texts(Lang.EN, catalogue(Lang.EN), emptyMap()) }
        private val KO: Texts by lazy { Texts(Lang.KO, catalogue(Lang.KO), catalogue(Lang.EN)) }

        fun of(lang: Lang): Texts = when (lang) {
            Lang.EN -> EN
            Lang.KO -> KO
        }

        /** How many columns [text] takes in a terminal, and about how many a chart's label: Hangul and CJK characters take two. */
        fun columns(text: String): Int = text.sumOf { c ->
            if (c.code in 0x1100..0x115F || c.code in 0x2E80..0xA4CF || c.code in 0xAC00..0xD7A3 || c.code in 0xF900..0xFAFF) 2 else 1
        }
    }

    /**
     * The shapes of [recorded] as regexes over the English patterns: part i is the group
     * `p<i>` (optional where its key ends in `?`), its placeholder n the group `p<i>v<n>`
     * (a placeholder that comes back within one pattern must hold the same value). Values
     * are matched as short as the rest of the text allows.
     */
    private object RecordedShapes {
        private val cache = java.util.concurrent.ConcurrentHashMap<List<String>, Regex>()

        fun regex(shape: List<String>): Regex = cache.getOrPut(shape) {
            Regex(
                shape.withIndex().joinToString("") { (i, key) ->
                    val part = "(?<p$i>" + regex(i, EN.pattern(key.removeSuffix("?"))) + ")"
                    if (key.endsWith("?")) "$part?" else part
                },
            )
        }

        fun placeholders(pattern: String) = PLACEHOLDER.findAll(pattern).map { it.groupValues[1].toInt() }.toList()

        private fun regex(part: Int, pattern: String): String {
            val seen = mutableSetOf<Int>()
            var at = 0
            return buildString {
                for (m in PLACEHOLDER.findAll(pattern)) {
                    if (m.range.first > at) append(Regex.escape(pattern.substring(at, m.range.first)))
                    val n = m.groupValues[1].toInt()
                    append(if (seen.add(n)) "(?<p${part}v$n>[\\s\\S]*?)" else "\\k<p${part}v$n>")
                    at = m.range.last + 1
                }
                if (at < pattern.length) append(Regex.escape(pattern.substring(at)))
            }
        }
    }
}
