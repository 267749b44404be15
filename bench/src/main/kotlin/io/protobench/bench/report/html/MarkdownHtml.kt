package io.protobench.bench.report.html

import org.commonmark.ext.gfm.tables.TableCell
import org.commonmark.ext.gfm.tables.TablesExtension
import org.commonmark.node.AbstractVisitor
import org.commonmark.node.Block
import org.commonmark.node.BlockQuote
import org.commonmark.node.Code
import org.commonmark.node.FencedCodeBlock
import org.commonmark.node.Heading
import org.commonmark.node.HtmlInline
import org.commonmark.node.Image
import org.commonmark.node.IndentedCodeBlock
import org.commonmark.node.ListBlock
import org.commonmark.node.Node
import org.commonmark.node.Paragraph
import org.commonmark.node.SoftLineBreak
import org.commonmark.node.Text
import org.commonmark.node.ThematicBreak
import org.commonmark.parser.Parser
import org.commonmark.parser.PostProcessor
import org.commonmark.renderer.NodeRenderer
import org.commonmark.renderer.html.AttributeProvider
import org.commonmark.renderer.html.HtmlNodeRendererContext
import org.commonmark.renderer.html.HtmlRenderer

/**
 * The Markdown the reports write (report.md, compare.md) as HTML, read by commonmark-java with
 * GFM pipe tables. The reports' words have one home (the Markdown renderers); this only changes
 * their dress. Beyond CommonMark, the page relies on three things:
 * - every heading has an id, [anchor] of its text, which the report's navigation links to;
 * - a body cell of a right-aligned column has the class `num`, which the stylesheet right-aligns
 *   (the stylesheet decides alignment, so no cell keeps an `align` attribute);
 * - each line of a block quote is a paragraph of its own, since the reports write one flag a line.
 *
 * Raw HTML is escaped, not passed: the Markdown carries the scenario's own text (its name,
 * description, variants' settings and JVM options), which must not inject markup. The one tag
 * passed is `<br>`, which the variants' table writes between the settings in a cell. HTML blocks
 * are not parsed at all, so a line that begins with a tag is a paragraph whose Markdown is still
 * read. An image shows its alt text only: the page loads nothing (see [Html]).
 */
object MarkdownHtml {
    private val extensions = listOf(TablesExtension.create())
    private val BREAK = Regex("<br\\s*/?>", RegexOption.IGNORE_CASE)

    /** CommonMark's block types but the HTML block. */
    private val blocks: Set<Class<out Block>> = setOf(
        Heading::class.java,
        BlockQuote::class.java,
        ListBlock::class.java,
        FencedCodeBlock::class.java,
        IndentedCodeBlock::class.java,
        ThematicBreak::class.java,
    )

    // Both are immutable once built and safe to share between threads.
    private val parser = Parser.builder().extensions(extensions).enabledBlockTypes(blocks).postProcessor(QuoteLines).build()
    private val renderer = HtmlRenderer.builder().extensions(extensions).escapeHtml(true).sanitizeUrls(true)
        .attributeProviderFactory { ReportAttributes }
        .nodeRendererFactory { ReportNodes(it) }
        .build()

    fun toHtml(markdown: String): String = renderer.render(parser.parse(markdown))

    /** An id for a heading: the words in lower case joined by dashes, e.g. "size=1kb vus=10" → "size-1kb-vus-10". */
    fun anchor(text: String): String = text.lowercase().replace(Regex("[^\\p{L}\\p{N}]+"), "-").trim('-')

    /** A heading's id and a table cell's class, as the page's links and stylesheet expect them. */
    private object ReportAttributes : AttributeProvider {
        override fun setAttributes(node: Node, tagName: String, attributes: MutableMap<String, String>) {
            if (node is Heading) attributes["id"] = anchor(plainText(node))
            if (node is TableCell) {
                attributes.remove("align")
                if (!node.isHeader && node.alignment == TableCell.Alignment.RIGHT) attributes["class"] = "num"
            }
        }
    }

    /** The words of [node] without their markup: its text and code spans. */
    private fun plainText(node: Node): String = buildString {
        node.accept(object : AbstractVisitor() {
            override fun visit(text: Text) {
                append(text.literal)
            }
            override fun visit(code: Code) {
                append(code.literal)
            }
        })
    }

    /** Each paragraph of a block quote split at its line ends, into one paragraph a line. */
    private object QuoteLines : PostProcessor {
        override fun process(document: Node): Node = document.also {
            it.accept(object : AbstractVisitor() {
                override fun visit(blockQuote: BlockQuote) {
                    children(blockQuote).filterIsInstance<Paragraph>().forEach(::split)
                    visitChildren(blockQuote)
                }
            })
        }

        private fun split(paragraph: Paragraph) {
            var current = paragraph
            for (child in children(paragraph)) {
                if (child is SoftLineBreak) {
                    current = Paragraph().also(current::insertAfter)
                    child.unlink()
                } else if (current !== paragraph) {
                    current.appendChild(child) // appending unlinks it from the paragraph before
                }
            }
        }
    }

    /** [node]'s children as they are now, so that moving them does not break the walk. */
    private fun children(node: Node): List<Node> = generateSequence(node.firstChild) { it.next }.toList()

    /** The nodes drawn otherwise than CommonMark draws them; see [MarkdownHtml] for why. */
    private class ReportNodes(private val context: HtmlNodeRendererContext) : NodeRenderer {
        private val html = context.writer

        override fun getNodeTypes(): Set<Class<out Node>> = setOf(HtmlInline::class.java, Image::class.java)

        override fun render(node: Node) {
            when (node) {
                is HtmlInline -> if (BREAK.matches(node.literal)) html.raw("<br>") else html.text(node.literal)
                is Image -> children(node).forEach(context::render)
            }
        }
    }
}
