package io.protobench.bench.run

import io.protobench.bench.design.Fork
import io.protobench.bench.design.Lab
import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.lab.LocalLabSource
import io.protobench.bench.lab.launch.NoSuchJdk
import io.protobench.bench.lab.launch.ToolchainProblem
import io.protobench.bench.lab.remote.RemoteUnreachable
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.report.Analysis
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.testkit.FakeLabSource
import io.protobench.bench.testkit.HeldHooks
import io.protobench.bench.testkit.StepClock
import io.protobench.bench.testkit.SyntheticLab
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit

/** The run shell on fake labs: folders, run.json, resume, refusals, sealing on a signal. No process is started. */
class BenchmarkRunnerTest {
    @TempDir
    lateinit var tmp: Path

    private val results get() = tmp.resolve("results")

    private val scenario = ScenarioParser.parse(
        """
        name: shell
        sizes: [1kb]
        protocols: [HTTP/JSON, gRPC/Unary]
        load: {model: closed, vus: [10]}
        duration: 5s
        forks: 2
        maxForks: 2
        soak: {window: 3s, min: 6s, max: 30s}
        """.trimIndent(),
        "shell.yaml",
    )

    private fun options(seed: Long = 5) =
        RunOptions(results, listOf("-Xmx512m"), emptyList(), emptyList(), seed, given = mapOf("test" to "shell"))

    /** A runner on [labs] whose finished records are collected in [finished]. */
    private fun runner(
        labs: LabSource,
        clock: StepClock,
        finished: MutableList<RunRecord> = mutableListOf(),
        hooks: ShutdownHooks = HeldHooks(),
    ) = BenchmarkRunner(labs, Analysis.judge, clock, progress = {}, onFinished = { _, record -> finished += record }, hooks = hooks)

    private fun runFolders(): List<Path> = if (Files.isDirectory(results)) Files.list(results).use { it.toList() } else emptyList()

