package io.protobench.driver

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.databind.DeserializationFeature
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.module.kotlin.jacksonObjectMapper
import com.fasterxml.jackson.module.kotlin.readValue
import java.io.PrintStream
import java.net.InetSocketAddress
import java.net.Socket
import java.net.URI
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Executors
import kotlin.system.exitProcess

private const val USAGE = """usage:
  load-driver run PLAN.json [--summary FILE]   one run; its summary (JSON) on stdout or in FILE
      [--part I/N | --job-part N]             part I of N (from 0; --job-part: I is JOB_COMPLETION_INDEX)
                                              sends its share; its output is then the plan, summary
                                              and histogram log after marker lines, for protobench merge
  load-driver serve                           runs on command: one JSON object a line on stdin,
                                              {"run": PLAN} or {"stop": true}; each run's answer,
                                              {"summary": …} or {"error": "…"}, a line on stdout.
                                              Exits at the end of its input (its parent gone)."""

/** A command of `serve`: start [run], or [stop] the run going. */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class Command(val run: Plan? = null, val stop: Boolean? = null)

/** What `serve` answers for each run: its summary, or why it could not be made. */
@JsonInclude(JsonInclude.Include.NON_NULL)
data class Answer(val summary: Summary? = null, val error: String? = null)

val json: ObjectMapper = jacksonObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)

/** A plan that cannot run: what was wrong, said to the person or the runner that gave it. */
class PlanRefused(message: String) : RuntimeException(message)

fun main(args: Array<String>) {
    when (args.firstOrNull()) {
        "serve" -> serve()
        "run" -> runOnce(args.drop(1))
        else -> fail(if (args.isEmpty()) "no command given" else "unknown command '${args[0]}'")
    }
}

private fun fail(message: String): Nothing {
    System.err.println("load-driver: $message\n$USAGE")
    exitProcess(2)
}

private fun runOnce(args: List<String>) {
    val planFile = args.firstOrNull()?.let(Path::of) ?: fail("run needs a plan file")
    val summaryAt = args.indexOf("--summary").takeIf { it >= 0 }?.let { args.getOrNull(it + 1) ?: fail("--summary needs a file") }
    val plan = try {
        json.readValue<Plan>(planFile.toFile())
    } catch (e: Exception) {
        fail("cannot read the plan $planFile: ${e.message?.lineSequence()?.first()}")
    }
    val part = try {
        Part.fromArgs(args, System::getenv)
    } catch (e: PlanRefused) {
        fail(e.message!!)
    }
    val text = try {
        if (part != null) PartOutput.run(plan, part).render() else json.writeValueAsString(LoadRun(checked(plan)).execute())
    } catch (e: PlanRefused) {
        System.err.println("load-driver: ${e.message}")
        exitProcess(2)
    }
    if (summaryAt == null) println(text) else Files.writeString(Path.of(summaryAt), text)
}

/**
 * Runs on command until stdin ends: the runner keeps one driver per fork, so the driver
 * warms in the soak as the servers do, and a runner that dies (SIGKILL included) closes
 * the pipe, which ends the driver at once.
 */
private fun serve() {
    Thread(::preloadClients, "driver-preload").apply { isDaemon = true }.start()
    val out = PrintStream(java.io.FileOutputStream(java.io.FileDescriptor.out), true, Charsets.UTF_8)
    val worker = Executors.newSingleThreadExecutor { Thread(it, "driver-run").apply { isDaemon = true } }
    var current: LoadRun? = null
    val busy = java.util.concurrent.atomic.AtomicBoolean()
    val input = System.`in`.bufferedReader()
    while (true) {
        val line = input.readLine() ?: break
        if (line.isBlank()) continue
        val command = try {
            json.readValue<Command>(line)
        } catch (e: Exception) {
            answer(out, Answer(error = "not a command: ${e.message?.lineSequence()?.first()}"))
            continue
        }
        when {
            command.stop == true -> current?.stop()

            command.run != null && busy.get() -> answer(out, Answer(error = "a run is going: stop it before the next"))

            command.run != null -> {
                val run = try {
                    LoadRun(checked(command.run))
                } catch (e: PlanRefused) {
                    answer(out, Answer(error = e.message))
                    continue
                }
                current = run
                busy.set(true)
                worker.execute {
                    val result = runCatching { run.execute() }
                    busy.set(false)
                    answer(out, result.fold({ Answer(summary = it) }, { Answer(error = Calls.describe(it)) }))
                }
            }

            else -> answer(out, Answer(error = "a command has \"run\" or \"stop\""))
        }
    }
    // The parent is gone: nothing to hand results to, so no graceful end either.
    Runtime.getRuntime().halt(0)
}

@Synchronized
private fun answer(out: PrintStream, answer: Answer) = out.println(json.writeValueAsString(answer))

/** [plan] when it can run: its problems, and a server that accepts no connection, refused before any call. */
fun checked(plan: Plan): Plan {
    val problems = plan.problems()
    if (problems.isNotEmpty()) throw PlanRefused("the plan cannot run: " + problems.joinToString("; "))
    val uri = URI(plan.baseUrl)
    if (plan.targets.any { !it.grpc }) {
        reachable(
            uri.host,
            if (uri.port > 0) {
                uri.port
            } else if (uri.scheme == "https") {
                443
            } else {
                80
            },
        )
    }
    plan.grpcAddress?.takeIf { plan.targets.any { it.grpc } }
        ?.let { reachable(it.substringBeforeLast(':'), it.substringAfterLast(':').toInt()) }
    return plan
}

private fun reachable(host: String, port: Int) {
    try {
        Socket().use { it.connect(InetSocketAddress(host, port), CONNECT_CHECK_MS) }
    } catch (e: Exception) {
        throw PlanRefused("cannot reach $host:$port (${e.message}): is the server up?")
    }
}

private const val CONNECT_CHECK_MS = 2000

/**
 * Loads the clients' classes while the runner starts the servers: one call each over HTTP
 * (both clients) and gRPC to a port nobody listens on. Cold, a direct run's first calls
 * wait seconds for Reactor Netty's and grpc-java's classes on a busy 2-core machine, and
 * a soak's first windows see no calls at all.
 */
private fun preloadClients() {
    val nowhere = CallTarget("/", value = 0)
    val clients = listOf(
        { Http1Calls(NOWHERE_URL, 1) },
        { ReactorHttpCalls(NOWHERE_URL, 1) },
        { GrpcCalls(NOWHERE_GRPC, 1, 1) },
    )
    for (open in clients) {
        runCatching {
            open().use { calls ->
                val done = java.util.concurrent.CountDownLatch(1)
                val target =
                    if (calls is GrpcCalls) nowhere.copy(path = GrpcCalls.GET_DATA, transport = CallTarget.GRPC, size = "1kb") else nowhere
                calls.call(target, AnswerCheck(target), null) { done.countDown() }
                done.await(PRELOAD_WAIT_S, java.util.concurrent.TimeUnit.SECONDS)
            }
        }
    }
}

/** Port 1 on loopback: refused at once, which is all a preload needs. */
private const val NOWHERE_URL = "http://127.0.0.1:1"
private const val NOWHERE_GRPC = "127.0.0.1:1"
private const val PRELOAD_WAIT_S = 10L
