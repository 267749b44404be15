package io.protobench.dataserver.info

import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.grpc.GrpcServer
import org.springframework.stereotype.Component

/** Reads [EffectiveSettings] from the bound settings and the running gRPC server. */
@Component
class EffectiveSettingsReader(private val settings: DataServerSettings, private val grpcServer: GrpcServer) {
    fun read(): EffectiveSettings = EffectiveSettings(
        grpcPayloadMode = settings.grpcPayloadMode,
        complexEncoding = settings.complexEncoding,
        chunkSizeBytes = settings.chunkSizeBytes,
        grpc = EffectiveSettings.Grpc(grpcServer.address, grpcServer.port),
    )
}
