package io.protobench.apiserver.startup

import io.protobench.apiserver.ApiServerApplication
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.ExtendWith
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.boot.test.system.CapturedOutput
import org.springframework.boot.test.system.OutputCaptureExtension

/** An unknown value of a closed gateway setting stops start-up with a report naming the property and the valid values. */
@ExtendWith(OutputCaptureExtension::class)
class BadValuesTest {
    @Test
    fun `an unknown compression is reported with the property and the values accepted`(output: CapturedOutput) {
        val failure = runCatching {
            SpringApplicationBuilder(ApiServerApplication::class.java)
                .properties("spring.config.name=${ApiServerApplication.CONFIG_NAME}")
                .run("--server.port=0", "--spring.jmx.enabled=false", "--protobench.gateway.compression=brotli")
                .close()
        }.exceptionOrNull()

        assertThat(failure).isNotNull
        assertThat(output.out).contains("protobench.gateway.compression", "brotli", "The following values are valid", "NONE", "GZIP")
    }
}
