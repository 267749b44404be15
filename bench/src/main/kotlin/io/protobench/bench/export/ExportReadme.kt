package io.protobench.bench.export

import io.protobench.bench.scenario.LoadLevel
import java.util.Locale

/** README.md of an export: the exact commands, in order, for this export's names, images and folder. */
object ExportReadme {
    /** Local port of `kubectl port-forward` to the gateway, for its measurement window. */
    const val FORWARDED_PORT = 18080

    /** How long `kubectl wait` gives a TestRun beyond its duration: images pulled, initializer, starter. */
    private const val WAIT_SLACK_MINUTES = 10

    fun render(settings: ExportSettings, runs: List<PlannedTestRun>): String {
        val scenario = settings.scenario
        return listOf(
            "# Proto-Bench scenario ${scenario.name} on the k6-operator",
            "Written by `protobench export k6-operator` (Proto-Bench ${ProjectVersion.current}) for scenario ${scenario.name}: ${scenario.description}.",
            summary(settings, runs),
            "**The images are not built or pushed for you**: steps 1 and 2 do that. " +
                "How the runners split the load and how to merge what they measure: docs/distributed.md in the Proto-Bench checkout.",
            buildImages(settings),
            pushImages(settings),
            deployServers(settings),
            runTestRuns(settings),
            cleanUp(settings),
            table(settings, runs),
        ).joinToString("\n\n") + "\n"
    }

    private fun summary(settings: ExportSettings, runs: List<PlannedTestRun>): String {
        val ns = settings.namespace
        return """
            |- ${runs.size} TestRuns (${settings.scenario.conditions.size} conditions × ${settings.scenario.arms.size} arms), applied one after another; each is one k6 run of ${settings.duration.seconds} s split over ${settings.parallelism} runner pods (`parallelism: ${settings.parallelism}`), the script from the ConfigMap `${TestRuns.SCRIPT_CONFIG_MAP}`.
            |- The runners call the gateway at `${ServerManifests.gatewayUrl(ns)}`; the gateway calls the data-server at `${ServerManifests.serviceHost(ServerManifests.DATA_SERVER, ns)}` (HTTP ${ServerManifests.DATA_HTTP_PORT}, gRPC ${ServerManifests.DATA_GRPC_PORT}).
            |- Pods: each server ${settings.server.limits["cpu"]} CPU and ${settings.server.limits["memory"]} (requests = limits), each runner ${settings.runner.limits["cpu"]} CPU and ${settings.runner.limits["memory"]}.
            |- Needs: a cluster with the k6-operator installed (it brings the `TestRun` kind, `k6.io/v1alpha1`; install it as its documentation says, Helm chart or bundle), kubectl 1.23 or newer, docker (or another image builder), curl and bash.
            """.trimMargin()
    }

    private fun buildImages(settings: ExportSettings) = """
        |## 1. Build the server images
        |
        |In the Proto-Bench checkout (the exec jars of this version, ${ProjectVersion.current}):
        |
        |```bash
        |mvn -B -DskipTests package
        |cp data-server/target/${Dockerfiles.jar("data-server")} api-server/target/${Dockerfiles.jar("api-server")} ${settings.out}/
        |cd ${settings.out}
        |docker build -f ${Dockerfiles.DATA_SERVER} -t ${settings.images.dataServer} .
        |docker build -f ${Dockerfiles.GATEWAY} -t ${settings.images.gateway} .
        |```
        """.trimMargin()

    private fun pushImages(settings: ExportSettings) = """
        |## 2. Push them where the cluster pulls from
        |
        |```bash
        |docker push ${settings.images.dataServer}
        |docker push ${settings.images.gateway}
        |```
        |
        |(A local kind cluster instead: `kind load docker-image ${settings.images.dataServer} ${settings.images.gateway}`; minikube: `minikube image load` each. The runners pull `${settings.images.k6}`.)
        """.trimMargin()

    private fun deployServers(settings: ExportSettings) = """
        |## 3. Deploy the servers and the script
        |
        |```bash
        |kubectl create namespace ${settings.namespace}
        |kubectl apply -f ${K6OperatorExport.CONFIG_MAP_FILE} -f ${K6OperatorExport.DATA_SERVER_FILE} -f ${K6OperatorExport.GATEWAY_FILE}
        |kubectl -n ${settings.namespace} rollout status deployment/${ServerManifests.DATA_SERVER} --timeout=5m
        |kubectl -n ${settings.namespace} rollout status deployment/${ServerManifests.GATEWAY} --timeout=5m
        |```
        |
        |The gateway is ready only when it reaches the data-server (its readiness probe is `/api/health`).
        """.trimMargin()

