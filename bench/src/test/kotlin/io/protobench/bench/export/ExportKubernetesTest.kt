package io.protobench.bench.export

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import com.fasterxml.jackson.module.kotlin.readValue
import io.protobench.bench.scenario.LoadLevel
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import io.protobench.driver.CallTarget
import io.protobench.driver.Load
import io.protobench.driver.Part
import io.protobench.driver.Plan
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** What `protobench export kubernetes` writes, read back: Jobs and the plans they run, names that refer to each other, the order. */
class ExportKubernetesTest {
    @TempDir
    lateinit var tmp: Path

    private val yaml = ObjectMapper(YAMLFactory())

    private fun settings(
        scenario: String = "quick",
        pods: Int = 4,
        change: (ExportRequest) -> ExportRequest = {
            it
        },
    ) = ExportValidation.check(change(ExportRequest(scenario, pods, tmp.resolve("out").toString())))

    /** Every document of every YAML file of the export, by file. */
    private fun documents(settings: ExportSettings): Map<String, List<JsonNode>> =
        KubernetesExport.files(settings).filter { it.path.endsWith(".yaml") }.associate { file ->
            file.path to yaml.readerFor(JsonNode::class.java).readValues<JsonNode>(file.text).readAll()
        }

    private fun jobs(settings: ExportSettings) = documents(settings).filterKeys {
        it.startsWith("${KubernetesExport.JOBS_DIR}/")
    }.values.flatten()

    private fun job(settings: ExportSettings, name: String) = jobs(settings).single { it.path("metadata").path("name").asText() == name }

    /** The plans' ConfigMap's data, read as the driver reads a plan: plan file name to the plan. */
    private fun plans(settings: ExportSettings): Map<String, Plan> =
        documents(settings).getValue(KubernetesExport.PLANS_FILE).single().path("data").fields().asSequence()
            .associate { (key, value) -> key to io.protobench.driver.json.readValue<Plan>(value.asText()) }

    private fun podSpec(job: JsonNode) = job.path("spec").path("template").path("spec")

    private fun container(deployment: JsonNode): JsonNode = podSpec(deployment).path("containers").single()

    @Test
    fun `every Job is Indexed with N pods at once, none retried, each running its part of a plan the ConfigMap holds`() {
        val settings = settings(pods = 7)
        val configMap = documents(settings).getValue(KubernetesExport.PLANS_FILE).single()
        val plans = plans(settings)
        val jobs = jobs(settings)
        assertThat(jobs).hasSize(12)
        jobs.forEach { job ->
            assertThat(job.path("apiVersion").asText() to job.path("kind").asText()).isEqualTo("batch/v1" to "Job")
            val spec = job.path("spec")
            assertThat(spec.path("completionMode").asText()).isEqualTo("Indexed")
            assertThat(listOf("completions", "parallelism").map { spec.path(it).asInt() }).containsOnly(7)
            assertThat(spec.path("backoffLimit").asInt()).isZero()
            assertThat(podSpec(job).path("restartPolicy").asText()).isEqualTo("Never")
            val driver = container(job)
            val args = driver.path("args").map { it.asText() }
            assertThat(args).hasSize(4)
            assertThat(args[0]).isEqualTo("run")
            assertThat(args.drop(2)).containsExactly(Part.JOB_PART_FLAG, "7")
            // The plan file is a key of the ConfigMap the pod mounts where the argument says.
            val mount = driver.path("volumeMounts").single()
            val volume = podSpec(job).path("volumes").single { it.path("name") == mount.path("name") }
            assertThat(volume.path("configMap").path("name").asText()).isEqualTo(configMap.path("metadata").path("name").asText())
            assertThat(Path.of(args[1]).parent.toString()).isEqualTo(mount.path("mountPath").asText())
            assertThat(plans).containsKey(Path.of(args[1]).fileName.toString())
            assertThat(job.path("metadata").path("namespace").asText()).isEqualTo(configMap.path("metadata").path("namespace").asText())
        }
    }

    @Test
    fun `a Job's plan is the trial's as the local runner builds it, against the gateway Service, warm-up and duration from the flags`() {
        val settings = settings { it.copy(namespace = "perf", duration = "90s", warmUp = "15s") }
        val plan = plans(settings).getValue("quick-03-grpc-unary.json")
        val gatewayService = documents(settings).getValue(KubernetesExport.GATEWAY_FILE)[1]
        val gatewayPort = gatewayService.path("spec").path("ports").single().path("port").asInt()
        assertThat(plan).isEqualTo(
            Plan(
                "http://${gatewayService.path("metadata").path("name").asText()}.perf.svc:$gatewayPort",
                listOf(CallTarget("/api/data/grpc?size=1kb", "payloadSize", 1024)),
                Load.closed(10),
                durationMs = 90_000,
                warmUpMs = 15_000,
            ),
        )
    }

