package io.protobench.dataserver.config

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.context.properties.EnableConfigurationProperties
import org.springframework.boot.test.context.assertj.AssertableApplicationContext
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Import

class SettingsValidationTest {
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(DataServerSettings::class)
    @Import(SettingValueConverter::class)
    class SettingsOnly

    private val runner = ApplicationContextRunner().withUserConfiguration(SettingsOnly::class.java)

    @Test
    fun `defaults are shared payloads, per-request encoding, 64 KiB chunks and gRPC on 127_0_0_1 9091`() {
        runner.run { context ->
            assertThat(context.getBean(DataServerSettings::class.java)).isEqualTo(
                DataServerSettings(
                    grpc = DataServerSettings.Grpc("127.0.0.1", 9091),
                    grpcPayloadMode = GrpcPayloadMode.SHARED,
                    complexEncoding = ComplexEncoding.PER_REQUEST,
                    chunkSizeBytes = 65536,
                ),
            )
        }
    }

    @Test
    fun `modes bind by their documented ids and by enum names`() {
        runner.withPropertyValues("protobench.data.grpc-payload-mode=copy", "protobench.data.complex-encoding=prebuilt")
            .run { assertModes(it, GrpcPayloadMode.COPY, ComplexEncoding.PREBUILT) }
        runner.withPropertyValues("protobench.data.grpc-payload-mode=SHARED", "protobench.data.complex-encoding=PER_REQUEST")
            .run { assertModes(it, GrpcPayloadMode.SHARED, ComplexEncoding.PER_REQUEST) }
    }

    @Test
    fun `an unknown grpc-payload-mode fails startup naming the property and the accepted values`() {
        runner.withPropertyValues("protobench.data.grpc-payload-mode=zero-copy").run {
            assertThat(failureText(it)).contains("protobench.data.grpc-payload-mode", "'zero-copy'", "accepted shared, copy")
        }
    }

    @Test
    fun `an unknown complex-encoding fails startup naming the property and the accepted values`() {
        runner.withPropertyValues("protobench.data.complex-encoding=cached").run {
            assertThat(failureText(it)).contains("protobench.data.complex-encoding", "accepted per-request, prebuilt")
        }
    }

    @Test
    fun `a chunk size outside 1 byte to 8 MiB fails startup naming the property`() {
        runner.withPropertyValues("protobench.data.chunk-size-bytes=0").run {
            assertThat(failureText(it)).contains("protobench.data.chunk-size-bytes must be from 1 to 8388608")
        }
    }

    private fun assertModes(context: AssertableApplicationContext, payload: GrpcPayloadMode, complex: ComplexEncoding) {
        val settings = context.getBean(DataServerSettings::class.java)
        assertThat(settings.grpcPayloadMode).isEqualTo(payload)
        assertThat(settings.complexEncoding).isEqualTo(complex)
    }

    /** Messages of the startup failure and all its causes, one per line. */
    private fun failureText(context: AssertableApplicationContext): String {
        assertThat(context).hasFailed()
        return generateSequence(context.startupFailure) { it.cause }.joinToString("\n") { it.message.orEmpty() }
    }
}
