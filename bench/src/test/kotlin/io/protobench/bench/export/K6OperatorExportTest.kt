package io.protobench.bench.export

import com.fasterxml.jackson.databind.JsonNode
import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory
import io.protobench.contract.complex.ComplexityLevel
import io.protobench.contract.complex.RecordShape
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import io.protobench.bench.design.ForkRunner

/** What `protobench export k6-operator` writes, read back as YAML: names that refer to each other, the runner's environment, the order. */
class K6OperatorExportTest {
    @TempDir
    lateinit var tmp: Path

    private val yaml = ObjectMapper(YAMLFactory())

    private fun settings(scenario: String = "quick", parallelism: Int = 4, change: (ExportRequest) -> ExportRequest = { it }) =
        ExportValidation.check(change(ExportRequest(scenario, parallelism, tmp.resolve("out").toString())))

    /** Every document of every YAML file of the export, by file. */
    private fun documents(settings: ExportSettings): Map<String, List<JsonNode>> =
        K6OperatorExport.files(settings).filter { it.path.endsWith(".yaml") }.associate { file ->
            file.path to yaml.readerFor(JsonNode::class.java).readValues<JsonNode>(file.text).readAll()
        }

    private fun testRuns(settings: ExportSettings) =
        documents(settings).filterKeys { it.startsWith("${K6OperatorExport.TESTRUNS_DIR}/") }.values.flatten()

    private fun env(testRun: JsonNode): Map<String, String> =
        testRun.path("spec").path("runner").path("env").associate { it.path("name").asText() to it.path("value").asText() }

    @Test
    fun `every TestRun has parallelism N and names the ConfigMap the export contains, whose key holds the script unchanged`() {
        val settings = settings(parallelism = 7)
        val docs = documents(settings)
        val configMap = docs.getValue(K6OperatorExport.CONFIG_MAP_FILE).single()
        assertThat(configMap.path("kind").asText()).isEqualTo("ConfigMap")
        val runs = testRuns(settings)
        assertThat(runs).hasSize(10)
        runs.forEach { run ->
            assertThat(run.path("kind").asText()).isEqualTo("TestRun")
            assertThat(run.path("spec").path("parallelism").asInt()).isEqualTo(7)
            val ref = run.path("spec").path("script").path("configMap")
            assertThat(ref.path("name").asText()).isEqualTo(configMap.path("metadata").path("name").asText())
            assertThat(configMap.path("data").path(ref.path("file").asText()).asText()).isEqualTo(K6OperatorExport.script())
            assertThat(run.path("metadata").path("namespace").asText()).isEqualTo(configMap.path("metadata").path("namespace").asText())
        }
        assertThat(K6OperatorExport.files(settings).single { it.path == "protobench.js" }.text)
            .isEqualTo(javaClass.getResourceAsStream("/k6/protobench.js")!!.use { String(it.readAllBytes()) })
    }

    @Test
    fun `the gateway is pointed at the data-server Service and the runners at the gateway Service`() {
        val docs = documents(settings { it.copy(namespace = "perf") })
        val (dataDeployment, dataService) = docs.getValue(K6OperatorExport.DATA_SERVER_FILE)
        val (gatewayDeployment, gatewayService) = docs.getValue(K6OperatorExport.GATEWAY_FILE)
        val servicePorts = dataService.path("spec").path("ports").associate { it.path("name").asText() to it.path("port").asInt() }
        val gatewayArgs = container(gatewayDeployment).path("args").map { it.asText() }
        assertThat(gatewayArgs).contains(
            "--protobench.gateway.data-server.host=${dataService.path("metadata").path("name").asText()}.perf.svc",
            "--protobench.gateway.data-server.http-port=${servicePorts.getValue("http")}",
            "--protobench.gateway.data-server.grpc-port=${servicePorts.getValue("grpc")}",
            "--server.address=0.0.0.0",
        )
        // The data-server's internal endpoints answer to the name the gateway reads its figures by.
        assertThat(container(dataDeployment).path("args").map { it.asText() })
            .contains("--protobench.internal-hosts=${dataService.path("metadata").path("name").asText()}.perf.svc")
        // Each Service selects its own Deployment's pods, on ports the containers declare.
        listOf(dataDeployment to dataService, gatewayDeployment to gatewayService).forEach { (deployment, service) ->
            val podLabels = deployment.path("spec").path("template").path("metadata").path("labels")
            service.path("spec").path("selector").fields().forEach { (k, v) -> assertThat(podLabels.path(k).asText()).isEqualTo(v.asText()) }
            val containerPorts = container(deployment).path("ports").map { it.path("name").asText() }
            assertThat(service.path("spec").path("ports").map { it.path("targetPort").asText() }).isSubsetOf(containerPorts)
        }
        val gatewayPort = gatewayService.path("spec").path("ports").single().path("port").asInt()
        testRuns(settings { it.copy(namespace = "perf") }).forEach {
            assertThat(env(it)["BASE_URL"]).isEqualTo("http://${gatewayService.path("metadata").path("name").asText()}.perf.svc:$gatewayPort")
        }
    }

