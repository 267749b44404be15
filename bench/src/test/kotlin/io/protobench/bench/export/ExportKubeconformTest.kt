package io.protobench.bench.export

import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/**
 * The exported manifests against kubeconform (installed with `go install` on first use)
 * and the schemas vendored in src/test/resources/kube-schemas: Deployment, Service,
 * ConfigMap and Job. A valid export passes strictly; a broken manifest fails, so passing
 * means something.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag(PROCESS)
class ExportKubeconformTest {
    @TempDir
    lateinit var tmp: Path

    private lateinit var kubeconform: Kubeconform

    @BeforeAll
    fun install() {
        kubeconform = Kubeconform.installed(Path.of("").toAbsolutePath().parent)
    }

    private var exports = 0

    /** A request for [scenario] into a fresh folder; change the rest with copy(). */
    private fun request(scenario: String, pods: Int) = ExportRequest(scenario, pods, tmp.resolve("export-${++exports}").toString())

    private fun export(request: ExportRequest): List<Path> = yamlFiles(KubernetesExport.write(ExportValidation.check(request)).dir)

    private fun export(scenario: String, pods: Int): List<Path> = export(request(scenario, pods))

    private fun firstJob(files: List<Path>) = files.first { it.parent.fileName.toString() == KubernetesExport.JOBS_DIR }

    private fun yamlFiles(dir: Path): List<Path> = Files.walk(dir).use { paths ->
        paths.filter { it.toString().endsWith(".yaml") }.sorted().toList()
    }

    @Test
    fun `an export passes kubeconform strictly, every kind against its vendored schema`() {
        val files = export("quick", 4) + export(request("phase6", 3).copy(rate = 200, namespace = "bench-ns"))
        val result = kubeconform.check(files)
        assertThat(result.allValid).describedAs(result.output).isTrue()
        assertThat(result.resources.map { it.kind }.toSet()).containsExactlyInAnyOrder("ConfigMap", "Deployment", "Service", "Job")
        // quick: 1 ConfigMap, 2 Deployments, 2 Services, 12 Jobs (its A/A copy included);
        // phase6 with its A/A control: 2 conditions x 6 arms.
        assertThat(result.resources).hasSize(17 + 5 + 12)
    }

    @Test
    fun `a field of the wrong type fails kubeconform`() {
        val deployment = copyOf(
            export("quick", 2).single { it.fileName.toString() == KubernetesExport.DATA_SERVER_FILE },
            "replicas-as-text.yaml",
        ) {
            it.replace("replicas: 1", "replicas: one")
        }
        val result = kubeconform.check(listOf(deployment))
        assertThat(result.exitCode).isNotZero()
        assertThat(result.resources.single { it.kind == "Deployment" }.let { it.status to it.message })
            .satisfies({ (status, message) ->
                assertThat(status).isEqualTo("statusInvalid")
                assertThat(message).contains("/spec/replicas")
            })
    }

    @Test
    fun `an unknown field fails kubeconform under strict, in a Deployment and in a Job`() {
        val files = export("quick", 2)
        val gateway = copyOf(files.single { it.fileName.toString() == KubernetesExport.GATEWAY_FILE }, "misspelt-probe.yaml") {
            it.replace("readinessProbe:", "readinesProbe:")
        }
        val job = copyOf(firstJob(files), "misspelt-completion-mode.yaml") {
            it.replace("completionMode: Indexed", "completionMod: Indexed")
        }
        val result = kubeconform.check(listOf(gateway, job))
        assertThat(result.exitCode).isNotZero()
        assertThat(result.resources.filter { it.status == "statusInvalid" }.map { it.kind to it.message })
            .anySatisfy { (kind, message) ->
                assertThat(kind).isEqualTo("Deployment")
                assertThat(message).contains("readinesProbe")
            }
            .anySatisfy { (kind, message) ->
                assertThat(kind).isEqualTo("Job")
                assertThat(message).contains("completionMod")
            }
    }

    @Test
    fun `a number where Kubernetes wants a string fails kubeconform (a pod count written unquoted in the driver's arguments)`() {
        val job = copyOf(firstJob(export("quick", 2)), "unquoted-pods.yaml") { it.replace("- \"2\"", "- 2") }
        val result = kubeconform.check(listOf(job))
        assertThat(result.resources.single().status).describedAs(result.output).isEqualTo("statusInvalid")
        assertThat(result.resources.single().message).contains("/spec/template/spec/containers/0/args/", "want string")
    }

    @Test
    fun `a kind without a vendored schema is an error, never skipped or fetched`() {
        val file = tmp.resolve("namespace.yaml")
        Files.writeString(file, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: protobench\n")
        val result = kubeconform.check(listOf(file))
        assertThat(result.exitCode).isNotZero()
        assertThat(result.resources.single().status).describedAs(result.output).isEqualTo("statusError")
    }

    private fun copyOf(file: Path, name: String, change: (String) -> String): Path {
        val text = Files.readString(file)
        val changed = change(text)
        check(changed != text) { "the change to $file did not apply" }
        return tmp.resolve(name).also { Files.writeString(it, changed) }
    }
}