    @Test
    fun `every part of every Job's plan runs, and the parts together send the whole`() {
        val settings = settings("phase3", 4) { it.copy(rate = 900) }
        plans(settings).values.forEach { plan ->
            val parts = (0 until 4).map { Part(it, 4) }
            parts.forEach { assertThat(it.problems(plan)).isEmpty() }
            assertThat(parts.sumOf { it.of(plan).load.rate!! }).isCloseTo(plan.load.rate!!, org.assertj.core.api.Assertions.within(1e-9))
            assertThat(parts.sumOf { it.of(plan).load.maxConnections!! }).isEqualTo(plan.load.maxConnections)
        }
    }

    @Test
    fun `--rate runs closed-model conditions open at that rate, on the connection pool protobench run gives it`() {
        val settings = settings("phase3", 4) { it.copy(rate = 900) }
        val at200 = jobs(settings).filter {
            it.path("metadata").path("annotations").path("protobench.io/condition").asText() == "size=10kb vus=200"
        }
        assertThat(at200).hasSize(6)
        val plans = plans(settings)
        at200.forEach { job ->
            val plan = plans.getValue(job.path("metadata").path("name").asText() + ".json")
            assertThat(plan.load).isEqualTo(Load.open(900.0, LoadLevel.rateVus(200), LoadLevel.rateVus(200)))
        }
    }

    @Test
    fun `a complexity target expects the level's JSON bytes over HTTP JSON and its protobuf bytes otherwise, as the gateway reports`() {
        val plans = plans(settings("phase6", 2))
        fun value(job: String) = plans.getValue("$job.json").targets.single().value
        val ultra = RecordShape.of(ComplexityLevel.parse("ultra"))
        assertThat(value("phase6-01-http-json")).isEqualTo(ultra.jsonBytes.toLong())
        assertThat(value("phase6-03-grpc-unary")).isEqualTo(ultra.protobufBytes.toLong())
        assertThat(ultra.jsonBytes).isNotEqualTo(ultra.protobufBytes)
    }

    @Test
    fun `the gateway is pointed at the data-server Service, each Service at its own Deployment's pods`() {
        val docs = documents(settings { it.copy(namespace = "perf") })
        val (dataDeployment, dataService) = docs.getValue(KubernetesExport.DATA_SERVER_FILE)
        val (gatewayDeployment, gatewayService) = docs.getValue(KubernetesExport.GATEWAY_FILE)
        val servicePorts = dataService.path("spec").path("ports").associate { it.path("name").asText() to it.path("port").asInt() }
        assertThat(container(gatewayDeployment).path("args").map { it.asText() }).contains(
            "--protobench.gateway.data-server.host=${dataService.path("metadata").path("name").asText()}.perf.svc",
            "--protobench.gateway.data-server.http-port=${servicePorts.getValue("http")}",
            "--protobench.gateway.data-server.grpc-port=${servicePorts.getValue("grpc")}",
            "--server.address=0.0.0.0",
        )
        // The data-server's internal endpoints answer to the name the gateway reads its figures by.
        assertThat(container(dataDeployment).path("args").map { it.asText() })
            .contains("--protobench.internal-hosts=${dataService.path("metadata").path("name").asText()}.perf.svc")
        listOf(dataDeployment to dataService, gatewayDeployment to gatewayService).forEach { (deployment, service) ->
            val podLabels = deployment.path("spec").path("template").path("metadata").path("labels")
            service.path("spec").path("selector").fields().forEach { (k, v) ->
                assertThat(podLabels.path(k).asText()).isEqualTo(v.asText())
            }
            val containerPorts = container(deployment).path("ports").map { it.path("name").asText() }
            assertThat(service.path("spec").path("ports").map { it.path("targetPort").asText() }).isSubsetOf(containerPorts)
        }
    }