    private fun container(deployment: JsonNode): JsonNode = deployment.path("spec").path("template").path("spec").path("containers").single()

    @Test
    fun `both servers have a readiness probe on their health endpoint, resources from the flags and images from the flags`() {
        val settings = settings {
            it.copy(serverCpu = "3", serverMemory = "2Gi", dataServerImage = "registry.local:5000/pb/data:1", gatewayImage = "registry.local:5000/pb/gw:1")
        }
        val docs = documents(settings)
        val data = container(docs.getValue(K6OperatorExport.DATA_SERVER_FILE).first())
        val gateway = container(docs.getValue(K6OperatorExport.GATEWAY_FILE).first())
        assertThat(data.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/actuator/health")
        assertThat(gateway.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/api/health")
        assertThat(data.path("image").asText()).isEqualTo("registry.local:5000/pb/data:1")
        assertThat(gateway.path("image").asText()).isEqualTo("registry.local:5000/pb/gw:1")
        listOf(data, gateway).forEach { c ->
            listOf("requests", "limits").forEach { kind ->
                assertThat(c.path("resources").path(kind).path("cpu").asText()).isEqualTo("3")
                assertThat(c.path("resources").path(kind).path("memory").asText()).isEqualTo("2Gi")
            }
        }
    }

    @Test
    fun `default images name the project version, which the build filled in`() {
        assertThat(ProjectVersion.current).doesNotContain("@").isNotEqualTo("dev")
        assertThat(ExportDefaults.dataServerImage()).isEqualTo("protobench/data-server:${ProjectVersion.current}")
        assertThat(ExportDefaults.gatewayImage()).isEqualTo("protobench/api-server:${ProjectVersion.current}")
        val dockerfile = K6OperatorExport.files(settings()).single { it.path == Dockerfiles.DATA_SERVER }.text
        assertThat(dockerfile).contains("FROM eclipse-temurin:17-jre", "COPY data-server-${ProjectVersion.current}-exec.jar ")
    }

    @Test
    fun `the runners get what protobench js reads, one target with its exact answer, the load and the duration`() {
        val runs = testRuns(settings { it.copy(duration = "90s") })
        val grpc1kb = env(runs.single { it.path("metadata").path("name").asText() == "quick-03-grpc-unary" })
        assertThat(grpc1kb).containsEntry("LOAD_MODEL", "closed").containsEntry("VUS", "10")
            .containsEntry("DURATION", "90000ms").containsEntry("SUMMARY_PATH", "stdout")
        assertThat(grpc1kb.keys).doesNotContain("GOMAXPROCS", "RATE")
        val target = ObjectMapper().readTree(grpc1kb["TARGETS"]).single()
        assertThat(target.path("path").asText()).isEqualTo("/api/data/grpc?size=1kb")
        assertThat(target.path("field").asText()).isEqualTo("payloadSize")
        assertThat(target.path("value").asLong()).isEqualTo(1024)
    }

    @Test
    fun `a complexity target expects the level's JSON bytes over HTTP JSON and its protobuf bytes otherwise, as the gateway reports`() {
        val runs = testRuns(settings("phase6", 2))
        fun value(name: String) = ObjectMapper().readTree(env(runs.single { it.path("metadata").path("name").asText() == name })["TARGETS"])
            .single().path("value").asLong()
        val ultra = RecordShape.of(ComplexityLevel.parse("ultra"))
        assertThat(value("phase6-01-http-json")).isEqualTo(ultra.jsonBytes.toLong())
        assertThat(value("phase6-03-grpc-unary")).isEqualTo(ultra.protobufBytes.toLong())
        assertThat(ultra.jsonBytes).isNotEqualTo(ultra.protobufBytes)
    }

    @Test
    fun `--rate runs closed-model conditions at that fixed rate with the VU pool protobench run gives it`() {
        val runs = testRuns(settings("phase3", 4) { it.copy(rate = 900) })
        val at200 = runs.filter { it.path("metadata").path("annotations").path("protobench.io/condition").asText() == "size=10kb vus=200" }
        assertThat(at200).hasSize(6)
        at200.map(::env).forEach {
            assertThat(it).containsEntry("LOAD_MODEL", "open").containsEntry("RATE", "900").containsEntry("MAX_VUS", ForkRunner.rateVus(200).toString())
            assertThat(it.keys).doesNotContain("VUS")
        }
    }

    @Test
    fun `one TestRun per condition and arm in scenario order, listed in order tsv with the window's labels URL-encoded`() {
        val settings = settings()
        val planned = TestRuns.plan(settings)
        assertThat(planned.map { it.name }).containsExactly(
            "quick-01-http-json", "quick-02-http-binary", "quick-03-grpc-unary", "quick-04-grpc-stream", "quick-05-null-hop",
            "quick-06-http-json", "quick-07-http-binary", "quick-08-grpc-unary", "quick-09-grpc-stream", "quick-10-null-hop",
        )
        val order = K6OperatorExport.files(settings).single { it.path == K6OperatorExport.ORDER_FILE }.text.lines().filter { it.isNotEmpty() }
        assertThat(order).hasSize(10)
        assertThat(order[2].split("\t")).containsExactly("03-grpc-unary.yaml", "quick-03-grpc-unary", "gRPC%2FUnary", "quick-03-grpc-unary%20size%3D1kb%20vus%3D10")
        planned.forEach { assertThat(it.name).matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?").hasSizeLessThanOrEqualTo(50) }
    }

    @Test
    fun `README gives the commands in order, for this export's namespace and images`() {
        val settings = settings { it.copy(namespace = "perf", dataServerImage = "reg.example/pb/data:7") }
        val readme = K6OperatorExport.files(settings).single { it.path == "README.md" }.text
        val steps = listOf(
            "mvn -B -DskipTests package", "docker build -f ${Dockerfiles.DATA_SERVER} -t reg.example/pb/data:7 .", "docker push reg.example/pb/data:7",
            "kubectl create namespace perf", "kubectl apply -f ${K6OperatorExport.CONFIG_MAP_FILE}", "rollout status deployment/protobench-gateway",
            "port-forward deployment/protobench-gateway", "kubectl apply -f \"testruns/", "/benchmark/start", "=finished", "/benchmark/end",
            "kubectl -n perf logs -l \"k6_cr=", "kubectl delete -f \"testruns/", "kubectl delete namespace perf",
        )
        assertThat(steps.map { readme.indexOf(it) }).doesNotContain(-1).isSorted()
        assertThat(readme).contains("not built or pushed for you", "| quick-10-null-hop | size=1mb vus=10 | Null hop | closed model, 10 VUs | 2.5 VUs |")
    }

    @Test
    fun `writing with force replaces the TestRuns of an earlier, larger export`() {
        val out = tmp.resolve("again")
        K6OperatorExport.write(ExportValidation.check(ExportRequest("phase6", 2, out.toString())))
        assertThat(Files.list(out.resolve("testruns")).use { it.count() }).isEqualTo(13)
        K6OperatorExport.write(ExportValidation.check(ExportRequest("quick", 2, out.toString(), force = true)))
        val left = Files.list(out.resolve("testruns")).use { files -> files.map { it.fileName.toString() }.sorted().toList() }
        assertThat(left).hasSize(11).contains("order.tsv", "01-http-json.yaml", "10-null-hop.yaml")
        assertThat(Files.readString(out.resolve("testruns/01-http-json.yaml"))).contains("name: quick-01-http-json")
    }
}
