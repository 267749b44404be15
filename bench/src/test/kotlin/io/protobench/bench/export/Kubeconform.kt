package io.protobench.bench.export

import com.fasterxml.jackson.databind.ObjectMapper
import io.protobench.bench.lab.launch.Toolchain
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * kubeconform at a pinned version, installed into `tools/bin` with `go install` the
 * first time ([Toolchain.goInstalled], as hey and ghz are), run against the schemas vendored in
 * `src/test/resources/kube-schemas/` and nothing else: no network at test time.
 */
class Kubeconform(private val binary: Path, private val schemas: Path) {
    /** One resource's verdict: `statusValid`, `statusInvalid`, `statusError` (no schema, unreadable) or `statusSkipped`. */
    data class Checked(val file: String, val kind: String, val name: String, val status: String, val message: String)

    data class Result(val exitCode: Int, val resources: List<Checked>, val output: String) {
        val allValid: Boolean get() = exitCode == 0 && resources.isNotEmpty() && resources.all { it.status == "statusValid" }
    }

    /** Every resource of [files] checked strictly (unknown fields and duplicate keys refused), each listed with its verdict. */
    fun check(files: List<Path>): Result {
        val command = listOf(
            binary.toString(),
            "-strict",
            "-summary",
            "-verbose",
            "-output",
            "json",
            "-schema-location",
            "$schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json",
        ) + files.map { it.toString() }
        val builder = ProcessBuilder(command).redirectErrorStream(true)
        // Belt and braces: were kubeconform to reach for a schema online, it would fail here, not pass.
        builder.environment().apply {
            put("HTTPS_PROXY", NO_PROXY_THERE)
            put("HTTP_PROXY", NO_PROXY_THERE)
        }
        val process = builder.start()
        val output = process.inputStream.bufferedReader().readText()
        check(process.waitFor(2, TimeUnit.MINUTES)) { "kubeconform did not finish within 2 minutes" }
        return Result(process.exitValue(), resources(output), output)
    }

    private fun resources(output: String): List<Checked> {
        val json = runCatching { ObjectMapper().readTree(output) }.getOrNull() ?: return emptyList()
        return json.path("resources").map {
            Checked(
                it.path("filename").asText(),
                it.path("kind").asText(),
                it.path("name").asText(),
                it.path("status").asText(),
                it.path("msg").asText(),
            )
        }
    }

    companion object {
        const val COMMAND = "github.com/yannh/kubeconform/cmd/kubeconform"
        const val VERSION = "v0.8.0"
        private const val NO_PROXY_THERE = "http://127.0.0.1:9"

        /** The schemas on the test class path (target/test-classes/kube-schemas). */
        fun schemas(): Path = Path.of(Kubeconform::class.java.getResource("/kube-schemas/configmap-v1.json")!!.toURI()).parent

        /**
         * kubeconform for the project in [projectDir], installed first if needed. Without Go to
         * install it this throws [io.protobench.bench.lab.launch.ToolchainProblem], whose message
         * says what to install: the test fails, it is never skipped.
         */
        fun installed(projectDir: Path): Kubeconform =
            Kubeconform(Toolchain(projectDir).goInstalled("kubeconform", COMMAND, VERSION) { println(it) }, schemas())
    }
}
