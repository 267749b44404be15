package io.protobench.bench.database

import io.protobench.bench.process.ChildEnvironment
import java.io.File
import java.nio.file.Path

/**
 * Stops a cluster when the process that owns it is gone, however that process ended:
 * SIGKILL and the OOM killer run no shutdown hook, and pg_ctl detaches the server from its
 * starter, so nothing else would stop it. A shell
 * polls the owner (PROTOBENCH_WATCH_PID) and, once it is gone, runs the stop command
 * ("$@"); it ends by itself when the server is gone first. It runs in a session of its own
 * (setsid), so a signal to the owner's process group does not take it along.
 */
internal object ClusterWatchdog {
    private const val SCRIPT = """
while kill -0 "${'$'}PROTOBENCH_WATCH_PID" 2>/dev/null; do
  kill -0 "${'$'}PROTOBENCH_POSTMASTER_PID" 2>/dev/null || exit 0
  sleep 0.5
done
exec "${'$'}@"
"""

    fun start(owner: ProcessHandle, postmaster: ProcessHandle, stopCommand: List<String>, log: Path): Process {
        val builder = ProcessBuilder(listOf("setsid", "sh", "-c", SCRIPT, "protobench-db-watchdog") + stopCommand)
            .redirectInput(File("/dev/null"))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
        val watched = mapOf("PROTOBENCH_WATCH_PID" to owner.pid().toString(), "PROTOBENCH_POSTMASTER_PID" to postmaster.pid().toString())
        ChildEnvironment.apply(builder, watched)
        return builder.start()
    }
}
