package io.protobench.dataserver.grpc

import io.grpc.ServerInterceptors
import io.grpc.ServerServiceDefinition
import io.protobench.dataserver.complex.ComplexMessages
import io.protobench.dataserver.config.Compression
import io.protobench.dataserver.config.DataServerSettings
import io.protobench.dataserver.config.GrpcExecutor
import io.protobench.dataserver.info.ServedRequests
import io.protobench.dataserver.members.MemberStore
import io.protobench.dataserver.members.MembersEnabled
import io.protobench.dataserver.message.ItemCatalog
import io.protobench.dataserver.message.MessageEnabled
import io.protobench.dataserver.payload.PayloadCatalog
import kotlinx.coroutines.Dispatchers
import org.springframework.beans.factory.ObjectProvider
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.ConfigurableEnvironment
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.EmptyCoroutineContext

@Configuration(proxyBeanMethods = false)
class GrpcConfig {
    @Bean
    fun grpcPayloads(catalog: PayloadCatalog, settings: DataServerSettings) = GrpcPayloads(catalog, settings)

    @Bean
    fun dataGrpcService(payloads: GrpcPayloads, complex: ComplexMessages, served: ServedRequests, settings: DataServerSettings) =
        DataGrpcService(payloads, complex, served, handlerContext(settings.grpc.executor))

    @Bean
    @MembersEnabled
    fun memberGrpcService(store: MemberStore, settings: DataServerSettings) =
        MemberGrpcService(store, handlerContext(settings.grpc.executor))

    @Bean
    @MessageEnabled
    fun itemGrpcService(items: ItemCatalog, served: ServedRequests, settings: DataServerSettings) =
        ItemGrpcService(items, served, handlerContext(settings.grpc.executor))

    /**
     * DataService always; MemberService when the write path is on, ItemService when a user's
     * message is loaded (else their calls answer UNIMPLEMENTED).
     */
    @Bean
    fun grpcServer(
        settings: DataServerSettings,
        dataService: DataGrpcService,
        memberService: ObjectProvider<MemberGrpcService>,
        itemService: ObjectProvider<ItemGrpcService>,
        environment: ConfigurableEnvironment,
    ) = GrpcServer(
        settings.grpc,
        listOfNotNull(
            served(dataService.bindService(), settings.compression),
            memberService.ifAvailable?.bindService(),
            itemService.ifAvailable?.let { served(it.bindService(), settings.compression) },
        ),
        environment,
    )

    /**
     * Where grpc-kotlin runs the handler coroutines. With grpc-java's pool, its default
     * (`Dispatchers.Default`, as before these settings existed). With the direct executor,
     * unconfined: the handler starts on the event loop that delivered the call and resumes
     * where the call resumes it, so "direct" means no thread hop at all.
     */
    private fun handlerContext(executor: GrpcExecutor): CoroutineContext = when (executor) {
        GrpcExecutor.POOL -> EmptyCoroutineContext
        GrpcExecutor.DIRECT -> Dispatchers.Unconfined
    }

    /** A payload service as served: gzipping its responses when compression is on (health and reflection never are). */
    private fun served(service: ServerServiceDefinition, compression: Compression): ServerServiceDefinition = when (compression) {
        Compression.NONE -> service
        Compression.GZIP -> ServerInterceptors.intercept(service, GzipResponses)
    }
}
