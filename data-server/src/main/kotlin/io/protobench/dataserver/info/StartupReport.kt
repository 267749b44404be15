package io.protobench.dataserver.info

import org.slf4j.LoggerFactory
import org.springframework.boot.context.event.ApplicationReadyEvent
import org.springframework.context.event.EventListener
import org.springframework.core.env.Environment
import org.springframework.stereotype.Component

/** Logs one line when the server is ready: where it listens and which modes it runs. */
@Component
class StartupReport(private val reader: EffectiveSettingsReader, private val environment: Environment) {
    private val log = LoggerFactory.getLogger(javaClass)

    @EventListener(ApplicationReadyEvent::class)
    fun ready() {
        val s = reader.read()
        log.info(
            "data-server ready: http={}:{} (HTTP/1.1 + h2c) grpc={}:{} grpc-payload-mode={} " +
                "http-binary-payload-mode={} complex-encoding={} chunk-size-bytes={} compression={} " +
                "grpc.executor={} grpc.event-loop-threads={} members={} db={} db.pool-size={}",
            environment.getProperty("server.address") ?: "*", environment.getProperty("local.server.port"),
            s.grpc.address, s.grpc.port, s.grpcPayloadMode.id, s.httpBinaryPayloadMode.id, s.complexEncoding.id,
            s.chunkSizeBytes, s.compression.id, s.grpc.executor.id, s.grpc.eventLoopThreads, if (s.members.enabled) "on" else "off",
            s.db.url, s.db.poolSize,
        )
    }
}
