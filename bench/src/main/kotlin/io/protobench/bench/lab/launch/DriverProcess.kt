package io.protobench.bench.lab.launch

import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import io.protobench.bench.process.ChildEnvironment
import io.protobench.bench.process.ChildProcesses
import io.protobench.driver.Answer
import io.protobench.driver.Command
import io.protobench.driver.Plan
import io.protobench.driver.Summary
import java.io.BufferedWriter
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit

class DriverFailed(message: String) : RuntimeException(message)

/**
 * The lab's load driver (module load-driver) as a child process, one per fork: started
 * with the fork's servers, warmed by its soak like them, told what to run on its stdin and
 * answering each run's [Summary] on its stdout. Its CPU is its own process's, read from
 * /proc like a server's. When this JVM dies, however it dies, the pipe closes and the
 * driver ends at once: no watchdog is needed.
 */
class DriverProcess private constructor(private val process: Process, private val logFile: Path, private val children: ChildProcesses) :
    AutoCloseable {
    val pid: Long get() = process.pid()
    private val commands: BufferedWriter = process.outputStream.bufferedWriter()
    private val answers = LinkedBlockingQueue<String>()

    init {
        // One reader for the driver's answers; a line per run, and the end of the stream when it exits.
        Thread({
            process.inputStream.bufferedReader().useLines { lines -> lines.forEach(answers::put) }
            answers.put(ENDED)
        }, "driver-answers").apply { isDaemon = true }.start()
    }

    /** Runs [plan] to its end: its summary, or [DriverFailed] saying why there is none. */
    fun run(plan: Plan): Summary {
        send(Command(run = plan))
        return await(plan)
    }

    /** Starts [plan] in the background (a soak's mix); [stop] ends it and gives its summary. */
    fun start(plan: Plan) = send(Command(run = plan))

    fun stop(plan: Plan): Summary {
        send(Command(stop = true))
        return await(plan)
    }

    fun alive(): Boolean = process.isAlive

    private fun send(command: Command) {
        try {
            commands.write(json.writeValueAsString(command))
            commands.newLine()
            commands.flush()
        } catch (e: java.io.IOException) {
            throw DriverFailed("the load driver is gone (${e.message}); see $logFile")
        }
    }

    /** The answer to the run of [plan], within its length and the driver's drain and a margin. */
    private fun await(plan: Plan): Summary {
        val limit = Duration.ofMillis(plan.warmUpMs + plan.durationMs).plus(ANSWER_MARGIN)
        val line = answers.poll(limit.toMillis(), TimeUnit.MILLISECONDS)
            ?: throw DriverFailed("the load driver did not answer within ${limit.seconds} s; see $logFile")
        if (line == ENDED) throw DriverFailed("the load driver exited (code ${exitCode()}); see $logFile")
        val answer = json.readValue(line, Answer::class.java)
        return answer.summary ?: throw DriverFailed("the load driver refused the run: ${answer.error}")
    }

    private fun exitCode(): String = if (process.waitFor(2, TimeUnit.SECONDS)) process.exitValue().toString() else "still running"

    /** Closing its input ends the driver; one that does not end within a few seconds is killed. */
    override fun close() {
        runCatching { commands.close() }
        if (!process.waitFor(3, TimeUnit.SECONDS)) process.destroyForcibly().waitFor(5, TimeUnit.SECONDS)
        children.forget(process)
    }

    companion object {
        private val json = jacksonObjectMapper()
        private const val ENDED = "\u0000ended"

        /** Beyond a run's own length: the driver's drain of late answers (10 s) and its start. */
        private val ANSWER_MARGIN: Duration = Duration.ofSeconds(30)

        /**
         * The driver's JVM: a small heap and the serial collector (one thread, no concurrent
         * work on cores the servers need), one event loop (its own setting).
         */
        val JVM_OPTIONS = listOf("-Xms256m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:+ExitOnOutOfMemoryError")

        /** Starts the driver [jar] with [java], placed on its cores; its stderr goes to [logFile]. */
        fun start(java: Path, jar: Path, logFile: Path, placement: CpuPlacement, children: ChildProcesses): DriverProcess {
            val command = listOf(java.toString()) + JVM_OPTIONS + listOf("-jar", jar.toString(), "serve")
            val builder = ProcessBuilder(placement.wrap(NAME, command)).redirectError(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
            ChildEnvironment.apply(builder, emptyMap())
            val process = builder.start().also(children::track)
            return DriverProcess(process, logFile, children)
        }

        /** Its name among the processes whose CPU a trial reads and the placement pins. */
        const val NAME = CpuPlacement.LOAD
    }
}
