package io.protobench.bench.testkit

import io.protobench.bench.design.Fork
import io.protobench.bench.design.Lab
import io.protobench.bench.design.LoadRun
import io.protobench.bench.design.Mix
import io.protobench.bench.design.Sample
import io.protobench.bench.measure.ExternalDatabaseRecord
import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.SoakWindow
import io.protobench.bench.run.LabSource
import io.protobench.bench.run.OpenLab
import io.protobench.bench.run.PreparedLab
import io.protobench.bench.run.RunOptions
import io.protobench.bench.run.RunStore
import io.protobench.bench.run.ShutdownHooks
import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.Variant
import io.protobench.bench.testkit.Fixtures
import io.protobench.contract.metrics.HeapCollected
import io.protobench.contract.metrics.HeapsCollected
import java.time.Clock
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset
import java.util.concurrent.atomic.AtomicInteger

/** A clock that moves only when the fake lab does work. */
internal class StepClock(@Volatile var now: Instant = Instant.parse("2026-01-01T00:00:00Z")) : Clock() {
    override fun getZone() = ZoneOffset.UTC
    override fun withZone(zone: java.time.ZoneId?) = this
    override fun instant() = now

    @Synchronized
    fun advance(d: Duration) {
        now = now.plus(d)
    }
}

/**
 * A fork of synthetic servers, no process: a soak that is steady at once, heaps that collect,
 * servers that stay up; each test says what a trial [measure]s.
 */
internal abstract class SyntheticFork(private val clock: StepClock) : Fork {
    override fun startMix(cells: List<Cell>, load: LoadLevel, limit: Duration): Mix = object : Mix {
        override fun window(length: Duration): SoakWindow {
            clock.advance(length)
            return SoakWindow(1000.0, 500.0)
        }
        override fun close() = Unit
    }

    override fun collectGarbage() = HeapsCollected(HeapCollected(90L shl 20, 40), HeapCollected(60L shl 20, 30))
    override fun alive() = true
    override fun effectiveSettings() = emptyMap<String, String>()
    override fun close() = Unit
}

/**
 * Forks of synthetic figures, no process: gRPC/Unary costs less than HTTP/JSON, each fork
 * scales both by its own luck and each trial adds noise. [beforeTrial] sees every trial's
 * number in the run (from 1) before it is measured; [forkFailure] makes every fork fail to start.
 */
internal class SyntheticLab(val clock: StepClock, private val forkFailure: String? = null, private val beforeTrial: (Int) -> Unit = {}) :
    Lab {
    private val random = java.util.Random(3)
    val trials = AtomicInteger()
    private val hopCost = mapOf("HTTP/JSON" to 400.0, "gRPC/Unary" to 150.0)

    override fun startFork(index: Int, variant: Variant?): Fork {
        forkFailure?.let { throw IllegalStateException(it) }
        clock.advance(Duration.ofSeconds(10))
        val luck = 1 + 0.04 * random.nextGaussian()
        return object : SyntheticFork(clock) {
            override fun measure(run: LoadRun): Sample {
                beforeTrial(trials.incrementAndGet())
                clock.advance(run.duration)
                val arm = run.cell.arm
                val hop = ((arm as? Arm.Of)?.let { hopCost.getValue(it.protocol.label) } ?: 0.0) * luck * (1 + 0.02 * random.nextGaussian())
                val total = 300 + hop
                return Sample(
                    Figures.of(
                        Figure.THROUGHPUT to 2e6 / (total + 150),
                        Figure.TOTAL_CPU_US to total,
                        Figure.DRIVER_CPU_US to 150.0,
                        Figure.HOP_P50 to hop / 100,
                    ),
                    Fixtures.FINE_ANSWERS,
                    0,
                )
            }
        }
    }
}

/**
 * A [LabSource] around [lab], counting what the run shell asks of it; [refusal] is thrown by
 * [prepare] as bad input found before a results folder exists.
 */
internal class FakeLabSource(private val lab: Lab, private val refusal: Exception? = null) : LabSource {
    val events = java.util.Collections.synchronizedList(mutableListOf<String>())

    override fun prepare(scenario: Scenario, options: RunOptions, progress: (String) -> Unit): PreparedLab {
        refusal?.let { throw it }
        events += "prepare"
        return object : PreparedLab {
            override fun open(store: RunStore, scenario: Scenario, options: RunOptions, progress: (String) -> Unit): OpenLab {
                events += "open"
                return object : OpenLab {
                    override val lab = this@FakeLabSource.lab
                    override val environment = RunEnvironment(cpuModel = "Fake CPU", cpuCores = 2)
                    override val externalDatabase: ExternalDatabaseRecord? = null
                    override fun serverCommands() = mapOf("api-server" to listOf("fake"))
                    override fun stopChildren() {
                        events += "stop children"
                    }
                    override fun close() {
                        events += "close"
                    }
                }
            }

            override fun close() {
                events += "release"
            }
        }
    }
}

/** Shutdown hooks a test runs itself, as the JVM would on SIGTERM. */
internal class HeldHooks : ShutdownHooks {
    val added = java.util.Collections.synchronizedList(mutableListOf<Thread>())
    override fun add(hook: Thread) {
        added += hook
    }
    override fun remove(hook: Thread) {
        added -= hook
    }
}