    /**
     * Each TestRun: applied, its gateway window opened once the operator has started the
     * runners, closed when they finished, the runners' logs (each one's summary JSON) kept.
     * The window is reached through a port-forward: the gateway answers `/benchmark/…`
     * only to a loopback Host, which the forwarded connection is.
     */
    private fun runTestRuns(settings: ExportSettings): String {
        val ns = settings.namespace
        val timeout = settings.duration.toMinutes() + WAIT_SLACK_MINUTES
        return """
            |## 4. Run the TestRuns, one after another
            |
            |```bash
            |kubectl -n $ns port-forward deployment/${ServerManifests.GATEWAY} $FORWARDED_PORT:${ServerManifests.GATEWAY_PORT} > port-forward.log 2>&1 &
            |forward=${'$'}!
            |mkdir -p results
            |while IFS=${'$'}'\t' read -r file name protocol test; do
            |  kubectl apply -f "${K6OperatorExport.TESTRUNS_DIR}/${'$'}file"
            |  kubectl -n $ns wait "testrun/${'$'}name" --for=jsonpath='{.status.stage}'=started --timeout=${WAIT_SLACK_MINUTES}m
            |  curl -fsS -X POST "http://localhost:$FORWARDED_PORT/benchmark/start?protocol=${'$'}protocol&testName=${'$'}test&replace=true" > /dev/null
            |  kubectl -n $ns wait "testrun/${'$'}name" --for=jsonpath='{.status.stage}'=finished --timeout=${timeout}m
            |  curl -fsS -X POST "http://localhost:$FORWARDED_PORT/benchmark/end" > "results/${'$'}name.gateway.json"
            |  kubectl -n $ns logs -l "k6_cr=${'$'}name,runner=true" --tail=-1 --prefix --max-log-requests=${settings.parallelism} > "results/${'$'}name.k6.log"
            |  kubectl delete -f "${K6OperatorExport.TESTRUNS_DIR}/${'$'}file"
            |done < ${K6OperatorExport.ORDER_FILE}
            |kill ${'$'}forward
            |```
            |
            |`${K6OperatorExport.ORDER_FILE}` lists, per line, the file, the TestRun and the window's protocol and name. Per TestRun, `results/` then holds:
            |
            |- `<name>.gateway.json`: the gateway's window (the `/benchmark/end` answer): hop latency of every request of every runner in one HdrHistogram, both servers' CPU and allocation per request (the data-server's read by its Service name, which its `protobench.internal-hosts` lists; docs/distributed.md).
            |- `<name>.k6.log`: each runner's log, its end-of-test summary JSON on its own line. Add up counts (requests, check passes and fails, dropped iterations); never average the runners' percentiles (docs/distributed.md).
            """.trimMargin()
    }

    private fun cleanUp(settings: ExportSettings) = """
        |## 5. Clean up
        |
        |```bash
        |kubectl delete namespace ${settings.namespace}
        |```
        """.trimMargin()

    private fun table(settings: ExportSettings, runs: List<PlannedTestRun>): String {
        val rows = runs.joinToString("\n") { run ->
            "| ${run.name} | ${run.cell.condition.label} | ${run.cell.arm.label} | ${TestRuns.describe(run.load)} | ${perRunner(run.load, settings.parallelism)} |"
        }
        return "## The TestRuns, in order\n\n| TestRun | condition | arm | load of all runners | each runner (about) |\n|---|---|---|---|---|\n$rows"
    }

    /** What one of [runners] execution segments gets: an equal share, in whole VUs a runner may get one more or less. */
    private fun perRunner(load: LoadLevel, runners: Int): String = when (load) {
        is LoadLevel.Vus -> "${share(load.vus, runners)} VUs"
        is LoadLevel.Rate -> "${share(load.perSecond, runners)}/s, up to ${share(load.maxVus, runners)} VUs"
    }

    private fun share(total: Int, runners: Int) =
        if (total % runners == 0) "${total / runners}" else String.format(Locale.ROOT, "%.1f", total.toDouble() / runners)
}
