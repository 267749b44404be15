package io.protobench.apiserver.measure

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.TestTimeSource

class TimelineTest {
    @Test
    fun `completions are counted per whole second and the running second is left out`() {
        val time = TestTimeSource()
        val timeline = Timeline(time.markNow())
        repeat(3) { timeline.recordCompletion() }
        time += 1500.milliseconds
        repeat(5) { timeline.recordCompletion() }
        time += 1000.milliseconds
        timeline.recordCompletion()

        assertThat(timeline.completedSeconds().completed).containsExactly(3L, 5L)
        assertThat(timeline.completedSeconds().intervalMs).isEqualTo(1000L)
    }

    @Test
    fun `failures count as completions in the window timeline`() {
        val time = TestTimeSource()
        val recording = WindowRecording(time.markNow())
        recording.recordSuccess(2.milliseconds, 10)
        recording.recordFailure("data-server timeout")
        time += 1000.milliseconds
        assertThat(recording.timeline.completedSeconds().completed).containsExactly(2L)
    }
}
