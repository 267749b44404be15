package io.protobench.dataserver.info

import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.grpc.GrpcServer
import org.springframework.stereotype.Component

/** Reads [EffectiveSettings] from the bound settings and the running gRPC server. */
@Component
class EffectiveSettingsReader(private val settings: DataServerSettings, private val grpcServer: GrpcServer) {
    fun read(): EffectiveSettings = EffectiveSettings(
        grpcPayloadMode = settings.grpcPayloadMode,
        httpBinaryPayloadMode = settings.httpBinaryPayloadMode,
        complexEncoding = settings.complexEncoding,
        chunkSizeBytes = settings.chunkSizeBytes,
        compression = settings.compression,
        grpc = EffectiveSettings.Grpc(
            address = grpcServer.address,
            port = grpcServer.port,
            executor = settings.grpc.executor,
            eventLoopThreads = settings.grpc.eventLoopThreads,
        ),
        db = EffectiveSettings.Db.of(settings.db),
        members = EffectiveSettings.Members(settings.members.enabled),
    )
}
