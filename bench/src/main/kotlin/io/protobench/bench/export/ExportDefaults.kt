package io.protobench.bench.export

import io.protobench.bench.scenario.ServerHeap
import java.time.Duration

/** The defaults of `protobench export k6-operator`, documented in its help and in docs/distributed.md. */
object ExportDefaults {
    const val NAMESPACE = "protobench"

    /**
     * 60 s, not the scenario's duration: a scenario's duration is one trial inside a soaked
     * fork of `protobench run` (quick: 3 s); runners started by the operator begin within a
     * second or so of each other, so a run needs to be long against that.
     */
    const val DURATION = "60s"
    val DURATION_RANGE: ClosedRange<Duration> = Duration.ofSeconds(10)..Duration.ofHours(1)

    /** More runners than this is a different tool's job; each runner is a pod with its own k6. */
    const val MAX_PARALLELISM = 100

    /** Two whole cores each: with the kubelet's static CPU manager a Guaranteed pod gets them to itself. */
    const val SERVER_CPU = "2"

    /** The servers' heap as in `protobench run` (-Xms1g -Xmx1g) plus room for metaspace, threads and Netty's direct buffers. */
    const val SERVER_MEMORY = "1536Mi"
    const val RUNNER_CPU = "1"
    const val RUNNER_MEMORY = "512Mi"

    /** The servers' JVM options: `protobench run`'s defaults. */
    val JVM_OPTIONS: List<String> = ServerHeap.DEFAULT_JVM_OPTIONS + "-XX:+ExitOnOutOfMemoryError"

    /** Memory a server's pod needs beyond the heap, at the least. */
    const val NON_HEAP_BYTES = 256L shl 20

    /** The k6 the local runs used, as Grafana's image (until the export moves to the lab's driver). */
    const val K6_IMAGE = "grafana/k6:1.8.1"

    fun dataServerImage() = "protobench/data-server:${ProjectVersion.current}"
    fun gatewayImage() = "protobench/api-server:${ProjectVersion.current}"
}

/** The project version the build wrote into project.properties (the servers' exec jars carry it too). */
object ProjectVersion {
    val current: String by lazy {
        val properties = java.util.Properties()
        ProjectVersion::class.java.getResourceAsStream("/project.properties")?.use(properties::load)
        properties.getProperty("version")?.takeUnless { it.startsWith("@") } ?: "dev"
    }
}
