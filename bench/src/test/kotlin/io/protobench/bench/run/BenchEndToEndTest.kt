package io.protobench.bench.run

import io.protobench.bench.crossover.BenchmarkPoints
import io.protobench.bench.crossover.CrossoverPlan
import io.protobench.bench.crossover.CrossoverRequest
import io.protobench.bench.crossover.CrossoverRun
import io.protobench.bench.crossover.CrossoverStore
import io.protobench.bench.crossover.PointOutcome
import io.protobench.bench.crossover.PointRunner
import io.protobench.bench.database.PostgresBinaries
import io.protobench.bench.design.ServerSettingRejected
import io.protobench.bench.lab.LocalLabSource
import io.protobench.bench.lab.clients.ControlHttp
import io.protobench.bench.lab.remote.RemoteCheck
import io.protobench.bench.lab.remote.RemoteUnreachable
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.Flag
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.LinkRecord
import io.protobench.bench.measure.RemoteServersRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialKind
import io.protobench.bench.network.LinkSetupFailed
import io.protobench.bench.network.NetworkCapabilities
import io.protobench.bench.network.Shell
import io.protobench.bench.process.ChildProcesses
import io.protobench.bench.report.Analysis
import io.protobench.bench.report.ReportWriter
import io.protobench.bench.run.BenchmarkRunner
import io.protobench.bench.run.Remote
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.scenario.MessageFile
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.ScenarioParser
import io.protobench.bench.scenario.Soak
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.PROCESS
import io.protobench.bench.testkit.SLOW
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Assumptions.assumeTrue
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import kotlin.math.floor

/**
 * Tiny scenarios through the lab's load driver and the real servers (their exec jars, built
 * earlier in the reactor). The seed project's k6 scripts' requests are replayed against the
 * gateway in api-server's SeedScriptsReplayTest, without k6. The untagged tests guard the main
 * path in `./protobench test`; those tagged [SLOW] run with `--all` (and in CI). What the run
 * shell does without servers (resume, refusals, sealing) is tested on fake labs in BenchmarkRunnerTest.
 */
@Tag(PROCESS)
class BenchEndToEndTest {
    /** Surefire runs in bench/; the project root holds the server modules and tools/. */
    private val projectDir: Path = Path.of("").toAbsolutePath().parent

    private fun options(results: Path, seed: Long) = RunOptions(
        results,
        listOf("-Xms256m", "-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
        emptyList(),
        emptyList(),
        seed,
        given = mapOf("test" to "e2e"),
    )

    @Test
    fun `a tiny cost-mode scenario runs two forks with the null hop and a calibrated rate`(@TempDir results: Path) {
        val scenario = tinyScenario

        val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options(results, 7))
        val record = RunStore.load(store.dir)

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.forks).hasSize(2).allSatisfy { fork ->
            assertThat(fork.status).isEqualTo(ForkStatus.COMPLETE)
            assertThat(fork.soak!!.windows).isNotEmpty
            assertThat(fork.trials.map { it.kind to it.arm }).containsExactlyInAnyOrder(
                TrialKind.CAPACITY to "HTTP/JSON",
                TrialKind.CAPACITY to "gRPC/Unary",
                TrialKind.COST to "HTTP/JSON",
                TrialKind.COST to "gRPC/Unary",
                TrialKind.COST to "Null hop",
            )
        }
        val rate = record.calibrations.single().ratePerSecond
        record.trials.forEach { trial ->
            assertThat(trial.error).isNull()
            assertThat(trial.valid).isTrue()
            assertThat(trial.correctAnswers).isPositive()
            assertThat(trial.figures[Figure.THROUGHPUT]).isPositive()
            assertThat(trial.figures[Figure.API_CPU_US]).isPositive()
            assertThat(trial.gateway!!.protocol).isEqualTo(trial.arm)
            if (trial.kind == TrialKind.COST) assertThat(trial.load.label).isEqualTo("rate=$rate/s")
            // A fixed rate has due times, so the driver's own send delay is known; a closed probe has none.
            assertThat(trial.figures[Figure.SEND_DELAY_P99] != null).describedAs(trial.arm).isEqualTo(trial.kind == TrialKind.COST)
        }
        // The null hop never calls the data-server: its hop latency is zero and it moves no bytes on the hop.
        val nullHop = record.trials.filter { it.arm == "Null hop" }
        assertThat(nullHop).allSatisfy { assertThat(it.gateway!!.dataTransfer.totalBytes).isZero() }
        assertThat(record.environment.loadGenerator).startsWith("Proto-Bench load driver")
        assertThat(record.environment.k6).isNull()
        // Every trial was driven by the lab's driver: its own summary, and its CPU measured apart.
        assertThat(record.trials).allSatisfy { trial ->
            assertThat(trial.driver!!.timed.answered + trial.driver!!.warmUp.answered).isEqualTo(trial.correctAnswers + trial.wrongAnswers)
            assertThat(trial.figures[Figure.DRIVER_CPU_US]).isPositive()
            assertThat(trial.k6?.isNull ?: true).isTrue() // JSON null reads back as a NullNode
            // Its latency as a standard HdrHistogram log, one per trial, as many calls as it timed.
            val log = store.dir.resolve(trial.driver!!.histogramLog!!)
            val timed = org.HdrHistogram.HistogramLogReader(log.toFile()).use { reader ->
                generateSequence { reader.nextIntervalHistogram() as org.HdrHistogram.Histogram? }.sumOf { it.totalCount }
            }
            assertThat(timed).isEqualTo(trial.driver!!.latency!!.count)
        }
        assertThat(record.environment.gitCommit).isNotNull()
        assertThat(record.planning).isNotNull()

