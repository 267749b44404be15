package io.protobench.bench.lab

import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Target
import io.protobench.contract.payload.PayloadSize
import io.protobench.driver.CallTarget
import io.protobench.driver.Load
import io.protobench.driver.Plan
import java.time.Duration

/** What the load driver is told to run for a trial or a soak through the gateway. */
object DriverPlans {
    /**
     * The gateway call of [cell] and its one correct answer: status 200 with the payload's
     * bytes (`payloadSize`), the level's `serializedSize` as [levelBytes] gives it for the arm
     * (null when unknown: any size above 0), or every member of the batch `created`, posting
     * the body [bodies] wrote for it with a fresh email in each member.
     */
    fun target(cell: Cell, levelBytes: (level: String, arm: Arm) -> Long?, bodies: MemberBodies? = null): CallTarget =
        when (val target = cell.condition.target) {
            is Target.Size -> CallTarget(target.gatewayPath(cell.arm), "payloadSize", PayloadSize.parse(target.size).bytes.toLong())
            is Target.Level -> CallTarget(target.gatewayPath(cell.arm), "serializedSize", levelBytes(target.complexity, cell.arm))
            is Target.Members -> {
                val body = checkNotNull(bodies) { "member creation needs the bodies' folder" }.of(target)
                CallTarget(target.gatewayPath(cell.arm), "created", target.createdBy(cell.arm).toLong(), method = "POST",
                    body = body.path.toString(), emails = body.emailOffsets)
            }
        }

    /** A fixed rate on a pool of keep-alive connections (k6's virtual users before), or users in a loop. */
    fun load(offered: LoadLevel): Load = when (offered) {
        is LoadLevel.Rate -> Load.open(offered.perSecond.toDouble(), offered.startVus, offered.maxVus)
        is LoadLevel.Vus -> Load.closed(offered.vus)
    }

    fun plan(baseUrl: String, targets: List<CallTarget>, offered: LoadLevel, duration: Duration) =
        Plan(baseUrl, targets, load(offered), duration.toMillis())
}
