package io.protobench.dataserver.grpc

import io.grpc.Server
import io.grpc.ServerServiceDefinition
import io.grpc.health.v1.HealthCheckResponse.ServingStatus
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
import io.grpc.protobuf.services.HealthStatusManager
import io.grpc.protobuf.services.ProtoReflectionService
import io.grpc.protobuf.services.ProtoReflectionServiceV1
import io.protobench.contract.payload.PayloadSize
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.config.GrpcExecutor
import org.slf4j.LoggerFactory
import org.springframework.context.SmartLifecycle
import org.springframework.core.env.ConfigurableEnvironment
import org.springframework.core.env.MapPropertySource
import java.net.InetSocketAddress
import java.util.concurrent.TimeUnit

/**
 * The gRPC server (grpc-netty-shaded), started and stopped with the Spring context.
 * Serves [services] (the [DataGrpcService], with its interceptors, and the
 * [MemberGrpcService]), health checking (SERVING for "" and each of them) and server reflection
 * (v1 and v1alpha, for grpcurl and ghz without the .proto). Runs calls on the
 * configured executor and event loops. Once started, the bound port is [port] and the
 * property `local.grpc.port`.
 */
class GrpcServer(
    private val settings: DataServerSettings.Grpc,
    private val services: List<ServerServiceDefinition>,
    private val environment: ConfigurableEnvironment,
) : SmartLifecycle {
    private val log = LoggerFactory.getLogger(javaClass)
    private val health = HealthStatusManager()

    @Volatile
    private var server: Server? = null

    /** The event loops of a sized `event-loop-threads`; null with grpc-netty's default ones. */
    private var eventLoops: ServerEventLoops? = null

    /** The TCP port the server listens on (the OS's pick when configured as 0); -1 when not running. */
    val port: Int get() = server?.port ?: -1

    val address: String get() = settings.address

    override fun start() {
        val started = try {
            threaded(NettyServerBuilder.forAddress(InetSocketAddress(settings.address, settings.port)))
                .apply { services.forEach { addService(it) } }
                .addService(health.healthService)
                .addService(ProtoReflectionServiceV1.newInstance())
                .addService(legacyReflection())
                .maxInboundMessageSize(MAX_MESSAGE_BYTES)
                .build()
                .start()
        } catch (e: Exception) {
            closeEventLoops()
            throw e
        }
        server = started
        health.setStatus("", ServingStatus.SERVING)
        services.forEach { health.setStatus(it.serviceDescriptor.name, ServingStatus.SERVING) }
        publishPort(started.port)
    }

    override fun stop() {
        val running = server ?: return
        health.enterTerminalState()
        running.shutdown()
        if (!running.awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)) {
            log.warn("gRPC calls still running after {} s; cancelling them", SHUTDOWN_GRACE_SECONDS)
            running.shutdownNow().awaitTermination(SHUTDOWN_GRACE_SECONDS, TimeUnit.SECONDS)
        }
        server = null
        closeEventLoops()
    }

    override fun isRunning(): Boolean = server != null

    /** [builder] set to run calls on the configured executor and event loops. */
    private fun threaded(builder: NettyServerBuilder): NettyServerBuilder {
        if (settings.executor == GrpcExecutor.DIRECT) builder.directExecutor()
        if (settings.eventLoopThreads == 0) return builder
        val loops = ServerEventLoops(settings.eventLoopThreads)
        eventLoops = loops
        return loops.applyTo(builder)
    }

    private fun closeEventLoops() {
        eventLoops?.close()
        eventLoops = null
    }

    /** v1alpha reflection, still the only one some clients (older ghz, grpcurl) try. */
    @Suppress("DEPRECATION")
    private fun legacyReflection() = ProtoReflectionService.newInstance()

    private fun publishPort(port: Int) {
        val sources = environment.propertySources
        val existing = sources.get(PORT_SOURCE) as MapPropertySource?
        if (existing != null) {
            @Suppress("UNCHECKED_CAST")
            (existing.source as MutableMap<String, Any>)[PORT_PROPERTY] = port
        } else {
            sources.addFirst(MapPropertySource(PORT_SOURCE, mutableMapOf<String, Any>(PORT_PROPERTY to port)))
        }
    }

    companion object {
        /**
         * Largest inbound message, bytes: the 8 MiB payload cap plus 1 MiB for the other
         * fields and framing. Requests are tiny; this matters for symmetry with clients,
         * which need the same limit to receive the largest GetData response. (A
         * grpc-java server sets no outbound limit.)
         */
        const val MAX_MESSAGE_BYTES = PayloadSize.MAX_BYTES + PayloadSize.MIB

        /** The property holding the bound gRPC port, like Spring's `local.server.port`. */
        const val PORT_PROPERTY = "local.grpc.port"

        /** How long stop() lets running calls finish before cancelling them, seconds. */
        const val SHUTDOWN_GRACE_SECONDS = 5L

        private const val PORT_SOURCE = "protobench.grpc.ports"
    }
}
