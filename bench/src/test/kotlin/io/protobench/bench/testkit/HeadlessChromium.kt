package io.protobench.bench.testkit

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Debian's `chromium` in headless mode, for looking at a page as a person would: a
 * screenshot, every message the page wrote to its console (a blocked style, script or
 * image under the page's Content-Security-Policy is one), and the document as the browser
 * built it. `./protobench test` installs it where it can; [find] is null where it is missing.
 */
class HeadlessChromium private constructor(private val binary: Path) {
    /** What the browser made of a page: the screenshot and the console messages it logged. */
    class Visit(val screenshot: Path, val console: List<String>)

    fun visit(page: Path, screenshot: Path, width: Int, height: Int): Visit {
        val output = run(
            page,
            withLog = true,
            "--hide-scrollbars",
            "--window-size=$width,$height",
            "--screenshot=$screenshot",
            "--enable-logging=stderr",
            "--v=0",
        )
        check(Files.exists(screenshot)) { "chromium wrote no screenshot: ${output.lines().takeLast(10).joinToString("\n")}" }
        return Visit(screenshot, output.lines().filter { ":CONSOLE" in it })
    }

    /** The document as the browser parsed and laid it out (`--dump-dom`), to read the text it shows. */
    fun dom(page: Path): String = run(page, withLog = false, "--dump-dom").also { dom ->
        check(dom.contains("<body")) { "chromium dumped no document for $page: ${dom.takeLast(500)}" }
    }

    /** Chromium on [page] with [options] and a profile of its own; what it wrote to stdout, and to stderr [withLog]. */
    private fun run(page: Path, withLog: Boolean, vararg options: String): String {
        val profile = Files.createTempDirectory("chromium-profile")
        val log = Files.createTempFile("chromium", ".log")
        val process = ProcessBuilder(
            listOf(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=$profile") +
                options + page.toUri().toString(),
        ).redirectErrorStream(withLog).redirectOutput(log.toFile())
            .apply { if (!withLog) redirectError(ProcessBuilder.Redirect.DISCARD) }.start()
        val finished = process.waitFor(90, TimeUnit.SECONDS)
        if (!finished) process.descendants().forEach { it.destroyForcibly() }.also { process.destroyForcibly() }
        val output = Files.readString(log)
        profile.toFile().deleteRecursively()
        Files.delete(log)
        check(finished) { "chromium did not finish within 90 s" }
        return output
    }

    companion object {
        fun find(): HeadlessChromium? = listOf("chromium", "chromium-browser", "google-chrome")
            .flatMap { name -> System.getenv("PATH").orEmpty().split(':').map { Path.of(it, name) } }
            .firstOrNull { Files.isExecutable(it) }?.let(::HeadlessChromium)
    }
}
