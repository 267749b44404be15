package io.protobench.bench.run

import io.protobench.bench.measure.Figure
import io.protobench.bench.measure.Figures
import io.protobench.bench.measure.RunStatus
import io.protobench.bench.testkit.Fixtures
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Path

class RunEndingTest {
    private val run = Fixtures.record(listOf("1kb"), listOf("gRPC/Unary"), forks = 1) { _, _, _, _ -> Figures.of(Figure.HOP_P50 to 1.0) }
    private val complete = run.copy(status = RunStatus.COMPLETE)
    private val failed = run.copy(forks = emptyList(), status = RunStatus.FAILED, failure = "no fork completed; see the fork failures")
    private val interrupted = run.copy(status = RunStatus.INTERRUPTED, failure = "stopped by a signal (Ctrl-C or SIGTERM)")

    @Test
    fun `after a signal the run's thread writes nothing, and the hook's interrupted record is the one reported`(@TempDir dir: Path) {
        val reported = mutableListOf<RunStatus>()
        val ending = RunEnding(RunStore(dir)) { _, record -> reported += record.status }

        ending.signal()
        // The stopped run returns with what looks like a failure: it must not be saved or reported.
        assertThat(ending.endedByRun(failed)).isFalse()
        assertThat(dir.resolve("run.json")).doesNotExist()
        assertThat(ending.endedBySignal(interrupted)).isTrue()

        assertThat(reported).containsExactly(RunStatus.INTERRUPTED)
        assertThat(RunStore.load(dir).status).isEqualTo(RunStatus.INTERRUPTED)
    }

    @Test
    fun `a run that ended on its own keeps its status when a signal comes during its last report`(@TempDir dir: Path) {
        val reported = mutableListOf<RunStatus>()
        val store = RunStore(dir)
        val ending = RunEnding(store) { _, record -> reported += record.status }

        assertThat(ending.endedByRun(complete)).isTrue()
        ending.signal()
        assertThat(ending.endedBySignal(interrupted)).isFalse()

        assertThat(reported).containsExactly(RunStatus.COMPLETE)
        assertThat(RunStore.load(dir).status).isEqualTo(RunStatus.COMPLETE)
    }

    @Test
    fun `the hook seals the run before its report, so a report that fails leaves the interrupted record`(@TempDir dir: Path) {
        val store = RunStore(dir)
        val ending = RunEnding(store) { _, _ -> throw java.io.IOException("disk full") }

        ending.signal()
        assertThat(ending.endedBySignal(interrupted)).isTrue()
        store.save(complete) // a thread still unwinding

        assertThat(RunStore.load(dir).status).isEqualTo(RunStatus.INTERRUPTED)
    }
}
