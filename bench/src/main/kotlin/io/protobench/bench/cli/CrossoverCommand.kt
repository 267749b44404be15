package io.protobench.bench.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.multiple
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.required
import com.github.ajalt.clikt.parameters.types.double
import com.github.ajalt.clikt.parameters.types.int
import com.github.ajalt.clikt.parameters.types.long
import io.protobench.bench.crossover.BenchmarkPoints
import io.protobench.bench.crossover.CrossoverPlan
import io.protobench.bench.crossover.CrossoverReport
import io.protobench.bench.crossover.CrossoverRequest
import io.protobench.bench.crossover.CrossoverRun
import io.protobench.bench.crossover.CrossoverStore
import io.protobench.bench.crossover.InvalidCrossover
import io.protobench.bench.lab.LocalLabSource
import io.protobench.bench.lab.launch.Toolchain
import io.protobench.bench.lab.launch.ToolchainProblem
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.message.MessagePreparation
import io.protobench.bench.message.MessageProblem
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.MessageFile
import io.protobench.bench.text.Lang
import io.protobench.bench.text.Texts
import java.io.IOException
import java.nio.file.Path
import java.time.Instant
import kotlin.random.Random

/**
 * `protobench crossover`: where the answer between two protocols flips along an axis.
 * Exit 0 when the search completed (a flip or none), 2 on bad input (nothing ran, nothing
 * created), 3 when a point's run failed or was interrupted (every point measured is kept).
 */
class CrossoverCommand : CliktCommand(name = "crossover") {
    override fun help(context: Context) =
        "Find where the answer between two protocols flips along size, complexity, VUs or rate: both ends, then bisection; " +
            "writes results/<time>-crossover/ with crossover.md and one run folder per point."

    private val pair by option("--pair", help = "The two protocols, e.g. gRPC/Unary,HTTP/Binary").required()
    private val axis by option(
        "--axis",
        help = "size, complexity, vus, rate or count (your own message's items, with --message)",
    ).required()
    private val from by option("--from", help = "Lower end of the range, e.g. 10kb, simple, 10 (count: 1)").required()
    private val to by option("--to", help = "Upper end of the range, e.g. 2mb, extreme, 500").required()
    private val resolution by option(
        "--resolution",
        help = "Stop when a bracket's ends are within this ratio (size, vus, rate; default 1.25)",
    ).double().default(CrossoverPlan.DEFAULT_RESOLUTION)
    private val steps by option(
        "--steps",
        help = "Most midpoints measured after the ends (default 6)",
    ).int().default(CrossoverPlan.DEFAULT_STEPS)
    private val size by option("--size", help = "Payload size when the axis is vus or rate (default 1kb)")
    private val vus by option("--vus", help = "Virtual users when the axis is not vus (default 10)").int()
    private val mode by option("--mode", help = "cost (hop CPU per request compared; default) or capacity (throughput compared)")
    private val figure by option(
        "--figure",
        help = "Compared at every point: in cost mode hop-cpu (default) or hop-p50, in capacity mode throughput",
    )
    private val forks by option(
        "--forks",
        help = "Forks every point gets (default ${CrossoverPlan.DEFAULT_FORKS}), decided in one look at the full alpha",
    ).int().default(CrossoverPlan.DEFAULT_FORKS)
    private val maxForks by option(
        "--max-forks",
        help = "Most forks a point gets while the pair is undecided there (default: --forks; more looks split alpha among them)",
    ).int()
    private val duration by option(
        "--duration",
        help = "Measured time per arm per fork (default 5s)",
    ).default(CrossoverPlan.DEFAULT_DURATION)
    private val margin by option("--margin", help = "Practical margin of equivalence (default 5%)")
    private val utilisation by option(
        "--utilisation",
        help = "Cost mode: each point's rate as a share of the slowest protocol's capacity there, e.g. 30% (default 50%)",
    )
    private val edge by option(
        "--edge",
        help = "When one end is won and the other has no winner, search where that lead stops being shown (default: stop after the ends)",
    ).flag()
    private val seed by option("--seed", help = "Seed of every shuffle; point n uses seed + n (default: random, recorded)").long()
    private val resultsDir by option("--results", help = "Folder for the search folder (default: results/)").default("results")
    private val lang by option(
        "--lang",
        help = "Language of crossover.md and of each point's report: ${Lang.accepted}; default en",
    ).default("en")

