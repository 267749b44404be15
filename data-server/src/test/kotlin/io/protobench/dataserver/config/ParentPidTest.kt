package io.protobench.dataserver.config

import io.protobench.contract.process.ParentWatch
import io.protobench.contract.server.ServerSupport
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/** `protobench.parent-pid` as both servers bind it (they share [ServerSupport]). */
class ParentPidTest {
    private val runner = ApplicationContextRunner().withUserConfiguration(ServerSupport::class.java)

    @Test
    fun `without a parent pid nothing watches`() {
        runner.run { assertThat(it).doesNotHaveBean(ParentWatch::class.java) }
    }

    @Test
    fun `a parent pid starts a watch of that process`() {
        val pid = ProcessHandle.current().pid()
        runner.withPropertyValues("protobench.parent-pid=$pid").run {
            assertThat(it.getBean(ParentWatch::class.java).parentPid).isEqualTo(pid)
        }
    }

    @Test
    fun `a parent pid that is not a process id fails startup naming the property`() {
        runner.withPropertyValues("protobench.parent-pid=-5").run {
            assertThat(it).hasFailed()
            assertThat(generateSequence(it.startupFailure) { e -> e.cause }.joinToString { e -> e.message.orEmpty() })
                .contains("protobench.parent-pid must be a process id")
        }
    }
}
