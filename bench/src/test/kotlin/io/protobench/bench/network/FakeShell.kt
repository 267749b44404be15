package io.protobench.bench.network

/** A shell in which netem is unknown to the kernel, as on the reference machine; it records every command. */
internal class FakeShell(
    private val failing: (List<String>) -> String? = { if ("netem" in it) "Error: Specified qdisc kind is unknown." else null },
    private val output: (List<String>) -> String = { "" },
) : Shell {
    val commands = mutableListOf<List<String>>()
    override fun run(command: List<String>): Pair<Int, String> {
        commands += command
        return failing(command)?.let { 2 to it } ?: (0 to output(command))
    }
}
