package io.protobench.dataserver.info

import com.google.protobuf.RuntimeVersion
import io.grpc.ManagedChannel
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.grpc.GrpcServer
import org.springframework.boot.SpringBootVersion
import org.springframework.core.env.Environment
import org.springframework.stereotype.Component
import java.lang.management.ManagementFactory

/** Reads [EffectiveSettings] from the bound settings, the running servers and the JVM. */
@Component
class EffectiveSettingsReader(
    private val settings: DataServerSettings,
    private val grpcServer: GrpcServer,
    private val environment: Environment,
) {
    fun read(): EffectiveSettings = EffectiveSettings(
        grpcPayloadMode = settings.grpcPayloadMode,
        complexEncoding = settings.complexEncoding,
        chunkSizeBytes = settings.chunkSizeBytes,
        httpAddress = environment.getProperty("server.address"),
        httpPort = environment.getProperty("local.server.port", Int::class.java),
        grpcAddress = grpcServer.address,
        grpcPort = grpcServer.port,
        grpcMaxMessageBytes = GrpcServer.MAX_MESSAGE_BYTES,
        jdkVersion = System.getProperty("java.version"),
        jdkVendor = System.getProperty("java.vendor"),
        vmName = System.getProperty("java.vm.name"),
        jvmInputArguments = ManagementFactory.getRuntimeMXBean().inputArguments,
        availableProcessors = Runtime.getRuntime().availableProcessors(),
        maxHeapBytes = Runtime.getRuntime().maxMemory(),
        libraries = libraries,
    )

    private val libraries: Map<String, String> = listOfNotNull(
        "spring-boot" to SpringBootVersion.getVersion(),
        "kotlin" to KotlinVersion.CURRENT.toString(),
        "protobuf-java" to "${RuntimeVersion.MAJOR}.${RuntimeVersion.MINOR}.${RuntimeVersion.PATCH}${RuntimeVersion.SUFFIX}",
        "grpc-java" to ManagedChannel::class.java.`package`?.implementationVersion,
        "netty (HTTP server)" to io.netty.util.Version.identify()["netty-common"]?.artifactVersion(),
    ).mapNotNull { (name, version) -> version?.let { name to it } }.toMap()
}