    @Test
    fun `servers and drivers get resources and images from the flags, the servers a readiness probe on their health endpoint`() {
        val settings = settings {
            it.copy(
                serverCpu = "3",
                serverMemory = "2Gi",
                driverCpu = "500m",
                driverMemory = "1Gi",
                dataServerImage = "registry.local:5000/pb/data:1",
                gatewayImage = "registry.local:5000/pb/gw:1",
                driverImage = "registry.local:5000/pb/driver:1",
            )
        }
        val docs = documents(settings)
        val data = container(docs.getValue(KubernetesExport.DATA_SERVER_FILE).first())
        val gateway = container(docs.getValue(KubernetesExport.GATEWAY_FILE).first())
        val driver = container(jobs(settings).first())
        assertThat(data.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/actuator/health")
        assertThat(gateway.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/api/health")
        assertThat(listOf(data, gateway, driver).map { it.path("image").asText() })
            .containsExactly("registry.local:5000/pb/data:1", "registry.local:5000/pb/gw:1", "registry.local:5000/pb/driver:1")
        listOf(data to ("3" to "2Gi"), gateway to ("3" to "2Gi"), driver to ("500m" to "1Gi")).forEach { (c, expected) ->
            listOf("requests", "limits").forEach { kind ->
                assertThat(c.path("resources").path(kind).path("cpu").asText() to c.path("resources").path(kind).path("memory").asText())
                    .isEqualTo(expected)
            }
        }
        assertThat(driver.path("env").single().path("value").asText()).contains("-Xmx256m", "-XX:+UseSerialGC")
    }

    @Test
    fun `default images name the project version, and each Dockerfile copies its module's exec jar`() {
        assertThat(ProjectVersion.current).doesNotContain("@").isNotEqualTo("dev")
        assertThat(ExportDefaults.driverImage()).isEqualTo("protobench/load-driver:${ProjectVersion.current}")
        val files = KubernetesExport.files(settings())
        mapOf(
            Dockerfiles.DATA_SERVER to "data-server",
            Dockerfiles.GATEWAY to "api-server",
            Dockerfiles.DRIVER to "load-driver",
        ).forEach { (file, module) ->
            assertThat(files.single { it.path == file }.text)
                .contains(
                    "FROM eclipse-temurin:17-jre",
                    "COPY $module-${ProjectVersion.current}-exec.jar /app/$module.jar",
                    "ENTRYPOINT [\"java\", \"-jar\", \"/app/$module.jar\"]",
                )
        }
        assertThat(files.single { it.path == Dockerfiles.DRIVER }.text).doesNotContain("EXPOSE")
    }

    @Test
    fun `one Job per condition and arm in scenario order, listed in order tsv with the window's labels URL-encoded`() {
        val settings = settings()
        val planned = DriverJobs.plan(settings)
        assertThat(planned.map { it.name }).containsExactly(
            "quick-01-http-json", "quick-02-http-binary", "quick-03-grpc-unary",
            "quick-04-grpc-stream", "quick-05-null-hop", "quick-06-http-json-a-a",
            "quick-07-http-json", "quick-08-http-binary", "quick-09-grpc-unary",
            "quick-10-grpc-stream", "quick-11-null-hop", "quick-12-http-json-a-a",
        )
        val order = KubernetesExport.files(settings).single { it.path == KubernetesExport.ORDER_FILE }.text.lines()
            .filter { it.isNotEmpty() }
        assertThat(order).hasSize(12)
        assertThat(order[2].split("\t")).containsExactly(
            "quick-03-grpc-unary.yaml",
            "quick-03-grpc-unary",
            "gRPC%2FUnary",
            "quick-03-grpc-unary%20size%3D1kb%20vus%3D10",
        )
        planned.forEach { assertThat(it.name).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(50) }
    }

    @Test
    fun `README gives the commands in order, for this export's namespace, images and pods`() {
        val settings = settings(pods = 3) { it.copy(namespace = "perf", driverImage = "reg.example/pb/driver:7") }
        val readme = KubernetesExport.files(settings).single { it.path == "README.md" }.text
        val steps = listOf(
            "mvn -B -DskipTests package", "load-driver/target/load-driver-${ProjectVersion.current}-exec.jar",
            "docker build -f ${Dockerfiles.DRIVER} -t reg.example/pb/driver:7 .", "docker push reg.example/pb/driver:7",
            "kubectl create namespace perf", "kubectl apply -f ${KubernetesExport.PLANS_FILE}",
            "rollout status deployment/protobench-gateway",
            "port-forward deployment/protobench-gateway", "kubectl apply -f \"jobs/", "--for=jsonpath='{.status.ready}'=3", "sleep 10",
            "/benchmark/start", "Complete|Failed", "/benchmark/end", "kubectl -n perf logs -l \"job-name=", "kubectl delete -f \"jobs/",
            "./protobench merge", "kubectl delete namespace perf",
        )
        assertThat(steps.map { readme.indexOf(it) }).doesNotContain(-1).isSorted()
        assertThat(readme).contains(
            "not built or pushed for you",
            "| quick-11-null-hop | size=1mb vus=10 | Null hop | closed model, 10 users | 3-4 users |",
        )
    }

    @Test
    fun `writing with force replaces the Jobs of an earlier, larger export`() {
        val out = tmp.resolve("again")
        KubernetesExport.write(ExportValidation.check(ExportRequest("quick", 2, out.toString())))
        assertThat(Files.list(out.resolve("jobs")).use { it.count() }).isEqualTo(13)
        KubernetesExport.write(ExportValidation.check(ExportRequest("phase1", 2, out.toString(), force = true)))
        val left = Files.list(out.resolve("jobs")).use { files -> files.map { it.fileName.toString() }.sorted().toList() }
        assertThat(left).hasSizeLessThan(13).contains("order.tsv", "phase1-01-http-json.yaml").noneMatch { it.startsWith("quick-") }
    }
}
