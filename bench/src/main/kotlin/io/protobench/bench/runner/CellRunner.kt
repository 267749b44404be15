package io.protobench.bench.runner

import com.fasterxml.jackson.databind.JsonNode
import io.protobench.bench.measure.CpuAccounting
import io.protobench.bench.measure.Steadiness
import io.protobench.bench.measure.TrialFigures
import io.protobench.bench.measure.TrialRecord
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Scenario
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import io.protobench.contract.payload.PayloadSize
import java.nio.file.Path
import java.time.Clock
import java.time.Duration

/** What one k6 run of a cell inside a gateway window produced. */
class Measured(val k6Summary: JsonNode, val gateway: JsonNode, val cpu: io.protobench.bench.measure.CpuUsage)

/**
 * Runs one cell against a set of servers: opens the gateway's measurement window,
 * drives the cell with k6, closes the window, and reads CPU from /proc around it.
 */
class CellRunner(
    servers: ServerSet,
    private val k6: K6Runner,
    private val cpu: CpuAccounting,
    private val script: Path,
    private val dir: Path,
    private val clock: Clock,
) {
    private val expectedSizes = mutableMapOf<Pair<Target, Protocol>, Long?>()

    /** The servers cells run against; replaced when they are restarted. */
    var servers: ServerSet = servers
        set(value) {
            field = value
            gateway = GatewayClient(value.gatewayUrl)
        }

    /** One control client per server set (each JDK HttpClient owns a selector thread). */
    private var gateway = GatewayClient(servers.gatewayUrl)

    /** One measured run of [cell]; throws when k6 or the gateway fails (the window is closed either way). */
    fun measure(cell: Cell, duration: Duration, testName: String): Measured {
        val before = cpu.read(servers.pids)
        gateway.startWindow(cell.protocolLabel, testName)
        val summary = try {
            k6.run(invocation(cell, duration))
        } catch (e: RuntimeException) {
            runCatching { gateway.endWindow() }
            throw e
        }
        val end = gateway.endWindow()
        return Measured(summary, end, cpu.usage(before, cpu.read(servers.pids), Runtime.getRuntime().availableProcessors()))
    }

    /** A counted trial: its figures and flags, or the error that prevented them. */
    fun trial(planned: PlannedTrial, scenario: Scenario): TrialRecord {
        val cell = planned.cell
        val startedAt = clock.instant().toString()
        return try {
            val m = measure(cell, scenario.duration, "${scenario.name} ${cell.condition.label} round ${planned.round}")
            val target = (cell.condition.load as? LoadLevel.Rate)?.perSecond
            val base = TrialFigures.from(m.k6Summary, m.gateway) + TrialFigures.fromCpu(m.cpu)
            val figures = base + TrialFigures.rateShare(base, target)
            val flags = m.cpu.saturation() + TrialFigures.rateFlags(figures, target) + unsteady(m.gateway)
            TrialRecord(cell.condition.label, cell.protocolLabel, planned.round, planned.sequence, startedAt,
                figures, m.k6Summary.path("metrics"), m.gateway, cpu = m.cpu, flags = flags)
        } catch (e: RuntimeException) {
            TrialRecord(cell.condition.label, cell.protocolLabel, planned.round, planned.sequence, startedAt,
                emptyMap(), null, null, error = e.message)
        }
    }

    private fun unsteady(end: JsonNode): List<String> =
        Steadiness.ofGateway(end)?.takeIf { it.steady == false }?.let { listOf("unsteady: ${it.describe()}") } ?: emptyList()

    private fun invocation(cell: Cell, duration: Duration) = K6Invocation.of(
        script, servers.gatewayUrl, cell, duration, expectedValue(cell), dir.resolve("logs/k6-summary.json"),
    )

    /** The exact payloadSize / serializedSize every answer of this cell must report. */
    private fun expectedValue(cell: Cell): Long? = expectedSizes.getOrPut(cell.condition.target to cell.protocol) {
        when (val target = cell.condition.target) {
            is Target.Size -> PayloadSize.parse(target.size).bytes.toLong()
            is Target.Level -> levelBytes(target.complexity, cell.protocol)
        }
    }

    private fun levelBytes(level: String, protocol: Protocol): Long? {
        val field = if (protocol == Protocol.HTTP_JSON) "jsonBytes" else "protobufBytes"
        return gateway.complexities().findParents("level")
            .firstOrNull { it.path("level").asText() == level }?.path(field)?.takeIf { it.isNumber }?.asLong()
    }
}
