package io.protobench.bench

import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.ScenarioRecord
import io.protobench.bench.runner.RunStore
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import kotlin.concurrent.thread

class RunStoreTest {
    private fun record(status: String) = RunRecord(
        runId = "r", scenario = ScenarioRecord("s", "", null, listOf("c"), listOf("p"), emptyList(), "closed", 1, 0, 1),
        options = emptyMap(), environment = emptyMap(), startedAt = "t", status = status, shuffleSeed = 1,
    )

    @Test
    fun `an interrupted run's sealed record is not overwritten by the unwinding run thread`(@TempDir dir: Path) {
        val store = RunStore(dir)
        store.save(record("running"))
        store.seal(record("interrupted"))
        store.save(record("failed"))
        assertThat(RunStore.load(dir).status).isEqualTo("interrupted")
    }

    @Test
    fun `concurrent saves never leave a broken run json`(@TempDir dir: Path) {
        val store = RunStore(dir)
        val writers = (1..4).map { n -> thread { repeat(50) { store.save(record("w$n-$it")) } } }
        writers.forEach { it.join() }
        assertThat(RunStore.load(dir).status).startsWith("w")
    }
}
