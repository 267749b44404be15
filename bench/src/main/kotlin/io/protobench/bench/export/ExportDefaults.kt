package io.protobench.bench.export

import io.protobench.bench.scenario.ServerHeap
import java.time.Duration

/** The defaults of `protobench export kubernetes`, documented in its help and in docs/distributed.md. */
object ExportDefaults {
    const val NAMESPACE = "protobench"

    /**
     * 60 s, not the scenario's duration: a scenario's duration is one trial inside a soaked
     * fork of `protobench run` (quick: 3 s); a Job's pods start as each is scheduled, not
     * together, so a run needs to be long against the gap between the first and the last.
     */
    const val DURATION = "60s"
    val DURATION_RANGE: ClosedRange<Duration> = Duration.ofSeconds(10)..Duration.ofHours(1)

    /**
     * Each pod's warm-up before its timed phase, at the same load: its own JIT and the
     * servers' warm, and the pods that start first have sent a while at the full load's
     * share before the timed phases begin.
     */
    const val WARM_UP = "10s"
    val WARM_UP_RANGE: ClosedRange<Duration> = Duration.ZERO..Duration.ofMinutes(10)

    /** More driver pods than this is a different tool's job. */
    const val MAX_PODS = 100

    /** Two whole cores each: with the kubelet's static CPU manager a Guaranteed pod gets them to itself. */
    const val SERVER_CPU = "2"

    /** The servers' heap as in `protobench run` (-Xms1g -Xmx1g) plus room for metaspace, threads and Netty's direct buffers. */
    const val SERVER_MEMORY = "1536Mi"

    /** One core per driver pod: the driver sends from one event loop. */
    const val DRIVER_CPU = "1"

    /** The driver's heap as in `protobench run` (256 MiB, [io.protobench.bench.lab.launch.DriverProcess.JVM_OPTIONS]) plus room beside it. */
    const val DRIVER_MEMORY = "512Mi"

    /** The least a driver pod may have: its 256 MiB heap and 128 MiB for the rest of the JVM. */
    const val DRIVER_MEMORY_FLOOR = 384L shl 20

    /** The servers' JVM options: `protobench run`'s defaults. */
    val JVM_OPTIONS: List<String> = ServerHeap.DEFAULT_JVM_OPTIONS + "-XX:+ExitOnOutOfMemoryError"

    /** Memory a server's pod needs beyond the heap, at the least. */
    const val NON_HEAP_BYTES = 256L shl 20

    fun dataServerImage() = "protobench/data-server:${ProjectVersion.current}"
    fun gatewayImage() = "protobench/api-server:${ProjectVersion.current}"
    fun driverImage() = "protobench/load-driver:${ProjectVersion.current}"
}

/** The project version the build wrote into project.properties (the servers' exec jars carry it too). */
object ProjectVersion {
    val current: String by lazy {
        val properties = java.util.Properties()
        ProjectVersion::class.java.getResourceAsStream("/project.properties")?.use(properties::load)
        properties.getProperty("version")?.takeUnless { it.startsWith("@") } ?: "dev"
    }
}
