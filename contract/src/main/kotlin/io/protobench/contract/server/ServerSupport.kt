package io.protobench.contract.server

import io.protobench.contract.process.ParentWatch
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.boot.context.properties.EnableConfigurationProperties
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration

/**
 * What both servers add to their Spring context (`@Import` it on the application
 * class): the [ProcessSettings]; when `protobench.parent-pid` is set, the
 * [ParentWatch] that ends the server with its parent; the [LoopbackOnlyFilter] in
 * front of the control and internal endpoints; the [KnownSettings] check that refuses
 * to start with a mistyped `protobench.*` property.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ProcessSettings::class)
class ServerSupport {
    @Bean
    fun loopbackOnlyFilter(settings: ProcessSettings) = LoopbackOnlyFilter(settings.internalHosts.toSet())

    @Bean
    fun knownSettings(context: ConfigurableApplicationContext) = KnownSettings(context)

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty("protobench.parent-pid")
    fun parentWatch(settings: ProcessSettings, context: ConfigurableApplicationContext): ParentWatch {
        val pid = settings.parentPid!!
        return ParentWatch(pid, onParentGone = { ParentWatch.exitJvm(pid) { context.close() } }).start()
    }
}
