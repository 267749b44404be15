package io.protobench.bench.export

import com.fasterxml.jackson.annotation.JsonInclude
import com.fasterxml.jackson.annotation.JsonPropertyOrder

/*
 * The few Kubernetes objects the export writes, as typed data that Jackson writes as
 * YAML: only the fields we set, named as in the Kubernetes API (apps/v1 Deployment,
 * batch/v1 Job, v1 Service and ConfigMap). Empty collections and nulls are left out, as
 * kubectl would leave them.
 */

/** A top-level object: its type, its name and namespace, its content. */
@JsonPropertyOrder("apiVersion", "kind", "metadata")
@JsonInclude(JsonInclude.Include.NON_EMPTY)
sealed interface KubeObject {
    val apiVersion: String
    val kind: String
    val metadata: ObjectMeta
}

@JsonInclude(JsonInclude.Include.NON_EMPTY)
data class ObjectMeta(
    val name: String,
    val namespace: String,
    val labels: Map<String, String> = emptyMap(),
    val annotations: Map<String, String> = emptyMap(),
)

data class ConfigMap(override val metadata: ObjectMeta, val data: Map<String, String>) : KubeObject {
    override val apiVersion get() = "v1"
    override val kind get() = "ConfigMap"
}

data class Service(override val metadata: ObjectMeta, val spec: ServiceSpec) : KubeObject {
    override val apiVersion get() = "v1"
    override val kind get() = "Service"
}

@JsonInclude(JsonInclude.Include.NON_EMPTY)
data class ServiceSpec(val selector: Map<String, String>, val ports: List<ServicePort>, val type: String = "ClusterIP")

/** A Service port forwarding to the container port of the same [name]. */
data class ServicePort(val name: String, val port: Int, val targetPort: String, val protocol: String = "TCP")

data class Deployment(override val metadata: ObjectMeta, val spec: DeploymentSpec) : KubeObject {
    override val apiVersion get() = "apps/v1"
    override val kind get() = "Deployment"
}

data class DeploymentSpec(val replicas: Int, val selector: LabelSelector, val template: PodTemplate)

data class LabelSelector(val matchLabels: Map<String, String>)

data class PodTemplate(val metadata: PodLabels, val spec: PodSpec)

data class PodLabels(val labels: Map<String, String>)

@JsonInclude(JsonInclude.Include.NON_EMPTY)
data class PodSpec(
    val containers: List<Container>,
    /**
     * Off: Kubernetes would otherwise give every container variables such as
     * `PROTOBENCH_GATEWAY_PORT=tcp://10.0.0.7:8080` for each Service in the namespace, which
     * Spring's relaxed binding reads as `protobench.gateway.port` and friends.
     */
    val enableServiceLinks: Boolean = false,
    /** A Job's pods: `Never`, so a pod that ends is not started again in place. */
    val restartPolicy: String? = null,
    val volumes: List<Volume> = emptyList(),
)

@JsonInclude(JsonInclude.Include.NON_EMPTY)
data class Container(
    val name: String,
    val image: String,
    val imagePullPolicy: String,
    val args: List<String>,
    val env: List<EnvVar>,
    val ports: List<ContainerPort> = emptyList(),
    val readinessProbe: Probe? = null,
    val resources: Resources,
    val volumeMounts: List<VolumeMount> = emptyList(),
)

/** A pod's volume: here only a ConfigMap's keys as files. */
data class Volume(val name: String, val configMap: ConfigMapVolume)

data class ConfigMapVolume(val name: String)

data class VolumeMount(val name: String, val mountPath: String, val readOnly: Boolean = true)

/** Kubernetes takes every variable's value as a string, numbers included. */
data class EnvVar(val name: String, val value: String)

data class ContainerPort(val name: String, val containerPort: Int, val protocol: String = "TCP")

data class Probe(val httpGet: HttpGet, val periodSeconds: Int, val failureThreshold: Int, val timeoutSeconds: Int)

/** [port] names a container port. */
data class HttpGet(val path: String, val port: String)

/** Requests equal to limits: the pod's quality of service is Guaranteed, so it is not squeezed by its neighbours. */
data class Resources(val requests: Map<String, String>, val limits: Map<String, String>) {
    companion object {
        fun guaranteed(cpu: String, memory: String): Resources = mapOf("cpu" to cpu, "memory" to memory).let { Resources(it, it) }
    }
}

data class Job(override val metadata: ObjectMeta, val spec: JobSpec) : KubeObject {
    override val apiVersion get() = "batch/v1"
    override val kind get() = "Job"
}

/**
 * An Indexed Job ([completionMode] `Indexed`): [completions] pods with the indices 0 to
 * completions - 1, each told its own in `JOB_COMPLETION_INDEX`, [parallelism] of them at
 * once. [backoffLimit] 0: a pod that fails is not run again, since a part run later than
 * the others would not add its load to theirs.
 */
data class JobSpec(
    val completionMode: String,
    val completions: Int,
    val parallelism: Int,
    val backoffLimit: Int,
    val template: PodTemplate,
)
