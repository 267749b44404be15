package io.protobench.bench.testkit

import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts

/**
 * The English catalogue's sentences, as a check on a page in another language. A sentence is
 * a run of three or more Latin words of an English pattern between its placeholders and its
 * punctuation ("more forks would decide it", "the null hop"); those the translation itself
 * keeps (a command such as `protobench serve data-server`) are left out. Names, units, numbers,
 * protocol names and code identifiers are shorter than that, or come from the record rather
 * than the catalogue, so what [foundIn] finds is English the translation left behind.
 */
object EnglishSentences {
    private val breaks = Regex("""\{\d+}|[*|#`>\[\]()—:;,.?!=<"…–\n]| - """)
    private val word = Regex("""[A-Za-z][A-Za-z'’/-]*""")

    private val sentences = java.util.concurrent.ConcurrentHashMap<Lang, Map<String, Regex>>()

    /** The English sentences a page in [lang] must not hold, each with the regex that finds it as a whole run of words. */
    fun of(lang: Lang): Map<String, Regex> = sentences.getOrPut(lang) {
        val kept = Texts.catalogue(lang).values.joinToString("\n")
        Texts.catalogue(Lang.EN).values.flatMap { it.split(breaks) }.map { it.trim() }
            .filter { word.findAll(it).count() >= 3 && it !in kept }.distinct()
            .associateWith { Regex("(?<![A-Za-z])" + Regex.escape(it) + "(?![A-Za-z])") }
    }

    /** The English sentences in [text] (its whitespace taken as single spaces). */
    fun foundIn(text: String, lang: Lang = Lang.KO): List<String> {
        val flat = text.replace(Regex("""\s+"""), " ")
        return of(lang).filter { (sentence, whole) -> sentence in flat && whole.containsMatchIn(flat) }.keys.sorted()
    }
}
