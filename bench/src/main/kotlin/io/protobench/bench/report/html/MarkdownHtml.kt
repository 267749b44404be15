package io.protobench.bench.report.html

/**
 * The Markdown the reports write, as HTML: headings, paragraphs, lists, pipe tables,
 * block quotes, and inline `**bold**`, `*emphasis*`, `` `code` `` and `<br>` in table cells.
 * The reports' words have one home (the Markdown renderers); this only changes their dress.
 * Everything is escaped first, so a scenario's text cannot inject markup.
 */
object MarkdownHtml {
    fun toHtml(markdown: String): String = buildString {
        val lines = markdown.lines()
        var i = 0
        while (i < lines.size) {
            val line = lines[i]
            when {
                line.isBlank() -> i++
                line.startsWith("#") -> {
                    val level = line.takeWhile { it == '#' }.length.coerceIn(1, 6)
                    val text = line.drop(level).trim()
                    appendLine("""<h$level id="${anchor(text)}">${inline(text)}</h$level>""")
                    i++
                }
                line.startsWith("|") -> i = table(lines, i)
                line.startsWith("- ") -> i = block(lines, i, "- ", "ul") { "<li>${inline(it)}</li>" }
                line.startsWith("> ") -> i = block(lines, i, "> ", "blockquote") { "<p>${inline(it)}</p>" }
                else -> {
                    val paragraph = lines.drop(i).takeWhile { it.isNotBlank() && !startsBlock(it) }
                    appendLine("<p>${paragraph.joinToString(" ") { inline(it) }}</p>")
                    i += paragraph.size
                }
            }
        }
    }

    /** An id for a heading: the words in lower case joined by dashes, e.g. "size=1kb vus=10" → "size-1kb-vus-10". */
    fun anchor(text: String): String = text.lowercase().replace(Regex("[^\\p{L}\\p{N}]+"), "-").trim('-')

    private fun startsBlock(line: String) = line.startsWith("#") || line.startsWith("|") || line.startsWith("- ") || line.startsWith("> ")

    private fun StringBuilder.block(lines: List<String>, start: Int, prefix: String, tag: String, item: (String) -> String): Int {
        var i = start
        appendLine("<$tag>")
        while (i < lines.size && lines[i].startsWith(prefix)) appendLine(item(lines[i++].removePrefix(prefix)))
        appendLine("</$tag>")
        return i
    }

    private fun StringBuilder.table(lines: List<String>, start: Int): Int {
        val rows = lines.drop(start).takeWhile { it.startsWith("|") }
        val header = cells(rows.first())
        val alignments = rows.getOrNull(1)?.let(::cells)?.map { it.endsWith(":") }.orEmpty()
        appendLine("<table><thead><tr>" + header.joinToString("") { "<th>${inline(it)}</th>" } + "</tr></thead><tbody>")
        for (row in rows.drop(2)) {
            appendLine("<tr>" + cells(row).mapIndexed { k, c ->
                if (alignments.getOrElse(k) { false }) """<td class="num">${inline(c)}</td>""" else "<td>${inline(c)}</td>"
            }.joinToString("") + "</tr>")
        }
        appendLine("</tbody></table>")
        return start + rows.size
    }

    private fun cells(row: String) = row.trim().removePrefix("|").removeSuffix("|").split("|").map { it.trim() }

    /** Inline markup after escaping: code spans first, so their content is left as written. */
    fun inline(text: String): String {
        val parts = Html.escape(text).split("`")
        return parts.mapIndexed { k, part ->
            if (k % 2 == 1 && k < parts.size - 1) "<code>$part</code>"
            else (if (k % 2 == 1) "`" else "") + part.replace(Regex("\\*\\*(.+?)\\*\\*"), "<strong>$1</strong>")
                .replace(Regex("(?<![\\w*])\\*(?!\\s)(.+?)(?<!\\s)\\*(?![\\w*])"), "<em>$1</em>")
                .replace("&lt;br&gt;", "<br>")
        }.joinToString("")
    }
}
