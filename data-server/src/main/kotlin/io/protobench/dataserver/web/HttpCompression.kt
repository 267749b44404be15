package io.protobench.dataserver.web

import io.protobench.dataserver.config.Compression
import io.protobench.dataserver.config.DataServerSettings
import org.springframework.boot.web.server.ConfigurableWebServerFactory
import org.springframework.boot.web.server.WebServerFactoryCustomizer
import org.springframework.core.Ordered
import org.springframework.http.MediaType
import org.springframework.stereotype.Component
import org.springframework.util.unit.DataSize
import org.springframework.boot.web.server.Compression as ServerCompression

/**
 * Applies `protobench.data.compression` to the HTTP server (Reactor Netty gzips a
 * response when the request's `Accept-Encoding` allows it). Every body this server sends
 * qualifies, whatever its size: Spring Boot's defaults would skip the protobuf and raw
 * bodies and anything under 2 KB, and a 1 KB answer is one of the sizes compared. Runs
 * after Spring Boot's own `server.compression`, so this setting is the one in effect.
 */
@Component
class HttpCompression(private val settings: DataServerSettings) :
    WebServerFactoryCustomizer<ConfigurableWebServerFactory>,
    Ordered {

    override fun customize(factory: ConfigurableWebServerFactory) = factory.setCompression(forSetting(settings.compression))

    override fun getOrder() = Ordered.LOWEST_PRECEDENCE

    private fun forSetting(compression: Compression) = ServerCompression().apply {
        enabled = compression == Compression.GZIP
        mimeTypes = COMPRESSED_TYPES
        minResponseSize = DataSize.ofBytes(0)
    }

    private companion object {
        val COMPRESSED_TYPES = arrayOf(
            MediaType.APPLICATION_JSON_VALUE,
            APPLICATION_PROTOBUF,
            MediaType.APPLICATION_OCTET_STREAM_VALUE,
        )
    }
}
