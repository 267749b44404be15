package io.protobench.contract.process

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import java.time.Duration
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger

@Tag("process")
class ParentWatchTest {
    private val period = Duration.ofMillis(5)

    @Test
    fun `the action runs once, after the check first finds the parent gone`() {
        val checks = AtomicInteger()
        val actions = AtomicInteger()
        val done = CountDownLatch(1)
        // Alive for the first three checks, gone from the fourth on.
        val watch = ParentWatch(42, onParentGone = {
            actions.incrementAndGet()
            done.countDown()
        }, period = period) {
            assertThat(it).isEqualTo(42)
            checks.incrementAndGet() <= 3
        }.start()

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue()
        watch.close()
        assertThat(checks.get()).isEqualTo(4)
        assertThat(actions.get()).isEqualTo(1)
    }

    @Test
    fun `a parent that is already gone is noticed by the first check`() {
        val checks = AtomicInteger()
        val done = CountDownLatch(1)
        ParentWatch(42, onParentGone = { done.countDown() }, period = Duration.ofHours(1)) {
            checks.incrementAndGet()
            false
        }.start()

        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue()
        assertThat(checks.get()).isEqualTo(1)
    }

    @Test
    fun `a closed watch stops checking and never acts`() {
        val firstCheck = CountDownLatch(1)
        val actions = AtomicInteger()
        val watch = ParentWatch(42, onParentGone = { actions.incrementAndGet() }, period = Duration.ofHours(1)) {
            firstCheck.countDown()
            true
        }.start()
        assertThat(firstCheck.await(10, TimeUnit.SECONDS)).isTrue()

        watch.close()

        assertThat(actions.get()).isZero()
    }

    @Test
    fun `the real liveness check sees this process alive and an ended one gone`() {
        val ended = ProcessBuilder(javaBin(), "-version").redirectErrorStream(true).start()
        ended.inputStream.readAllBytes()
        ended.waitFor()

        assertThat(ParentWatch.isProcessAlive(ProcessHandle.current().pid())).isTrue()
        assertThat(ParentWatch.isProcessAlive(ended.pid())).isFalse()
    }

    @Test
    fun `the state of a stat line is read after the command, whatever the command holds`() {
        assertThat(ParentWatch.stateOf("4242 (java) S 1 4242 4242 0 -1")).isEqualTo('S')
        assertThat(ParentWatch.stateOf("4242 (protobench) Z 1 4242")).isEqualTo('Z')
        assertThat(ParentWatch.stateOf("4242 (a) (b) X 1 4242")).isEqualTo('X')
        assertThat(ParentWatch.stateOf("4242 (name with spaces) R 1")).isEqualTo('R')
        assertThat(ParentWatch.stateOf("garbage")).isNull()
    }

    @Test
    fun `a parent that has exited but is not reaped yet counts as gone`() {
        // The shell's background child exits after a second, when its parent has long since exec'd sleep, which never reaps
        // it: a zombie until the test ends. (A child that exits at once may be reaped by the shell before the exec.) The JVM's
        // own ProcessHandle.isAlive may still call such a process alive (on some kernels and JDK builds, not always), which is
        // why ParentWatch reads /proc's state instead.
        val parent = ProcessBuilder("sh", "-c", "sleep 1 & echo \$!; exec sleep 60").start()
        try {
            val zombie = parent.inputStream.bufferedReader().readLine().trim().toLong()
            val deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20)
            while (!ParentWatch.hasExited(zombie) && System.nanoTime() < deadline) Thread.sleep(10)
            assertThat(ParentWatch.hasExited(zombie)).isTrue()
            assertThat(ParentWatch.isProcessAlive(zombie)).isFalse()
            assertThat(ParentWatch.isProcessAlive(parent.pid())).isTrue()
        } finally {
            parent.destroyForcibly()
        }
    }

    @Test
    fun `a JVM whose parent is already dead exits by itself`() {
        val deadParent = ProcessBuilder(javaBin(), "-version").redirectErrorStream(true).start()
        deadParent.inputStream.readAllBytes()
        deadParent.waitFor()

        val child = ProcessBuilder(
            javaBin(),
            "-cp",
            System.getProperty("java.class.path"),
            OrphanCandidate::class.java.name,
            deadParent.pid().toString(),
        ).redirectErrorStream(true).start()
        val exited = child.waitFor(30, TimeUnit.SECONDS)
        if (!exited) child.destroyForcibly()
        val output = child.inputStream.readAllBytes().decodeToString()

        assertThat(exited).`as`("child exited by itself; output:\n%s", output).isTrue()
        assertThat(child.exitValue()).isEqualTo(ParentWatch.EXIT_STATUS)
        assertThat(output).contains("parent process ${deadParent.pid()} is gone").contains("closed")
    }

    private fun javaBin() = ProcessHandle.current().info().command().orElse("java")
}

/** A stand-in server for the child-process test: watches the given parent and otherwise runs forever. */
object OrphanCandidate {
    @JvmStatic
    fun main(args: Array<String>) {
        val pid = args.single().toLong()
        ParentWatch(pid, onParentGone = { ParentWatch.exitJvm(pid) { println("closed") } }).start()
        Thread.sleep(Long.MAX_VALUE)
    }
}
