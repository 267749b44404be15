package io.protobench.bench.report.html

import java.security.MessageDigest
import java.util.Base64

/**
 * The HTML page every rendering shares: one inline stylesheet allowed by its hash in the
 * page's own Content-Security-Policy, and nothing else loaded — no script, font, image or
 * CDN — so the file works offline and where a strict policy blocks inline code.
 */
object Html {
    private val STYLE = """
        body { font: 15px/1.45 system-ui, sans-serif; color: #222; max-width: 1320px; margin: 0 auto; padding: 0 24px 48px; }
        h1 { font-size: 26px; margin-top: 24px; } h2 { font-size: 21px; margin-top: 36px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
        table { border-collapse: collapse; margin: 8px 0 16px; font-size: 13px; }
        th, td { border: 1px solid #ddd; padding: 4px 8px; vertical-align: top; } th { background: #f4f4f4; text-align: left; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        code { background: #f4f4f4; padding: 0 3px; border-radius: 3px; font-size: 90%; }
        blockquote { margin: 8px 0; padding: 4px 12px; border-left: 4px solid #e6ab02; background: #fffaf0; }
        .charts { display: flex; flex-wrap: wrap; gap: 12px; }
        figure.chart { margin: 0; border: 1px solid #eee; border-radius: 6px; padding: 4px; background: #fff; }
        figure.chart svg { max-width: 100%; height: auto; } figure.chart figcaption { max-width: 590px; font-size: 12px; color: #555; padding: 0 8px 6px; }
        .verdict-better { color: #0a6b2f; } .verdict-equivalent { color: #1f4e9c; } .verdict-inconclusive { color: #777; }
        .glance { background: #f7f9fc; border: 1px solid #dfe6f0; border-radius: 6px; padding: 8px 16px; }
        nav a { margin-right: 12px; }
    """.trimIndent() + "\n" + Svg.TEXT_STYLE

    /** The value of the page's Content-Security-Policy: nothing may load; only the stylesheet above applies. */
    val CONTENT_SECURITY_POLICY =
        "default-src 'none'; style-src 'sha256-${sha256(STYLE)}'; img-src 'none'; base-uri 'none'; form-action 'none'"

    fun page(title: String, lang: String, body: String): String = buildString {
        appendLine("<!DOCTYPE html>")
        appendLine("""<html lang="$lang"><head><meta charset="utf-8">""")
        appendLine("""<meta http-equiv="Content-Security-Policy" content="$CONTENT_SECURITY_POLICY">""")
        appendLine("""<meta name="viewport" content="width=device-width, initial-scale=1">""")
        appendLine("<title>${escape(title)}</title>")
        append("<style>").append(STYLE).appendLine("</style>")
        appendLine("</head><body>")
        append(body)
        appendLine("</body></html>")
    }

    fun escape(text: String): String = buildString(text.length) {
        for (c in text) {
            when (c) {
                '<' -> append("&lt;")
                '>' -> append("&gt;")
                '&' -> append("&amp;")
                '"' -> append("&quot;")
                '\'' -> append("&#39;")
                else -> append(c)
            }
        }
    }

    private fun sha256(text: String): String =
        Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(text.toByteArray(Charsets.UTF_8)))
}