    @Test
    fun `a run writes one folder whose run_json holds the lab's environment, every fork and the servers started`() {
        val clock = StepClock()
        val labs = FakeLabSource(SyntheticLab(clock))
        val finished = mutableListOf<RunRecord>()

        val store = runner(labs, clock, finished).run(scenario, options())
        val record = RunStore.load(store.dir)

        assertThat(runFolders()).containsExactly(store.dir)
        assertThat(store.dir.fileName.toString()).endsWith("-shell")
        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.forks.map { it.status }).containsExactly(ForkStatus.COMPLETE, ForkStatus.COMPLETE)
        assertThat(record.environment.cpuModel).isEqualTo("Fake CPU")
        assertThat(record.environment.serverCommands).containsKey("api-server")
        assertThat(record.finishedAt).isNotNull()
        assertThat(finished.map { it.status }).containsExactly(RunStatus.COMPLETE)
        // Prepared, opened, children stopped at the end, then everything released in order.
        assertThat(labs.events).containsExactly("prepare", "open", "stop children", "close", "release")
    }

    @Test
    fun `an interrupted run is resumed in its own folder, keeping the fork it measured`() {
        val clock = StepClock()
        val store = runner(FakeLabSource(SyntheticLab(clock)), clock).run(scenario, options())
        val full = RunStore.load(store.dir)
        // Cut the finished run back to its first fork, the second cut short while running.
        val cut = full.forks[1].copy(status = ForkStatus.RUNNING, trials = full.forks[1].trials.take(1), finishedAt = null)
        store.save(full.copy(status = RunStatus.INTERRUPTED, forks = listOf(full.forks[0], cut), planning = null))

        runner(FakeLabSource(SyntheticLab(clock)), clock).run(scenario, options(), resumed = store)
        val resumed = RunStore.load(store.dir)

        assertThat(runFolders()).containsExactly(store.dir)
        assertThat(resumed.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(resumed.forks.first()).isEqualTo(full.forks.first())
        assertThat(resumed.forks[1].status).isEqualTo(ForkStatus.INTERRUPTED)
        assertThat(resumed.forks.drop(2)).isNotEmpty.allSatisfy { assertThat(it.status).isEqualTo(ForkStatus.COMPLETE) }
        assertThat(resumed.environment.resumedAt).hasSize(1)
    }

    @Test
    fun `bad input found while the lab is prepared stops the run before a results folder exists`() {
        val clock = StepClock()
        val refusals = listOf(
            ToolchainProblem("k6 is not installed"),
            RemoteUnreachable("127.0.0.1 port 9 (HTTP) could not be reached"),
            NoSuchJdk("no JDK 99 is installed"),
        )
        for (refusal in refusals) {
            val error = runCatching { runner(FakeLabSource(SyntheticLab(clock), refusal), clock).run(scenario, options()) }
                .exceptionOrNull()
            assertThat(error).isSameAs(refusal)
            assertThat(results).doesNotExist()
        }
    }

    @Test
    fun `the real lab without server jars refuses before a results folder exists, naming the build`() {
        val emptyProject = Files.createDirectories(tmp.resolve("project"))
        val error = runCatching { BenchmarkRunner(LocalLabSource(emptyProject), Analysis.judge, progress = {}).run(scenario, options()) }
            .exceptionOrNull()

        assertThat(error).isInstanceOf(ToolchainProblem::class.java)
            .hasMessageContaining("no runnable jar for data-server").hasMessageContaining("mvn -B -DskipTests package")
        assertThat(results).doesNotExist()
    }

    @Test
    fun `a server that refuses its settings fails the run, sealed, and is thrown for the command to report`() {
        val clock = StepClock()
        val refusing = object : Lab {
            override fun startFork(index: Int, variant: io.protobench.bench.scenario.Variant?): Fork = throw ServerSettingRejected(
                "unknown setting protobench.gateway.http.verison: did you mean protobench.gateway.http.version?",
            )
        }
        val finished = mutableListOf<RunRecord>()

        assertThatThrownBy { runner(FakeLabSource(refusing), clock, finished).run(scenario, options()) }
            .isInstanceOf(ServerSettingRejected::class.java).hasMessageContaining("did you mean")
        val record = RunStore.load(runFolders().single())
        assertThat(record.status).isEqualTo(RunStatus.FAILED)
        assertThat(record.failure).contains("did you mean")
        assertThat(finished.map { it.status }).containsExactly(RunStatus.FAILED)
    }

    @Test
    fun `a run whose forks all fail is sealed failed, with every fork's reason kept`() {
        val clock = StepClock()
        val finished = mutableListOf<RunRecord>()

        val store = runner(FakeLabSource(SyntheticLab(clock, forkFailure = "the gateway did not come up within 60 s")), clock, finished)
            .run(scenario, options())
        val record = RunStore.load(store.dir)

        assertThat(record.status).isEqualTo(RunStatus.FAILED)
        assertThat(record.failure).isEqualTo("no fork completed; see the fork failures")
        assertThat(record.forks).isNotEmpty.allSatisfy {
            assertThat(it.status).isEqualTo(ForkStatus.FAILED)
            assertThat(it.failure).contains("the gateway did not come up")
        }
        assertThat(record.trials).isEmpty()
        assertThat(finished).hasSize(1)
    }

    @Test
    fun `a signal during a trial seals the run as interrupted once, keeping the trials measured before it`() {
        val clock = StepClock()
        val hooks = HeldHooks()
        val inThirdTrial = CountDownLatch(1)
        val released = CountDownLatch(1)
        // The third trial blocks until the children are stopped, as a trial does whose k6 is killed.
        val lab = SyntheticLab(clock, beforeTrial = { n ->
            if (n == 3) {
                inThirdTrial.countDown()
                released.await(10, TimeUnit.SECONDS)
            }
        })
        val finished = java.util.Collections.synchronizedList(mutableListOf<RunRecord>())
        val stores = mutableListOf<RunStore>()
        val run = Thread { stores += runner(FakeLabSource(lab), clock, finished, hooks).run(scenario, options()) }

        run.start()
        assertThat(inThirdTrial.await(10, TimeUnit.SECONDS)).isTrue()
        val hook = hooks.added.single()
        hook.start() // what the JVM does on SIGTERM
        Thread.sleep(100)
        released.countDown()
        run.join(10_000)

        assertThat(run.isAlive).isFalse()
        val record = RunStore.load(stores.single().dir)
        assertThat(record.status).isEqualTo(RunStatus.INTERRUPTED)
        assertThat(record.failure).contains("stopped by a signal")
        assertThat(record.trials).hasSizeGreaterThanOrEqualTo(2)
        assertThat(finished.map { it.status }).containsExactly(RunStatus.INTERRUPTED)
        assertThat(Files.list(stores.single().dir).use { files -> files.filter { it.toString().endsWith(".tmp") }.toList() }).isEmpty()
        assertThat(hooks.added).isEmpty()
    }
}
