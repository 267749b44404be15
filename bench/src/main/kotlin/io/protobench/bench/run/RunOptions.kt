package io.protobench.bench.run

import io.protobench.bench.database.ExternalDatabase
import io.protobench.bench.measure.ConditionRecord
import io.protobench.bench.measure.ExternalDatabaseFlags
import io.protobench.bench.measure.ForkStatus
import io.protobench.bench.measure.PinnedRates
import io.protobench.bench.measure.ResumeRecord
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.scenario.DurationText
import io.protobench.bench.scenario.NetworkProfile
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.Workload
import io.protobench.bench.scenario.toFile
import java.nio.file.Path
import java.time.Clock

/** How to run, beyond the scenario itself. */
data class RunOptions(
    val resultsRoot: Path,
    val jvmOptions: List<String>,
    val gatewayArguments: List<String>,
    val dataServerArguments: List<String>,
    val seed: Long,
    /** Pin the load driver and the servers to disjoint CPU sets when the machine has enough cores. */
    val pinning: Boolean = true,
    /** The options as the user gave them, recorded in run.json. */
    val given: Map<String, String>,
    /** The java binary for the servers; null = the JVM running the CLI. */
    val serverJava: Path? = null,
    /** The run folder's name under [resultsRoot]; null = `<time>-<scenario>`. */
    val folder: String? = null,
    /** The link between the gateway and the data-server; null = both on loopback. */
    val network: NetworkProfile? = null,
    /** Servers another host runs, measured instead of starting them here; null = both started here. */
    val remote: Remote? = null,
    /** The PostgreSQL database the members are written to instead of H2 or a throw-away cluster (`--db-url`); null = none. */
    val externalDatabase: ExternalDatabase? = null,
    /** An earlier run's rates for the cost trials (`--rates-of`); null = calibrated here. */
    val pinnedRates: PinnedRates? = null,
)
