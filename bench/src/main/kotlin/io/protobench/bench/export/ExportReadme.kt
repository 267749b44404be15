package io.protobench.bench.export

import io.protobench.bench.scenario.LoadLevel
import io.protobench.driver.Part
import java.util.Locale

/** README.md of an export: the exact commands, in order, for this export's names, images and folder. */
object ExportReadme {
    /** Local port of `kubectl port-forward` to the gateway, for its measurement window. */
    const val FORWARDED_PORT = 18080

    /** How long the commands wait for a Job's pods to be running: images pulled, pods scheduled. */
    private const val START_MINUTES = 10

    /** How long a Job may take beyond its pods' warm-up and timed phase: their start and the driver's 10 s drain. */
    private const val END_SLACK_SECONDS = 120

    fun render(settings: ExportSettings, jobs: List<PlannedJob>): String {
        val scenario = settings.scenario
        return listOf(
            "# Proto-Bench scenario ${scenario.name} on Kubernetes",
            "Written by `protobench export kubernetes` (Proto-Bench ${ProjectVersion.current}) " +
                "for scenario ${scenario.name}: ${scenario.description}.",
            summary(settings, jobs),
            "**The images are not built or pushed for you**: steps 1 and 2 do that. " +
                "How the pods split the load, what is measured and what is not: docs/distributed.md in the Proto-Bench checkout.",
            buildImages(settings),
            pushImages(settings),
            deployServers(settings),
            runJobs(settings),
            merge(settings),
            cleanUp(settings),
            table(settings, jobs),
        ).joinToString("\n\n") + "\n"
    }

    private fun summary(settings: ExportSettings, jobs: List<PlannedJob>): String {
        val ns = settings.namespace
        return """
            |- ${jobs.size} Jobs (${settings.scenario.conditions.size} conditions × ${settings.scenario.arms.size} arms), run one after another; each is one trial: an Indexed Job of ${settings.pods} driver pods (`completions: ${settings.pods}`, `parallelism: ${settings.pods}`), pod i running part i of ${settings.pods} of the trial's plan (`--job-part ${settings.pods}`, i from `JOB_COMPLETION_INDEX`): a ${settings.warmUp.seconds} s warm-up, then ${settings.duration.seconds} s timed. The plans are in the ConfigMap `${DriverJobs.PLANS_CONFIG_MAP}`.
            |- The drivers call the gateway at `${ServerManifests.gatewayUrl(
            ns,
        )}`; the gateway calls the data-server at `${ServerManifests.serviceHost(
            ServerManifests.DATA_SERVER,
            ns,
        )}` (HTTP ${ServerManifests.DATA_HTTP_PORT}, gRPC ${ServerManifests.DATA_GRPC_PORT}).
            |- Pods: each server ${settings.server.limits["cpu"]} CPU and ${settings.server.limits["memory"]} (requests = limits), each driver ${settings.driver.limits["cpu"]} CPU and ${settings.driver.limits["memory"]}.
            |- Needs: Kubernetes 1.24 or newer (Indexed Jobs, a Job's count of ready pods), kubectl 1.23 or newer, docker (or another image builder), curl, grep and bash. No operator or custom resource.
        """.trimMargin()
    }

    private fun buildImages(settings: ExportSettings) = """
        |## 1. Build the images
        |
        |In the Proto-Bench checkout (the exec jars of this version, ${ProjectVersion.current}):
        |
        |```bash
        |mvn -B -DskipTests package
        |cp ${Dockerfiles.MODULES.joinToString(" ") { "$it/target/${Dockerfiles.jar(it)}" }} ${settings.out}/
        |cd ${settings.out}
        |docker build -f ${Dockerfiles.DATA_SERVER} -t ${settings.images.dataServer} .
        |docker build -f ${Dockerfiles.GATEWAY} -t ${settings.images.gateway} .
        |docker build -f ${Dockerfiles.DRIVER} -t ${settings.images.driver} .
        |```
    """.trimMargin()

    private fun pushImages(settings: ExportSettings) = """
        |## 2. Push them where the cluster pulls from
        |
        |```bash
        |docker push ${settings.images.dataServer}
        |docker push ${settings.images.gateway}
        |docker push ${settings.images.driver}
        |```
        |
        |(A local kind cluster instead: `kind load docker-image ${settings.images.dataServer} ${settings.images.gateway} ${settings.images.driver}`; minikube: `minikube image load` each.) Every node that may run a driver pod should have the driver's image before step 4: a pod that pulls it starts later than the others.
    """.trimMargin()

    private fun deployServers(settings: ExportSettings) = """
        |## 3. Deploy the servers and the plans
        |
        |```bash
        |kubectl create namespace ${settings.namespace}
        |kubectl apply -f ${KubernetesExport.PLANS_FILE} -f ${KubernetesExport.DATA_SERVER_FILE} -f ${KubernetesExport.GATEWAY_FILE}
        |kubectl -n ${settings.namespace} rollout status deployment/${ServerManifests.DATA_SERVER} --timeout=5m
        |kubectl -n ${settings.namespace} rollout status deployment/${ServerManifests.GATEWAY} --timeout=5m
        |```
        |
        |The gateway is ready only when it reaches the data-server (its readiness probe is `/api/health`).
    """.trimMargin()

