package io.protobench.bench.export

/**
 * The two servers as Kubernetes workloads: one Deployment and one Service each, one
 * replica each. One gateway replica matters: its measurement window is one HdrHistogram
 * of every hop, which a second replica would split. Ports are the servers' defaults
 * (gateway 8080, data-server HTTP 8081 and gRPC 9091); both bind every interface, since a
 * pod is reached on its own address, never on loopback.
 */
object ServerManifests {
    const val DATA_SERVER = "protobench-data-server"
    const val GATEWAY = "protobench-gateway"
    const val GATEWAY_PORT = 8080
    const val DATA_HTTP_PORT = 8081
    const val DATA_GRPC_PORT = 9091

    /** Where the runners reach the gateway: its Service's name in the cluster's DNS. */
    fun gatewayUrl(namespace: String) = "http://${serviceHost(GATEWAY, namespace)}:$GATEWAY_PORT"

    /** `<service>.<namespace>.svc`: resolves from any namespace whatever the cluster's domain. */
    fun serviceHost(service: String, namespace: String) = "$service.$namespace.svc"

    /** The label every exported object carries, so `kubectl get all -l app.kubernetes.io/part-of=protobench` finds them. */
    fun partOf() = mapOf("app.kubernetes.io/part-of" to "protobench")

    fun dataServer(settings: ExportSettings): List<KubeObject> = server(
        settings,
        DATA_SERVER,
        settings.images.dataServer,
        args = listOf(
            "--server.address=0.0.0.0",
            "--server.port=$DATA_HTTP_PORT",
            "--protobench.data.grpc.address=0.0.0.0",
            "--protobench.data.grpc.port=$DATA_GRPC_PORT",
            // The gateway reads the data-server's figures (/internal/metrics) by the Service's name.
            "--protobench.internal-hosts=${serviceHost(DATA_SERVER, settings.namespace)}",
        ),
        ports = listOf(ContainerPort("http", DATA_HTTP_PORT), ContainerPort("grpc", DATA_GRPC_PORT)),
        // Spring Boot's health endpoint: up once the HTTP and gRPC servers are started.
        health = "/actuator/health",
    )

    fun gateway(settings: ExportSettings): List<KubeObject> = server(
        settings,
        GATEWAY,
        settings.images.gateway,
        args = listOf(
            "--server.address=0.0.0.0",
            "--server.port=$GATEWAY_PORT",
            "--protobench.gateway.data-server.host=${serviceHost(DATA_SERVER, settings.namespace)}",
            "--protobench.gateway.data-server.http-port=$DATA_HTTP_PORT",
            "--protobench.gateway.data-server.grpc-port=$DATA_GRPC_PORT",
        ),
        ports = listOf(ContainerPort("http", GATEWAY_PORT)),
        // 200 only when the gateway reaches the data-server over HTTP and gRPC: ready means the pair is.
        health = "/api/health",
    )

    private fun server(
        settings: ExportSettings,
        name: String,
        image: String,
        args: List<String>,
        ports: List<ContainerPort>,
        health: String,
    ): List<KubeObject> {
        val selector = mapOf("app.kubernetes.io/name" to name)
        val labels = selector + partOf()
        val container = Container(
            name = name.removePrefix("protobench-"),
            image = image,
            imagePullPolicy = "IfNotPresent",
            args = args,
            env = listOf(EnvVar("JAVA_TOOL_OPTIONS", ExportDefaults.JVM_OPTIONS.joinToString(" "))),
            ports = ports,
            readinessProbe = Probe(HttpGet(health, "http"), periodSeconds = 5, failureThreshold = 3, timeoutSeconds = 3),
            resources = settings.server,
        )
        val meta = ObjectMeta(name, settings.namespace, labels)
        return listOf(
            Deployment(meta, DeploymentSpec(1, LabelSelector(selector), PodTemplate(PodLabels(labels), PodSpec(listOf(container))))),
            Service(meta, ServiceSpec(selector, ports.map { ServicePort(it.name, it.containerPort, it.name) })),
        )
    }
}
