package io.protobench.bench

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Debian's `chromium` in headless mode, for looking at a page as a person would: a
 * screenshot, and every message the page wrote to its console (a blocked style, script or
 * image under the page's Content-Security-Policy is one). `./protobench test` installs it
 * where it can; [find] is null where it is missing.
 */
class HeadlessChromium private constructor(private val binary: Path) {
    /** What the browser made of a page: the screenshot and the console messages it logged. */
    class Visit(val screenshot: Path, val console: List<String>)

    fun visit(page: Path, screenshot: Path, width: Int, height: Int): Visit {
        val profile = Files.createTempDirectory("chromium-profile")
        val log = Files.createTempFile("chromium", ".log")
        val process = ProcessBuilder(
            binary.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=$profile", "--window-size=$width,$height", "--screenshot=$screenshot",
            "--enable-logging=stderr", "--v=0", page.toUri().toString(),
        ).redirectErrorStream(true).redirectOutput(log.toFile()).start()
        val finished = process.waitFor(90, TimeUnit.SECONDS)
        if (!finished) process.descendants().forEach { it.destroyForcibly() }.also { process.destroyForcibly() }
        val output = Files.readAllLines(log)
        profile.toFile().deleteRecursively()
        Files.delete(log)
        check(finished) { "chromium did not finish within 90 s" }
        check(Files.exists(screenshot)) { "chromium wrote no screenshot: ${output.takeLast(10).joinToString("\n")}" }
        return Visit(screenshot, output.filter { ":CONSOLE" in it })
    }

    companion object {
        fun find(): HeadlessChromium? = listOf("chromium", "chromium-browser", "google-chrome")
            .flatMap { name -> System.getenv("PATH").orEmpty().split(':').map { Path.of(it, name) } }
            .firstOrNull { Files.isExecutable(it) }?.let(::HeadlessChromium)
    }
}
