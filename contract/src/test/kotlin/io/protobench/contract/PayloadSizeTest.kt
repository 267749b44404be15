package io.protobench.contract

import io.protobench.contract.payload.PayloadSize
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource

class PayloadSizeTest {
    @Test
    fun `sizes parse as bytes, kb and mb in binary units`() {
        assertThat(PayloadSize.parse("1kb").bytes).isEqualTo(1024)
        assertThat(PayloadSize.parse("10KB").bytes).isEqualTo(10240)
        assertThat(PayloadSize.parse("1mb").bytes).isEqualTo(1048576)
        assertThat(PayloadSize.parse("1500").bytes).isEqualTo(1500)
        assertThat(PayloadSize.parse("8mb").bytes).isEqualTo(PayloadSize.MAX_BYTES)
    }

    @Test
    fun `every seed size parses`() {
        assertThat(PayloadSize.SEED_SIZES.map { PayloadSize.parse(it).toString() }).isEqualTo(PayloadSize.SEED_SIZES)
    }

    @ParameterizedTest
    @ValueSource(strings = ["", "abc", "0", "-1kb", "9mb", "1gb", "1.5mb", "99999999999"])
    fun `bad sizes are rejected with what is accepted`(text: String) {
        assertThatThrownBy { PayloadSize.parse(text) }
            .isInstanceOf(InvalidParameter::class.java)
            .hasMessageContaining("invalid size")
            .hasMessageContaining("up to 8mb")
    }
}