        val report = Files.readString(ReportWriter.write(store.dir, record))
        assertThat(report).contains(
            "## size=1kb vus=2",
            "| HTTP/JSON |",
            "Null hop",
            "Hop CPU",
            "Protocol selection guide",
            "## Forks",
            "Driver send delay p99",
            "**New connections**: end-to-end p50 ms by the call's place on the driver's connection to the gateway",
        ).doesNotContain("(topology direct)")
        // report.html draws the real run: the gateway's per-second timeline of every cost trial among its charts.
        val html = org.jsoup.Jsoup.parse(store.dir.resolve("report.html").toFile())
        assertThat(html.select("figure[data-chart]").map { it.attr("data-chart") })
            .contains("hop-cpu", "cpu-by-process", "latency-spectrum", "timeline")
        assertThat(html.select("figure[data-chart=timeline] circle")).isNotEmpty()
        assertThat(store.dir.resolve("logs/data-server.log")).exists()
        assertThat(store.dir.resolve(ChildProcesses.FILE_NAME)).content().hasLineCount(1) // only the runner: no child left
    }

    /**
     * The least round trip a link recorded in run.json's [network] can take: both delays as
     * the relay ran them, which it shortens by its own measured wake-ups (`Shaped.calibrated`),
     * or the [asked] RTT where netem delays instead.
     */
    private fun leastRoundTrip(network: LinkRecord, asked: Double): Double = network.relayOneWayMs?.let { 2 * it } ?: asked

    /** A short run of [workload] with the driver calling the data-server itself, and its record. */
    private fun runDirect(
        workload: String,
        results: Path,
        seed: Long,
        extra: String = "",
        network: NetworkProfile? = null,
    ): Pair<RunStore, RunRecord> {
        val scenario = ScenarioParser.parse(
            """
            name: e2e-direct
            $workload
            $extra
            load: {model: closed, vus: [2]}
            duration: 2s
            forks: 2
            maxForks: 2
            probes: first-fork
            topology: direct
            soak: {window: 1s, min: 2s, max: 3s}
            """.trimIndent(),
            "e2e direct test",
        )
        val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {})
            .run(scenario, options(results, seed).copy(network = network))
        return store to RunStore.load(store.dir)
    }

    /**
     * The driver on the near side of a shaped link, the data-server behind it: every call
     * crosses the round trip at least once, and so does a stream before its first message,
     * which the driver times.
     */
    @Test
    @Tag(SLOW)
    fun `topology direct across a shaped link - every call crosses its round trip, and a stream's first message is timed`(
        @TempDir results: Path,
    ) {
        val caps = NetworkCapabilities.detect()
        assumeTrue(
            caps.namespaces == null && caps.works("tbf"),
            "namespaces or tbf not available here: ${caps.namespaces ?: caps.qdiscs["tbf"]}",
        )
        val (store, record) = runDirect(
            "sizes: [10kb]",
            results,
            29,
            extra = "protocols: [HTTP/Binary, gRPC/Stream]",
            network = NetworkProfile.parse("rtt=30ms"),
        )

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        val network = record.environment.network!!
        assertThat(network.holds).isEqualTo(true)
        val roundTrip = leastRoundTrip(network, 30.0)
        assertThat(record.trials).isNotEmpty.allSatisfy { trial ->
            assertThat(trial.error).describedAs(trial.arm).isNull()
            assertThat(trial.correctAnswers).describedAs(trial.arm).isPositive()
            assertThat(trial.wrongAnswers).describedAs(trial.arm).isZero()
            assertThat(trial.figures[Figure.HOP_P50]).describedAs(trial.arm).isGreaterThanOrEqualTo(roundTrip)
            // Each connection's first calls are timed apart and left out of the latency.
            val driver = trial.driver!!
            val warm = driver.byPlace.getValue("warm")
            assertThat(driver.bySteps).describedAs(trial.arm).containsKey("1")
            assertThat(trial.figures[Figure.LATENCY_P50]).describedAs(trial.arm).isEqualTo(warm.p50)
            if (trial.arm == "gRPC/Stream") {
                assertThat(trial.figures[Figure.FIRST_MESSAGE_P50]).describedAs(trial.arm).isGreaterThanOrEqualTo(floor(roundTrip))
                    .isLessThanOrEqualTo(trial.figures[Figure.LATENCY_P50]!!)
            } else {
                assertThat(trial.figures[Figure.FIRST_MESSAGE_P50]).describedAs(trial.arm).isNull()
            }
        }
        assertThat(Files.readString(ReportWriter.write(store.dir, record)))
            .contains("topology direct", "Latency on warm connections", "network rtt=30ms", "Stream first message")
        val (_, namespaces) = Shell.SYSTEM.run(listOf("ip", "netns", "list"))
        assertThat(namespaces).doesNotContain("protobench-${ProcessHandle.current().pid()}-")
    }

    @Test
    @Tag(SLOW)
    fun `topology direct - the driver calls the data-server itself over all four protocols, no gateway started`(@TempDir results: Path) {
        val (store, record) = runDirect("sizes: [1kb]", results, 11)

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.forks).hasSize(2).allSatisfy { fork ->
            // The soak's windows read the data-server's own request count: throughput without a gateway
            // (the first may see none: a second of 1 s windows goes to the driver's first connections).
            assertThat(fork.soak!!.windows.last().throughputRps).isPositive()
        }
        val protocols = listOf("HTTP/JSON", "HTTP/Binary", "gRPC/Unary", "gRPC/Stream")
        assertThat(record.trials.filter { it.kind == TrialKind.COST }.map { it.arm }.distinct())
            .containsExactlyInAnyOrderElementsOf(protocols)
        record.trials.forEach { trial ->
            assertThat(trial.error).isNull()
            assertThat(trial.gateway).isNull()
            assertThat(trial.correctAnswers).describedAs(trial.arm).isPositive()
            assertThat(trial.wrongAnswers).describedAs(trial.arm).isZero() // every answer's payload checked by the driver
            assertThat(trial.figures[Figure.HOP_P50]).describedAs(trial.arm).isPositive()
            assertThat(trial.figures[Figure.DATA_CPU_US]).describedAs(trial.arm).isPositive()
            assertThat(trial.figures[Figure.API_CPU_US]).isNull()
        }
        // Each cost trial's connections first made their cold calls in a warm-up; gRPC opens its 4 channels (2 users -> 4 started).
        assertThat(record.trials.filter { it.kind == TrialKind.COST }).allSatisfy { trial ->
            val driver = trial.driver!!
            assertThat(driver.warmUp.correct).describedAs(trial.arm).isPositive()
            assertThat(trial.correctAnswers).describedAs(trial.arm).isEqualTo(driver.warmUp.correct + driver.timed.correct)
            // Every call was timed by its place among its connection's calls: each connection's first three at least.
            val places = TrialFigures.callSteps(trial)
            assertThat(places).describedAs(trial.arm).containsKeys("1", "2", "3", "next")
            if (trial.arm.startsWith("gRPC")) assertThat(places.getValue("1").second).describedAs(trial.arm).isEqualTo(4)
            assertThat(store.dir.resolve(driver.histogramLog!!)).describedAs(trial.arm).isNotEmptyFile()
        }
        val hopCpu = Analysis.of(record).single().cost.associate { it.arm to it.estimates[Figure.HOP_CPU_US] }
        assertThat(hopCpu.keys).containsExactlyInAnyOrderElementsOf(protocols)
        assertThat(hopCpu.values).allSatisfy { assertThat(it!!.mean).isPositive() }
        assertThat(store.dir.resolve("logs/api-server.log")).doesNotExist()
        assertThat(Files.readString(ReportWriter.write(store.dir, record))).contains(
            "topology direct",
            "## size=1kb vus=2",
            "| gRPC/Stream |",
            "A cost trial's connections make them in a warm-up before its fixed rate is timed",
            "**New connections**",
        )
        assertThat(store.dir.resolve(ChildProcesses.FILE_NAME)).content().hasLineCount(1)
    }

    @Test
    @Tag(SLOW)
    fun `member creation - every confirmed creation is a row, checked after each trial, and the null hop writes none`(
        @TempDir results: Path,
    ) {
        val scenario = ScenarioParser.parse(
            """
            name: e2e-writes
            members: {images: [1kb], batch: 3}
            protocols: [HTTP/JSON, gRPC/Stream]
            load: {model: closed, vus: [2]}
            duration: 2s
            forks: 2
            maxForks: 2
            probes: first-fork
            soak: {window: 1s, min: 2s, max: 3s}
            """.trimIndent(),
            "e2e writes test",
        )

        val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options(results, 13))
        val record = RunStore.load(store.dir)

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.trials.filter { it.kind == TrialKind.COST }.map { it.arm }.distinct())
            .containsExactlyInAnyOrder("HTTP/JSON", "gRPC/Stream", "Null hop")
        record.trials.forEach { trial ->
            assertThat(trial.error).describedAs(trial.arm).isNull()
            assertThat(trial.wrongAnswers).describedAs(trial.arm).isZero()
            assertThat(trial.flags).describedAs(trial.arm).noneMatch { it is Flag.RowsMismatch }
            val membersPerRequest = if (trial.arm == "Null hop") 0 else 3
            assertThat(trial.figures[Figure.ROWS_WRITTEN]).describedAs(trial.arm)
                .isEqualTo(trial.correctAnswers * membersPerRequest.toDouble())
            if (membersPerRequest > 0) assertThat(trial.figures[Figure.DB_MS_PER_REQ]).describedAs(trial.arm).isPositive()
        }
        assertThat(Files.readString(store.dir.resolve("logs/data-server.log"))).contains("members=on")
        assertThat(Files.readString(ReportWriter.write(store.dir, record)))
            .contains("Member creation (seed 003): each request creates 3", "DB time/req")
    }

    @Test
    @Tag(SLOW)
    fun `topology direct creates members on the data-server itself over all four protocols, every creation a row, and the seed's tools too`(
        @TempDir results: Path,
    ) {
        val (store, record) = runDirect("members: {images: [1kb]}", results, 19, extra = "seedTools: {2: 50}")

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        // Soak windows count the data-server's creations: throughput without a gateway (by the last window at least).
        assertThat(record.forks).allSatisfy { fork -> assertThat(fork.soak!!.windows.last().throughputRps).isPositive() }
        assertThat(record.trials.filter { it.kind == TrialKind.COST }.map { it.arm }.distinct())
            .containsExactlyInAnyOrder("HTTP/JSON", "HTTP/Binary", "gRPC/Unary", "gRPC/Stream")
        record.trials.forEach { trial ->
            assertThat(trial.error).describedAs(trial.arm).isNull()
            assertThat(trial.wrongAnswers).describedAs(trial.arm).isZero() // every answer carried a new id (or a count of one)
            assertThat(trial.flags).describedAs(trial.arm).noneMatch { it is Flag.RowsMismatch }
            assertThat(trial.figures[Figure.ROWS_WRITTEN]).describedAs(trial.arm).isEqualTo(trial.correctAnswers.toDouble()).isPositive()
            assertThat(trial.figures[Figure.DB_MS_PER_REQ]).describedAs(trial.arm).isPositive()
        }
        assertThat(store.dir.resolve("member-bodies")).isDirectoryContaining { it.fileName.toString().endsWith(".pb") }
        // Seed 003's hey and ghz, one run each per fork, posting one fixed body into a table without the unique email index.
        assertThat(record.toolRuns.groupBy { it.fork }.values).hasSize(2).allSatisfy { runs ->
            assertThat(runs.map { it.tool }).containsExactlyInAnyOrder("hey", "ghz")
        }
        record.toolRuns.forEach { run ->
            assertThat(run.error).describedAs(run.tool).isNull()
            assertThat(run.failures).describedAs(run.tool).isEmpty()
            assertThat(run.created).describedAs(run.tool).isEqualTo(50)
            assertThat(run.figures[Figure.ROWS_WRITTEN]).describedAs(run.tool).isEqualTo(50.0)
            assertThat(run.figures[Figure.THROUGHPUT]).describedAs(run.tool).isPositive()
            assertThat(run.figures[Figure.DATA_CPU_US]).describedAs(run.tool).isPositive()
        }
        assertThat(Files.readString(ReportWriter.write(store.dir, record)))
            .contains("Seed 003's own tools", "ghz against hey in requests/s")
    }

    /**
     * Member creation over [protocol] by two variants, one on H2 and one on PostgreSQL (the write
     * path of each protocol is tested apart), at a fixed rate: no capacity probes and no null hop
     * (the member test of the gateway has both), what is asserted is where the rows land.
     */
    private fun h2AndPostgres(name: String, protocol: String) = ScenarioParser.parse(
        """
        name: $name
        members: {images: [1kb]}
        protocols: [$protocol]
        load: {model: open, rates: [40], maxVus: 8}
        duration: 2s
        minRequests: 0
        forks: 2
        maxForks: 2
        nullHop: false
        soak: {window: 1s, min: 2s, max: 3s}
        variants:
          - {name: h2, database: h2}
          - {name: pg, database: postgresql}
        """.trimIndent(),
        "e2e $name test",
    )

    /** The run of [h2AndPostgres] completed, and every creation its cost trials confirmed is a row; returns those trials. */
    private fun everyCreationLanded(record: RunRecord, protocol: String): List<io.protobench.bench.measure.TrialRecord> {
        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        val written = record.trials.filter { it.kind == TrialKind.COST && !it.arm.startsWith("Null hop") }
        assertThat(written.map { it.arm }.distinct()).containsExactlyInAnyOrder("$protocol · h2", "$protocol · pg")
        written.forEach { trial ->
            assertThat(trial.error).describedAs(trial.arm).isNull()
            assertThat(trial.flags).describedAs(trial.arm).noneMatch { it is Flag.RowsMismatch }
            assertThat(trial.figures[Figure.ROWS_WRITTEN]).describedAs(trial.arm).isEqualTo(trial.correctAnswers.toDouble()).isPositive()
        }
        return written
    }

    @Test
    @Tag(SLOW)
    fun `a PostgreSQL variant writes into the run's throw-away cluster, stopped when the run ends, beside H2`(@TempDir results: Path) {
        val postgres = runCatching { PostgresBinaries.find() }.getOrNull()
        assumeTrue(postgres != null, "PostgreSQL's server programs are not installed (Debian package postgresql)")
        val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {})
            .run(h2AndPostgres("e2e-postgres", "gRPC/Stream"), options(results, 17))
        val record = RunStore.load(store.dir)

        everyCreationLanded(record, "gRPC/Stream").forEach { trial ->
            // PostgreSQL's processes are counted with the servers; H2 has none apart from the data-server.
            val database = trial.figures[Figure.DB_CPU_US]
            if (trial.arm.endsWith("pg")) {
                assertThat(database).describedAs(trial.arm).isPositive()
            } else {
                assertThat(database).describedAs(trial.arm).isNull()
            }
        }
        // The pg variant's data-servers were pointed at the cluster, its password kept out of the recorded commands.
        val commands = record.environment.serverCommands.toString()
        assertThat(commands).contains("jdbc:postgresql://127.0.0.1:").doesNotContain("db.password")
        assertThat(record.environment.postgresql!!.version).isNotNull()
        // Stopped with the run and thrown away, its log kept: no server of the run's cluster is left.
        val dataDir = Path.of(record.environment.postgresql!!.dataDir)
        assertThat(dataDir).doesNotExist()
        assertThat(store.dir.resolve("logs/postgres.log")).exists()
        assertThat(
            ProcessHandle.allProcesses()
                .filter { p -> p.info().arguments().orElse(emptyArray()).any { it == dataDir.toString() } }
                .count(),
        ).isZero()
        assertThat(Files.readString(ReportWriter.write(store.dir, record)))
            .contains("different databases are compared on CPU too", "PostgreSQL CPU µs/req")
    }

    @Test
    @Tag(SLOW)
    fun `with --db-url the pairs write to that database in a schema of their own, emptied at the end, and H2 stays H2`(
        @TempDir results: Path,
    ) {
        val postgres = runCatching { PostgresBinaries.find() }.getOrNull()
        assumeTrue(postgres != null, "PostgreSQL's server programs are not installed (Debian package postgresql)")
        // Somebody's database, standing in for a staging server: a cluster this test starts, with a members table of its own.
        val home = Files.createTempDirectory("protobench-e2e-external-")
        Files.setPosixFilePermissions(home, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"))
        val cluster = io.protobench.bench.database.PostgresCluster(postgres!!).start(home.resolve("db"))
        try {
            fun query(sql: String): Long = java.sql.DriverManager.getConnection(cluster.jdbcUrl, cluster.user, cluster.password).use { c ->
                c.createStatement().use { st ->
                    if (st.execute(sql)) {
                        st.resultSet.use {
                            it.next()
                            it.getLong(1)
                        }
                    } else {
                        0
                    }
                }
            }
            query("CREATE TABLE public.members (id int)")
            query("INSERT INTO public.members VALUES (42)")
            val database = io.protobench.bench.database.ExternalDatabase(cluster.jdbcUrl, cluster.user, cluster.password, "lab_run")

            val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {})
                .run(h2AndPostgres("e2e-external-db", "gRPC/Unary"), options(results, 19).copy(externalDatabase = database))
            val record = RunStore.load(store.dir)

            everyCreationLanded(record, "gRPC/Unary").forEach { trial ->
                assertThat(trial.figures[Figure.DB_CPU_US])
                    .describedAs("%s: the external database's CPU is not the run's", trial.arm).isNull()
            }
            assertThat(record.externalDatabase!!.variants).containsExactly("pg")
            assertThat(record.externalDatabase!!.schema).isEqualTo("lab_run")
            assertThat(record.environment.postgresql).isNull()
            val commands = record.environment.serverCommands.toString()
            assertThat(commands).contains("--protobench.data.db.schema=lab_run").doesNotContain("db.password")
            assertThat(Files.readString(store.runJson)).doesNotContain(cluster.password)
            // The pg pairs wrote into lab_run (Flyway made it), the run's end emptied it, and the other members table is untouched.
            assertThat(query("SELECT count(*) FROM lab_run.flyway_schema_history")).isPositive()
            assertThat(query("SELECT count(*) FROM lab_run.members")).isZero()
            assertThat(query("SELECT count(*) FROM public.members")).isEqualTo(1)
            assertThat(Files.readString(ReportWriter.write(store.dir, record))).contains(
                "an external database (`--db-url`)",
                "A variant writing to the external database is compared on CPU only with another writing there",
            )
        } finally {
            cluster.stop()
            home.toFile().deleteRecursively()
        }
    }

    @Test
    @Tag(SLOW)
    fun `a user's own message runs over all four protocols, built from its proto, every answer its count of items`(@TempDir dir: Path) {
        val (proto, sample) = shopOrder(dir)
        val scenario = ScenarioParser.parse(
            """
            name: e2e-message
            message: {proto: $proto, type: shop.Order, sample: $sample, counts: [1, 20]}
            load: {model: open, rates: [40], maxVus: 20}
            duration: 2s
            forks: 2
            maxForks: 2
            soak: {window: 1s, min: 2s, max: 3s}
            """.trimIndent(),
            "e2e message test",
        )

        val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {
        }).run(scenario, options(dir.resolve("results"), 5))
        val record = RunStore.load(store.dir)

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.trials.map { it.arm }.distinct()).containsExactlyInAnyOrder(
            "HTTP/JSON",
            "HTTP/Binary",
            "gRPC/Unary",
            "gRPC/Stream",
            "Null hop",
        )
        assertThat(record.trials).allSatisfy { trial ->
            assertThat(trial.error).isNull()
            assertThat(trial.correctAnswers).isPositive()
            assertThat(trial.wrongAnswers).isZero() // every answer held the count asked for, decoded in full by the gateway
        }
        val message = record.environment.message!!
        assertThat(message.type).isEqualTo("shop.Order")
        assertThat(message.jarSha256).hasSize(64)
        assertThat(message.protobufBytes).isLessThan(message.jsonBytes)
        assertThat(message.codecTimes!!.protobufDecodeNs).isPositive()
        assertThat(store.dir.resolve("message/message.jar")).exists()
        assertThat(
            Files.readString(ReportWriter.write(store.dir, record)),
        ).contains("## count=20 rate=40/s", "Your message: `shop.Order`", "One item apart from the transport")
    }

    /** A small order with nesting, a map, an enum, a Timestamp and bytes: its .proto and one sample, written into [dir]. */
    private fun shopOrder(dir: Path): Pair<Path, Path> {
        val proto = Files.writeString(
            dir.resolve("shop.proto"),
            """
            syntax = "proto3";
            package shop;
            import "google/protobuf/timestamp.proto";
            enum Status { STATUS_UNSPECIFIED = 0; PAID = 1; }
            message Line { string sku = 1; int32 quantity = 2; int64 cents = 3; }
            message Order {
              string id = 1;
              repeated Line lines = 2;
              map<string, string> tags = 3;
              Status status = 4;
              google.protobuf.Timestamp placed_at = 5;
              bytes signature = 6;
            }
            """.trimIndent(),
        )
        val sample = Files.writeString(
            dir.resolve("order.json"),
            """{"id": "A-1", "lines": [{"sku": "X", "quantity": 2, "cents": "1250"}], "tags": {"channel": "web"},
               "status": "PAID", "placedAt": "2026-12-01T10:15:30Z", "signature": "AAEC"}""",
        )
        return proto to sample
    }

    @Test
    @Tag(SLOW)
    fun `a count crossover measures the user's message at both ends of its range, each point a run of its own with the message built`(
        @TempDir dir: Path,
    ) {
        val (proto, sample) = shopOrder(dir)
        val plan = CrossoverPlan.of(
            CrossoverRequest(
                "gRPC/Unary,HTTP/Binary",
                "count",
                "1",
                "20",
                steps = 0,
                forks = 2,
                maxForks = 2,
                duration = "1s",
                message = MessageFile(proto.toString(), "shop.Order", sample.toString()),
            ),
        )
        val root = Files.createDirectories(dir.resolve("search"))
        val points = BenchmarkPoints(LocalLabSource(projectDir), root, plan.verdict, 5, mapOf("test" to "e2e"), progress = {})
        // The crossover's own soak is for measuring; a test needs the servers up, not quiet.
        val briefSoak = PointRunner { n, scenario, folder ->
            points.run(n, scenario.copy(soak = Soak(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3))), folder)
        }

        val record = CrossoverRun(plan, CrossoverStore(root), briefSoak, seed = 5).run()

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.points.map { it.position }).containsExactly(1L, 20L)
        for (point in record.points) {
            assertThat(point.outcome).describedAs(point.value).isNotEqualTo(PointOutcome.FAILED)
            val run = RunStore.load(root.resolve(point.run!!))
            assertThat(run.environment.message!!.type).isEqualTo("shop.Order")
            assertThat(run.trials.map { it.arm }.distinct()).containsExactlyInAnyOrder("gRPC/Unary", "HTTP/Binary", "Null hop")
            assertThat(run.trials).allSatisfy { trial ->
                assertThat(trial.error).isNull()
                assertThat(trial.wrongAnswers).isZero() // every answer held the point's count of items
            }
        }
        assertThat(Files.readString(root.resolve("crossover.md")))
            .contains("gRPC/Unary vs HTTP/Binary", "| 1 item |", "| 20 items |", "whole items")
    }

    @Test
    @Tag(SLOW)
    fun `an open-model condition runs at its given rate without probes and checks the level's exact size`(@TempDir results: Path) {
        val scenario = ScenarioParser.parse(
            """
            name: e2e-open
            complexities: [medium]
            protocols: [gRPC/Unary]
            load: {model: open, rates: [40], maxVus: 20}
            duration: 2s
            forks: 2
            maxForks: 2
            nullHop: false
            soak: {window: 1s, min: 2s, max: 3s}
            """.trimIndent(),
            "e2e open test",
        )

        val record = RunStore.load(
            BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options(results, 3)).dir,
        )

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        assertThat(record.calibrations).isEmpty()
        assertThat(record.trials).hasSize(2).allSatisfy { trial ->
            assertThat(trial.kind).isEqualTo(TrialKind.COST)
            assertThat(trial.condition).isEqualTo("complexity=medium rate=40/s")
            assertThat(trial.wrongAnswers).isZero() // serializedSize checked exactly against the level's shape
            assertThat(trial.figures[Figure.TARGET_RATE_SHARE]).isBetween(0.5, 1.1)
            assertThat(trial.figures[Figure.DRIVER_CORES]).isNotNull()
        }
    }

    @Test
    @Tag(SLOW)
    fun `variants run on their own server pairs, read back from the real servers, and a refused JVM option rejects only its variant`(
        @TempDir results: Path,
    ) {
        val scenario = ScenarioParser.parse(
            """
            name: e2e-variants
            sizes: [1kb]
            protocols: [gRPC/Unary]
            load: {model: open, rates: [40], maxVus: 20}
            duration: 1s
            minRequests: 0
            forks: 2
            maxForks: 2
            nullHop: false
            soak: {window: 1s, min: 1s, max: 2s}
            variants:
              - {name: shared, dataServer: {protobench.data.grpc-payload-mode: shared}}
              - {name: copy-serial, dataServer: {protobench.data.grpc-payload-mode: copy}, jvm: [-XX:+UseSerialGC], heap: 384m}
              - {name: broken, jvm: [-XX:+UseZGCX]}
            """.trimIndent(),
            "e2e variants test",
        )

        val record = RunStore.load(
            BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options(results, 11)).dir,
        )

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        val rejected = record.forks.single { it.status == ForkStatus.REJECTED }
        assertThat(rejected.variant).isEqualTo("broken")
        assertThat(rejected.failure).contains("Unrecognized VM option 'UseZGCX'")
        val measured = record.forks.filter { it.status == ForkStatus.COMPLETE }
        assertThat(measured.map { it.index to it.variant })
            .containsExactlyInAnyOrder(1 to "shared", 1 to "copy-serial", 2 to "shared", 2 to "copy-serial")
        val copy = measured.first { it.variant == "copy-serial" }.settings
        assertThat(copy).containsEntry("protobench.data.grpc-payload-mode", "copy")
            .containsEntry("jvm.api-server.collectors", "Copy, MarkSweepCompact")
        // Serial reports its heap without one survivor space: a little under the 384 MB asked for.
        assertThat(copy.getValue("jvm.data-server.max-heap-mb").toInt()).isBetween(330, 384)
        assertThat(measured.first { it.variant == "shared" }.settings).containsEntry("protobench.data.grpc-payload-mode", "shared")
        assertThat(record.trials.map { it.arm }.distinct()).containsExactlyInAnyOrder("gRPC/Unary · shared", "gRPC/Unary · copy-serial")
        assertThat(record.trials).allSatisfy { assertThat(it.valid).isTrue() }
    }

    /**
     * The data-server in the lab's namespace behind a veth with tbf and the delay relay
     * (or netem): every call of the gateway to it crosses the profile's round trip at least
     * once, so each protocol's hop latency is at least the RTT, whatever the machine's speed.
     */
    @Test
    @Tag(SLOW)
    fun `with a network profile the data-server runs behind the shaped link and every hop crosses its round trip`(@TempDir results: Path) {
        val caps = NetworkCapabilities.detect()
        assumeTrue(
            caps.namespaces == null && caps.works("tbf"),
            "namespaces or tbf not available here: ${caps.namespaces ?: caps.qdiscs["tbf"]}",
        )
        // The run's own link (through the delay relay where netem is missing), a variant's own link
        // without delay (so without a relay: the gateway calls the far address itself, as it always
        // does where netem exists), and (without netem) a variant whose profile cannot hold. No null
        // hop (it never crosses the link) and no minimum of requests: at 20/s the default 200 would
        // stretch each cost trial from 2 s to 10 s, and what is asserted holds for any count.
        // A variant's delayed link is the run's own code (HopNetwork.open): the direct shaped-link test crosses one too.
        val scenario = ScenarioParser.parse(
            """
            name: e2e-network
            sizes: [1kb]
            protocols: [HTTP/Binary, gRPC/Unary]
            load: {model: open, rates: [20], maxVus: 20}
            duration: 2s
            minRequests: 0
            forks: 2
            maxForks: 2
            nullHop: false
            soak: {window: 1s, min: 2s, max: 3s}
            variants:
              - {name: run-link}
              - {name: bare, network: "rtt=0ms,bandwidth=200mbit"}
              - {name: too-near, network: "rtt=0.05ms"}
            """.trimIndent(),
            "e2e network test",
        )
        val options = options(results, 11).copy(network = NetworkProfile.parse("rtt=20ms,bandwidth=100mbit"))

        val record = RunStore.load(BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options).dir)

        assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
        val network = record.environment.network!!
        assertThat(network.holds).isEqualTo(true)
        assertThat(network.measuredRttMs).isGreaterThanOrEqualTo(leastRoundTrip(network, 20.0))
        assertThat(network.measuredBandwidthMbit).isLessThan(110.0)
        assertThat(record.resume!!.network).isEqualTo("rtt=20ms,bandwidth=100mbit")
        val bare = record.environment.networkByVariant.getValue("bare")
        assertThat(bare.holds).isEqualTo(true)
        assertThat(bare.relayOneWayMs).describedAs("no delay, no relay").isNull()
        assertThat(bare.measuredBandwidthMbit).isLessThan(220.0)
        val protocols = record.trials
        val least = mapOf("run-link" to leastRoundTrip(network, 20.0), "bare" to 0.0)
        assertThat(protocols.map { Variant.split(it.arm).second }.toSet()).containsExactlyInAnyOrder("run-link", "bare")
        assertThat(protocols).allSatisfy { trial ->
            assertThat(trial.error).isNull()
            assertThat(trial.correctAnswers).isPositive()
            assertThat(trial.figures[Figure.HOP_P50]).isGreaterThanOrEqualTo(least.getValue(Variant.split(trial.arm).second!!))
            // The gateway read the data-server's figures across every link (a loopback-only guard refused the far address).
            assertThat(trial.gateway!!.processes.dataServer).`as`(trial.arm).isNotNull()
            assertThat(trial.figures[Figure.DATA_CPU_US]).`as`(trial.arm).isNotNull()
        }
        if (!caps.works("netem")) {
            // Rejected once, at its first pair, and not started again.
            val rejected = record.forks.single { it.variant == "too-near" }
            assertThat(rejected.status).isEqualTo(ForkStatus.REJECTED)
            assertThat(rejected.failure).contains("rtt=0.05ms", "not applied as asked")
        }
        val (_, namespaces) = Shell.SYSTEM.run(listOf("ip", "netns", "list"))
        assertThat(namespaces).doesNotContain("protobench-${ProcessHandle.current().pid()}-")
    }

    /**
     * 50 µs of round trip cannot come out of a user-space relay (two thread wake-ups each
     * way): without netem the link measures off the profile and the run is refused, with the
     * figures, before anything is created.
     */
    @Test
    @Tag(SLOW)
    fun `remote - each fork starts only a gateway here, in front of a data-server another process serves`(@TempDir dir: Path) {
        val (httpPort, grpcPort) = List(2) { java.net.ServerSocket(0).use { it.localPort } }
        val served = serve(dir, "data-server", "--port", "$httpPort", "--grpc-port", "$grpcPort")
        val remote = Remote.DataServer("127.0.0.1", httpPort, grpcPort)
        try {
            awaitTrue(Duration.ofSeconds(90)) { RemoteCheck(Duration.ofSeconds(1)).problem(remote) == null }
            val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {})
                .run(tinyScenario, options(dir.resolve("results"), 23).copy(remote = remote))
            val record = RunStore.load(store.dir)

            assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
            assertThat(record.environment.remote)
                .isEqualTo(RemoteServersRecord(dataServer = "127.0.0.1:$httpPort:$grpcPort", restartedPerFork = true))
            // serve's control gave each of the two forks a fresh data-server: three JVMs in all.
            assertThat(servedStarts(remote)).isEqualTo(3)
            assertThat(record.resume!!.remote).isEqualTo("--data-server 127.0.0.1:$httpPort:$grpcPort")
            record.trials.filter { it.arm != "Null hop" }.forEach { trial ->
                assertThat(trial.error).describedAs(trial.arm).isNull()
                assertThat(trial.wrongAnswers).describedAs(trial.arm).isZero()
                // The served data-server answers for its own CPU: the hop is still whole.
                assertThat(trial.figures[Figure.DATA_CPU_US]).describedAs(trial.arm).isPositive()
                assertThat(trial.figures[Figure.API_CPU_US]).describedAs(trial.arm).isPositive()
            }
            assertThat(store.dir.resolve("logs/data-server.log")).doesNotExist()
            assertThat(Files.readString(ReportWriter.write(store.dir, record)))
                .contains(
                    "the data-server runs on another host at 127.0.0.1:$httpPort:$grpcPort",
                    "whose serve restarted it before every fork",
                    "driver and api-server run on the same machine",
                )
            assertThat(served.isAlive).describedAs("the served data-server outlives the run").isTrue()
        } finally {
            served.destroy()
            served.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)
        }
        // Stopping `serve` stops its server: nothing is left listening.
        awaitTrue(Duration.ofSeconds(20)) { RemoteCheck(Duration.ofMillis(500)).problem(remote) != null }
    }

    @Test
    @Tag(SLOW)
    fun `remote - with a served gateway nothing but the load driver runs here, and every figure comes from the two JVMs`(
        @TempDir dir: Path,
    ) {
        val (httpPort, grpcPort, gatewayPort) = List(3) { java.net.ServerSocket(0).use { it.localPort } }
        val data = serve(dir, "data-server", "--port", "$httpPort", "--grpc-port", "$grpcPort")
        val gateway = serve(dir, "api-server", "--port", "$gatewayPort", "--data-server", "127.0.0.1:$httpPort:$grpcPort")
        val remote = Remote.Gateway("http://127.0.0.1:$gatewayPort")
        try {
            awaitTrue(Duration.ofSeconds(120)) { RemoteCheck(Duration.ofSeconds(1)).problem(remote) == null }
            val store = BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {})
                .run(tinyScenario, options(dir.resolve("results"), 29).copy(remote = remote))
            val record = RunStore.load(store.dir)

            assertThat(record.status).isEqualTo(RunStatus.COMPLETE)
            record.trials.filter { it.arm != "Null hop" }.forEach { trial ->
                assertThat(trial.error).describedAs(trial.arm).isNull()
                assertThat(trial.figures[Figure.API_CPU_US]).describedAs(trial.arm).isPositive()
                assertThat(trial.figures[Figure.DATA_CPU_US]).describedAs(trial.arm).isPositive()
            }
            assertThat(store.dir.resolve("logs/api-server.log")).doesNotExist()
            assertThat(Files.readString(ReportWriter.write(store.dir, record))).contains(
                "only driver runs on this machine",
                "the gateway at http://127.0.0.1:$gatewayPort",
                "serve restarted the gateway before every fork",
            )
            // Each fork restarted the served gateway, and the gateway's serve its data-server first: a fresh pair per fork.
            assertThat(servedStarts(remote)).isEqualTo(3)
            assertThat(servedStarts(Remote.DataServer("127.0.0.1", httpPort, grpcPort))).isEqualTo(3)
        } finally {
            listOf(gateway, data).forEach {
                it.destroy()
                it.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)
            }
        }
    }

    /** Two protocols at 1 KB, two forks of a few seconds: the least a run can be and still compare. */
    private val tinyScenario = ScenarioParser.parse(
        """
        name: e2e
        sizes: [1kb]
        protocols: [HTTP/JSON, gRPC/Unary]
        load: {model: closed, vus: [2]}
        duration: 2s
        forks: 2
        maxForks: 2
        soak: {window: 1s, min: 2s, max: 3s}
        """.trimIndent(),
        "e2e test",
    )

    /** How many JVMs the `serve` of [remote] has started, from its control. */
    private fun servedStarts(remote: Remote): Int =
        io.protobench.contract.Json.newMapper().readTree(ControlHttp(remote.controlUrl).get("/serve").body()).path("starts").asInt()

    /** `protobench serve SERVER ARGS` in a process of its own, as on another host. */
    private fun serve(dir: Path, server: String, vararg args: String): Process = ProcessBuilder(
        listOf(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp",
            System.getProperty("java.class.path"),
            "io.protobench.bench.cli.MainKt",
            "serve",
            server,
            "--jvm-opt",
            "-Xmx512m",
        ) + args,
    )
        .also { it.environment()["PROTOBENCH_HOME"] = projectDir.toString() }
        .redirectErrorStream(true).redirectOutput(dir.resolve("serve-$server.log").toFile()).start()

    @Test
    fun `a remote data-server that does not answer stops the run before a results folder exists`(@TempDir dir: Path) {
        val closed = java.net.ServerSocket(0).use { it.localPort }
        val scenario = ScenarioParser.parse("name: gone\nsizes: [1kb]\nduration: 1s", "gone test")
        val options = options(dir.resolve("results"), 1).copy(remote = Remote.DataServer("127.0.0.1", closed, closed + 1))
        val error = runCatching { BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options) }
            .exceptionOrNull()
        assertThat(error).isInstanceOf(RemoteUnreachable::class.java)
            .hasMessageContaining("127.0.0.1 port $closed (HTTP) could not be reached")
        assertThat(dir.resolve("results")).doesNotExist()
    }

    @Test
    fun `a network profile the link does not hold stops the run before a results folder exists`(@TempDir results: Path) {
        val caps = NetworkCapabilities.detect()
        assumeTrue(caps.namespaces == null && !caps.works("netem"), "needs namespaces and no netem (with netem 50 µs can be applied)")
        val scenario = ScenarioParser.parse("name: too-near\nsizes: [1kb]\nduration: 1s", "too-near test")
        val options = options(results, 1).copy(network = NetworkProfile.parse("rtt=0.05ms"))
        val error = runCatching { BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options) }
            .exceptionOrNull()
        assertThat(error).isInstanceOf(LinkSetupFailed::class.java)
            .hasMessageContaining("not applied as asked").hasMessageContaining("asked 0.05")
        assertThat(Files.list(results).use { it.count() }).isZero()
        val (_, namespaces) = Shell.SYSTEM.run(listOf("ip", "netns", "list"))
        assertThat(namespaces).doesNotContain("protobench-${ProcessHandle.current().pid()}-")
    }

    @Test
    @Tag(SLOW)
    fun `a mistyped server setting stops the run at once naming the nearest valid one`(@TempDir results: Path) {
        val scenario = ScenarioParser.parse("name: typo\nsizes: [1kb]\nduration: 1s", "typo test")
        val options = options(results, 1).copy(gatewayArguments = listOf("--protobench.gateway.http.verison=H2C"))
        val error = runCatching { BenchmarkRunner(LocalLabSource(projectDir), Analysis.judge, progress = {}).run(scenario, options) }
            .exceptionOrNull()
        assertThat(error).isInstanceOf(ServerSettingRejected::class.java)
            .hasMessageContaining("protobench.gateway.http.verison").hasMessageContaining("did you mean protobench.gateway.http.version")
    }

    @Test
    fun `no child outlives a runner killed with SIGKILL in the middle of a trial`(@TempDir dir: Path) {
        val cli = startRun(dir)
        try {
            val children = childrenOnceTrialRuns(dir, trial = 1)
            cli.destroyForcibly().waitFor()

            // The driver ends with its input; the servers see their parent gone within a quarter second and halt within one more.
            awaitTrue(Duration.ofSeconds(3)) { children.none(::alive) }
        } finally {
            cli.destroyForcibly()
        }
    }

    @Test
    @Tag(SLOW)
    fun `a runner stopped by SIGTERM reports its run as interrupted, as run_json says, and leaves no child`(@TempDir dir: Path) {
        val cli = startRun(dir)
        try {
            val children = childrenOnceTrialRuns(dir, trial = 2)
            cli.destroy() // SIGTERM
            assertThat(cli.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue()

            assertThat(children.none(::alive)).isTrue()
            val runDir = awaitFile(dir.resolve("results"), "run.json").parent
            val record = RunStore.load(runDir)
            assertThat(record.status).isEqualTo(RunStatus.INTERRUPTED)
            assertThat(record.trials).isNotEmpty() // trial 1, measured before the signal
            assertThat(Files.readString(runDir.resolve("report.md"))).contains("Status: **interrupted**").doesNotContain("**failed**")
            assertThat(Files.list(runDir).use { files -> files.filter { it.toString().endsWith(".tmp") }.toList() }).isEmpty()
            assertThat(Files.readString(dir.resolve("cli.log")))
                .doesNotContain("cannot write").contains("interrupted: ${record.trials.size} trials kept")
        } finally {
            cli.destroyForcibly()
        }
    }

    /** The CLI running a small two-arm scenario into dir/results, its output in dir/cli.log. */
    private fun startRun(dir: Path): Process {
        val scenarioFile = dir.resolve("stop.yaml")
        Files.writeString(
            scenarioFile,
            """
            name: stop
            sizes: [1kb]
            protocols: [gRPC/Unary, HTTP/JSON]
            load: {model: closed, vus: [2]}
            duration: 20s
            forks: 2
            soak: {window: 1s, min: 2s, max: 3s}
            """.trimIndent(),
        )
        return ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "io.protobench.bench.cli.MainKt",
            "run", scenarioFile.toString(), "--results", dir.resolve("results").toString(), "--jvm-opt", "-Xmx256m",
        )
            .also { it.environment()["PROTOBENCH_HOME"] = projectDir.toString() }
            .redirectErrorStream(true).redirectOutput(dir.resolve("cli.log").toFile()).start()
    }

    /** The run's children (two servers and the load driver), read two seconds into [trial], when all of them are running. */
    private fun childrenOnceTrialRuns(dir: Path, trial: Int): List<Long> {
        val pidFile = awaitFile(dir.resolve("results"), ChildProcesses.FILE_NAME)
        awaitTrue(Duration.ofSeconds(120)) { Files.readString(dir.resolve("cli.log")).contains("[trial $trial]") }
        Thread.sleep(2000)
        val children = Files.readAllLines(pidFile).drop(1).map { it.substringBefore(" ").toLong() }
        assertThat(children).hasSize(3)
        return children
    }

    /**
     * Whether [pid] still runs. An orphan that has exited stays a zombie until init reaps it
     * (here about 1.5 s later): it holds no port, memory or CPU, so it is not alive, though
     * ProcessHandle says it is.
     */
    private fun alive(pid: Long): Boolean {
        val state = runCatching { Files.readString(Path.of("/proc/$pid/stat")).substringAfterLast(')').trim().first() }.getOrNull()
        return state != null && state != 'Z' && state != 'X'
    }

    private fun awaitFile(root: Path, name: String): Path {
        var found: Path? = null
        awaitTrue(Duration.ofSeconds(60)) {
            found = if (Files.isDirectory(root)) {
                Files.walk(root).use { s ->
                    s.filter { it.fileName.toString() == name }.findFirst().orElse(null)
                }
            } else {
                null
            }
            found != null
        }
        return found!!
    }

    private fun awaitTrue(limit: Duration, condition: () -> Boolean) {
        val deadline = System.nanoTime() + limit.toNanos()
        while (!condition()) {
            check(System.nanoTime() < deadline) { "not true within ${limit.seconds} s" }
            Thread.sleep(200)
        }
    }
}
