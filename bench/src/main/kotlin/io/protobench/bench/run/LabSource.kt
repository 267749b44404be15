package io.protobench.bench.run

import io.protobench.bench.design.Lab
import io.protobench.bench.measure.ExternalDatabaseRecord
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.scenario.Scenario

/**
 * What opens a lab for the [BenchmarkRunner]: everything a run needs from the machine.
 * The lab package's `LocalLabSource` is this machine (server JVMs, the load driver, links, databases); tests give a fake
 * that starts no process, so the run shell (folders, resume, sealing, refusals) is tested alone.
 */
interface LabSource {
    /**
     * Checks and acquires what must be known good before a results folder exists (jars, tools,
     * JDKs, remote servers, a database's login, network links); throws bad input otherwise.
     */
    fun prepare(scenario: Scenario, options: RunOptions, progress: (String) -> Unit): PreparedLab
}

/** A lab whose outside is checked; closing it releases what [LabSource.prepare] acquired (links). */
interface PreparedLab : AutoCloseable {
    /** Opens the lab inside the run's folder: its databases, its ledger of child processes, the servers' launcher, the driver. */
    fun open(store: RunStore, scenario: Scenario, options: RunOptions, progress: (String) -> Unit): OpenLab
}

/** A lab ready to run forks in one run folder. Closing it stops what [PreparedLab.open] started (databases). */
interface OpenLab : AutoCloseable {
    val lab: Lab

    /** run.json's environment: the machine, tools, placement, links and databases this lab runs on. */
    val environment: RunEnvironment

    /** The database the members are written to when it is the user's own (`--db-url`), for run.json. */
    val externalDatabase: ExternalDatabaseRecord?

    /** What run.json's environment learns while the run goes: the command lines of the servers last started, by server. */
    fun serverCommands(): Map<String, List<String>>

    /** Stops every child process at once; called from the shutdown hook too, and more than once. */
    fun stopChildren()
}

/** Where the run's handler of Ctrl-C and SIGTERM is registered: the JVM's shutdown hooks, or a test's stand-in. */
interface ShutdownHooks {
    fun add(hook: Thread)

    /** Removes [hook]; a no-op while the JVM is already shutting down. */
    fun remove(hook: Thread)

    companion object {
        val JVM = object : ShutdownHooks {
            override fun add(hook: Thread) = Runtime.getRuntime().addShutdownHook(hook)

            // Refused while the JVM shuts down; harmless then: the hook finds the run ended, or ends it itself.
            override fun remove(hook: Thread) {
                runCatching { Runtime.getRuntime().removeShutdownHook(hook) }
            }
        }
    }
}