    private val message by option("--message", help = "Your own message type for --axis count, e.g. shop.Order (with --proto and --sample)")
    private val proto by option("--proto", help = MessageCommand.PROTO_HELP)
    private val sample by option("--sample", help = "One --message as JSON (protobuf's JSON mapping)")
    private val protoPath by option("-I", "--proto-path", help = "A folder the .proto's imports are relative to (repeatable)").multiple()

    override fun run() {
        val texts = Lang.parse(lang)?.let(Texts::of)
            ?: fail("--lang $lang: no report in that language; accepted: ${Lang.accepted}", EXIT_BAD_INPUT)
        val own = message?.let { MessageFile(proto, it, sample, protoPath.ifEmpty { null }) }
        val request = CrossoverRequest(
            pair, axis, from, to, resolution, steps, size, vus, mode, figure, forks, maxForks, duration, margin, own, utilisation,
            edge = edge,
        )
        val plan = try {
            CrossoverPlan.of(request)
        } catch (e: InvalidCrossover) {
            fail(e.message, EXIT_BAD_INPUT)
        }
        plan.message?.let { m ->
            try {
                MessagePreparation.check(Path.of(m.proto), m.type, Path.of(m.sample), m.includes.map(Path::of))
            } catch (e: MessageProblem) {
                fail("cannot run: --message ${m.type}: ${e.message}", EXIT_BAD_INPUT)
            }
        }
        val project = projectDir()
        try {
            // Missing tools are bad input: found out before a results folder exists.
            Toolchain(project).apply {
                serverJar("data-server")
                serverJar("api-server")
                serverJar("load-driver")
            }
        } catch (e: ToolchainProblem) {
            fail("cannot run: ${e.message}", EXIT_BAD_INPUT)
        }
        val root = project.resolve(resultsDir)
        val store = try {
            CrossoverStore(RunStore.create(root, BenchmarkPoints.folderName(Instant.now())).dir, texts)
        } catch (e: IOException) {
            fail("cannot write results under $root (${e.message}); give --results a writable folder", EXIT_BAD_INPUT)
        }
        ChildProcesses.reapStale(root).forEach { echo(it, err = true) }
        echo(
            "crossover ${plan.a.label} vs ${plan.b.label} by ${plan.axis.id} from ${plan.axis.display(plan.from)} to " +
                "${plan.axis.display(plan.to)}, comparing ${plan.figure.title} (${plan.mode.id} mode): ${plan.estimate()}",
        )
        echo("results: ${store.dir}")
        val seed = seed ?: Random.nextLong()
        val given = mapOf("crossover" to store.dir.fileName.toString(), "pair" to pair, "axis" to axis, "from" to from, "to" to to)
        val points = BenchmarkPoints(
            LocalLabSource(project),
            store.dir,
            plan.verdict,
            seed,
            given,
            progress = { echo(it, err = true) },
            texts = texts,
        )
        val record = try {
            CrossoverRun(plan, store, points, seed, progress = { echo(it, err = true) }).run()
        } catch (e: IOException) {
            fail("cannot write ${store.dir.resolve("crossover.json")}: ${e.message}; every point's run folder is kept", EXIT_RUN_FAILED)
        }
        echo("")
        CrossoverReport.summary(record, texts).forEach { echo(it) }
        echo("details: ${store.dir.resolve("crossover.md")}")
        if (record.status != RunStatus.COMPLETE) throw ProgramResult(EXIT_RUN_FAILED)
    }

    private fun fail(message: String?, code: Int): Nothing {
        echo(message, err = true)
        throw ProgramResult(code)
    }

    private companion object {
        // The exit codes of every protobench command (see Main.kt).
        const val EXIT_BAD_INPUT = 2
        const val EXIT_RUN_FAILED = 3
    }
}
