package io.protobench.dataserver.grpc

import io.protobench.dataserver.complex.ComplexMessages
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.payload.PayloadCatalog
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.ConfigurableEnvironment

@Configuration(proxyBeanMethods = false)
class GrpcConfig {
    @Bean
    fun grpcPayloads(catalog: PayloadCatalog, settings: DataServerSettings) = GrpcPayloads(catalog, settings)

    @Bean
    fun dataGrpcService(payloads: GrpcPayloads, complex: ComplexMessages) = DataGrpcService(payloads, complex)

    @Bean
    fun grpcServer(settings: DataServerSettings, service: DataGrpcService, environment: ConfigurableEnvironment) =
        GrpcServer(settings.grpc, service, environment)
}
