package io.protobench.bench.design

import io.protobench.bench.scenario.Arm
import io.protobench.bench.scenario.Cell
import io.protobench.bench.scenario.Condition
import io.protobench.bench.scenario.LoadLevel
import io.protobench.bench.scenario.Target
import io.protobench.contract.Protocol
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class SoakMixTest {
    private val load = LoadLevel.Vus(10)
    private fun cell(target: Target, arm: Arm = Arm.Of(Protocol.GRPC_UNARY)) = Cell(Condition(target, load), arm)

    @Test
    fun `small payloads come up as often as the square root of how much smaller they are`() {
        val small = cell(Target.Size("1kb"))
        val large = cell(Target.Size("1mb"))
        val mix = SoakMix.weighted(listOf(large, small))
        assertEquals(32, mix.count { it == small })
        assertEquals(1, mix.count { it == large })
        val tenKb = cell(Target.Size("10kb"))
        assertEquals(10, SoakMix.weighted(listOf(large, tenKb)).count { it == tenKb })
    }

    @Test
    fun `member creations weigh by the image bytes of a request`() {
        val oneSmall = cell(Target.Members("1kb", 1))
        val batchOfLarge = cell(Target.Members("100kb", 10))
        // 10 x 100 KB against 1 KB: sqrt(1000), capped at 32.
        assertEquals(32, SoakMix.weighted(listOf(batchOfLarge, oneSmall)).count { it == oneSmall })
        assertEquals(10, SoakMix.weighted(listOf(cell(Target.Members("100kb", 1)), oneSmall)).count { it == oneSmall })
    }

    @Test
    fun `every endpoint comes in the first stretch of the cycle, the heavy ones too`() {
        val cells = listOf(cell(Target.Size("1mb")), cell(Target.Size("1kb")), cell(Target.Size("1mb"), Arm.NullHop))
        assertEquals(cells, SoakMix.weighted(cells).take(3))
    }

    @Test
    fun `the weight is capped and complexity levels keep one call per cycle`() {
        val tiny = cell(Target.Size("100"))
        val huge = cell(Target.Size("8mb"))
        assertEquals(SoakMix.MAX_WEIGHT, SoakMix.weighted(listOf(huge, tiny)).count { it == tiny })
        val levels = listOf(cell(Target.Level("simple")), cell(Target.Level("extreme")))
        assertEquals(levels, SoakMix.weighted(levels))
    }
}
