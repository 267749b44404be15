package io.protobench.contract

import io.protobench.contract.payload.PayloadSize
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
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
    @CsvSource(
        delimiter = '|',
        value = [
            "'1b'              | 1",
            "'1B'              | 1",
            "'1Kb'             | 1024",
            "'2mB'             | 2097152",
            "' 1kb'            | 1024",
            "'1kb '            | 1024",
            "'1 kb'            | 1024",
            "'\t4\tMB\n'      | 4194304",
            "'0001kb'          | 1024",
            "'8192kb'          | 8388608",
            "'8388608'         | 8388608",
            "'0000000001'      | 1",
        ],
    )
    fun `spaces around and between the parts, unit case and leading zeros are accepted`(text: String, bytes: Int) {
        assertThat(PayloadSize.parse(text).bytes).isEqualTo(bytes)
    }

    @ParameterizedTest
    @ValueSource(
        strings = [
            "", " ", "abc", "kb", "0", "0kb", "-1kb", "+1kb", "9mb", "8193kb", "8388609", "1gb", "1.5mb", "1,5mb",
            "1 k b", "1kbkb", "1kb x", "1 2kb", "1k", "1mb.", "99999999999", "99999999999mb", "9999999999mb",
            "00000000001",
        ],
    )
    fun `bad sizes are rejected with what is accepted`(text: String) {
        assertThatThrownBy { PayloadSize.parse(text) }
            .isInstanceOf(InvalidParameter::class.java)
            .hasMessageContaining("invalid size")
            .hasMessageContaining("up to 8mb")
    }

    @Test
    fun `a missing size is rejected with what is accepted`() {
        assertThatThrownBy { PayloadSize.parse(null) }
            .isInstanceOfSatisfying(InvalidParameter::class.java) { assertThat(it.value).isNull() }
            .hasMessageContaining("up to 8mb")
    }

    @Test
    fun `64 characters are read, 65 are refused before parsing`() {
        val longest = "1" + " ".repeat(ParameterText.MAX_LENGTH - 3) + "kb"
        assertThat(longest).hasSize(64)
        assertThat(PayloadSize.parse(longest).bytes).isEqualTo(1024)

        assertThatThrownBy { PayloadSize.parse("$longest ") }
            .isInstanceOf(InvalidParameter::class.java)
            .hasMessageContaining("at most 64 characters")
            .hasMessageContaining("up to 8mb")
    }

    @Test
    fun `a 64 KB size of the kind that made the old pattern backtrack is refused by its length, before it is parsed, and not echoed whole`() {
        val crafted = "1" + " ".repeat(64 * 1024) + "x"
        val error = runCatching { PayloadSize.parse(crafted) }.exceptionOrNull()
        assertThat(error).isInstanceOf(InvalidParameter::class.java)
        val invalid = error as InvalidParameter
        // The length refusal, not the grammar's: the text was never walked.
        assertThat(invalid.accepted).startsWith("at most 64 characters")
        assertThat(invalid.value).hasSizeLessThan(100).endsWith("(${crafted.length} characters)")
        assertThat(invalid.message).hasSizeLessThan(300)
    }
}
