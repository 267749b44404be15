package io.protobench.bench.run

import io.protobench.bench.measure.RunEnvironment
import io.protobench.bench.measure.RunRecord
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.run.RunStore
import io.protobench.bench.testkit.Fixtures
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path
import kotlin.concurrent.thread

class RunStoreTest {
    private fun record(status: RunStatus, failure: String? = null) = RunRecord(
        runId = "r",
        scenario = Fixtures.scenario(listOf("c"), listOf("p")),
        options = emptyMap(),
        environment = RunEnvironment.NONE,
        startedAt = "t",
        status = status,
        failure = failure,
        seed = 1,
    )

    @Test
    fun `an interrupted run's sealed record is not overwritten by the unwinding run thread`(@TempDir dir: Path) {
        val store = RunStore(dir)
        store.save(record(RunStatus.RUNNING))
        store.seal(record(RunStatus.INTERRUPTED))
        store.save(record(RunStatus.FAILED))
        assertThat(RunStore.load(dir).status).isEqualTo(RunStatus.INTERRUPTED)
    }

    @Test
    fun `concurrent saves never leave a broken run json`(@TempDir dir: Path) {
        val store = RunStore(dir)
        val writers = (1..4).map { n -> thread { repeat(50) { store.save(record(RunStatus.RUNNING, "w$n-$it")) } } }
        writers.forEach { it.join() }
        assertThat(RunStore.load(dir).failure).startsWith("w")
    }

    @Test
    fun `two runs started in the same second get their own folders`(@TempDir dir: Path) {
        val first = RunStore.create(dir, "20260101-000000-quick")
        val second = RunStore.create(dir, "20260101-000000-quick")
        assertThat(second.dir).isNotEqualTo(first.dir)
        assertThat(second.dir.fileName.toString()).isEqualTo("20260101-000000-quick-2")
    }
}