    /**
     * Each Job: applied; once all its pods run and have warmed up, the gateway's window is
     * opened; when the Job has ended, closed; the pods' logs (each one's output) kept. The
     * window is reached through a port-forward: the gateway answers `/benchmark/…` only to a
     * loopback Host, which the forwarded connection is.
     */
    private fun runJobs(settings: ExportSettings): String {
        val ns = settings.namespace
        val pods = settings.pods
        val endSeconds = settings.warmUp.seconds + settings.duration.seconds + END_SLACK_SECONDS
        return """
            |## 4. Run the Jobs, one after another
            |
            |```bash
            |kubectl -n $ns port-forward deployment/${ServerManifests.GATEWAY} $FORWARDED_PORT:${ServerManifests.GATEWAY_PORT} > port-forward.log 2>&1 &
            |forward=${'$'}!
            |mkdir -p results
            |while IFS=${'$'}'\t' read -r file name protocol test; do
            |  kubectl apply -f "${KubernetesExport.JOBS_DIR}/${'$'}file"
            |  kubectl -n $ns wait "job/${'$'}name" --for=jsonpath='{.status.ready}'=$pods --timeout=${START_MINUTES}m || { echo "job ${'$'}name: not all $pods pods running"; break; }
            |  sleep ${settings.warmUp.seconds}
            |  curl -fsS -X POST "http://localhost:$FORWARDED_PORT/benchmark/start?protocol=${'$'}protocol&testName=${'$'}test&replace=true" > /dev/null
            |  deadline=${'$'}((SECONDS + $endSeconds))
            |  until kubectl -n $ns get "job/${'$'}name" -o jsonpath='{.status.conditions[*].type}' | grep -qwE 'Complete|Failed' || (( SECONDS > deadline )); do sleep 2; done
            |  curl -fsS -X POST "http://localhost:$FORWARDED_PORT/benchmark/end" > "results/${'$'}name.gateway.json"
            |  kubectl -n $ns logs -l "job-name=${'$'}name" --tail=-1 --max-log-requests=$pods > "results/${'$'}name.log"
            |  kubectl -n $ns get "job/${'$'}name" -o jsonpath='{.status.conditions[*].type}' | grep -qw Complete || { echo "job ${'$'}name did not complete: kubectl -n $ns describe job/${'$'}name"; break; }
            |  kubectl delete -f "${KubernetesExport.JOBS_DIR}/${'$'}file"
            |done < ${KubernetesExport.ORDER_FILE}
            |kill ${'$'}forward
            |```
            |
            |`${KubernetesExport.ORDER_FILE}` lists, per line, the file, the Job and the window's protocol and name. A Job whose pods do not all start, or that fails, stops the loop and is left in place to look at (`kubectl -n $ns describe job/<name>`, `kubectl -n $ns logs <pod>`); delete it before running the loop again. Per Job, `results/` then holds:
            |
            |- `<name>.gateway.json`: the gateway's window (the `/benchmark/end` answer): hop latency of every request of every pod in one HdrHistogram, both servers' CPU and allocation per request (the data-server's read by its Service name, which its `protobench.internal-hosts` lists; docs/distributed.md). It opens about when the pods' timed phases begin.
            |- `<name>.log`: every pod's log; each pod's output (its part, the plan, its summary and its histogram log) between `=== protobench part i/$pods: … ===` lines.
        """.trimMargin()
    }

    private fun merge(settings: ExportSettings) = """
        |## 5. Merge each Job's pods into one trial
        |
        |From the Proto-Bench checkout:
        |
        |```bash
        |for log in ${settings.out}/results/*.log; do
        |  ./protobench merge "${'$'}{log%.log}.json" "${'$'}log"
        |done
        |```
        |
        |For each Job, `results/<name>.json` is then the trial's driver summary (counts and failures summed over the pods, latency percentiles from their histogram logs merged) and `results/<name>.hlog` the merged histogram log. `protobench merge` refuses a Job whose pods' outputs are incomplete, missing, or did not run together.
    """.trimMargin()

    private fun cleanUp(settings: ExportSettings) = """
        |## 6. Clean up
        |
        |```bash
        |kubectl delete namespace ${settings.namespace}
        |```
    """.trimMargin()

    private fun table(settings: ExportSettings, jobs: List<PlannedJob>): String {
        val rows = jobs.joinToString("\n") { job ->
            "| ${job.name} | ${job.cell.condition.label} | ${job.cell.arm.label} | ${DriverJobs.describe(job.load)} | " +
                "${perPod(job.load, settings.pods)} |"
        }
        return "## The Jobs, in order\n\n| Job | condition | arm | load of all pods | each pod |\n|---|---|---|---|---|\n$rows"
    }

    /** What each of [pods] parts sends: the rate divided, or the users split as evenly as possible ([Part]). */
    private fun perPod(load: LoadLevel, pods: Int): String = when (load) {
        is LoadLevel.Vus -> "${range(load.vus, pods)} users"

        is LoadLevel.Rate -> "${String.format(Locale.ROOT, "%.1f", load.perSecond.toDouble() / pods).removeSuffix(".0")}/s " +
            "on up to ${range(load.maxVus, pods)} connections"
    }

    /** The whole shares of [total] over [pods]: one number when they are equal, else the smaller and the larger. */
    private fun range(total: Int, pods: Int): String {
        val (largest, smallest) = Part(0, pods).split(total) to Part(pods - 1, pods).split(total)
        return if (largest == smallest) "$largest" else "$smallest-$largest"
    }
}
