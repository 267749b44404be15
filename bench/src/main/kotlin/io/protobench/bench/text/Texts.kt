package io.protobench.bench.text

import java.util.Properties

/** The languages a report can be written in: English by default, Korean for the seeds' readers. */
enum class Lang(val id: String, val englishName: String) {
    EN("en", "English"), KO("ko", "Korean");

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

    companion object {
        private val PLACEHOLDER = Regex("""\{(\d+)}""")

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
    }
}
