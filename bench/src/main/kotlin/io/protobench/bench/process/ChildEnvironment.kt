package io.protobench.bench.process

/**
 * The environment every child process (server JVMs, the load driver) gets: an explicit
 * allow-list of the caller's variables plus what the runner sets, nothing inherited by
 * accident. Without it `SERVER_ADDRESS=0.0.0.0` in the caller's shell would expose both
 * servers (Spring reads it), and `JAVA_TOOL_OPTIONS` would silently change every child
 * JVM's flags, the driver's included.
 */
object ChildEnvironment {
    /** Variables passed through from the caller when set. */
    val ALLOWED = listOf("PATH", "HOME", "USER", "LANG", "LC_ALL", "TZ", "TMPDIR")

    /** The passed-through variables as they are now, for run.json. */
    fun inherited(): Map<String, String> = ALLOWED.mapNotNull { name -> System.getenv(name)?.let { name to it } }.toMap()

    fun apply(builder: ProcessBuilder, extra: Map<String, String> = emptyMap()) {
        val environment = builder.environment()
        environment.clear()
        environment.putAll(inherited())
        environment.putAll(extra)
    }
}
