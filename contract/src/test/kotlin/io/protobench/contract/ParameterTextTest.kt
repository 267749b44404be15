package io.protobench.contract

import io.protobench.contract.complex.ComplexityLevel
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test

class ParameterTextTest {
    private val long = "x".repeat(ParameterText.MAX_LENGTH + 1)

    @Test
    fun `text within the cap and null pass unchanged`() {
        assertThat(ParameterText.bounded("p", "abc", "words")).isEqualTo("abc")
        assertThat(ParameterText.bounded("p", null, "words")).isNull()
        assertThat(ParameterText.bounded("p", long, "words", maxLength = long.length)).isEqualTo(long)
    }

    @Test
    fun `longer text is refused naming the cap and what is accepted`() {
        assertThatThrownBy { ParameterText.bounded("p", long, "words") }
            .isInstanceOf(InvalidParameter::class.java)
            .hasMessageContaining("accepted at most 64 characters: words")
    }

    @Test
    fun `complexity is capped, then read in any case with spaces around`() {
        assertThat(ComplexityLevel.parse(" Ultra ")).isEqualTo(ComplexityLevel.ULTRA)
        assertThatThrownBy { ComplexityLevel.parse(" ".repeat(100) + "simple") }
            .isInstanceOf(InvalidParameter::class.java)
            .hasMessageContaining("at most 64 characters")
        assertThatThrownBy { ComplexityLevel.parse(null) }.isInstanceOf(InvalidParameter::class.java)
        assertThatThrownBy { ComplexityLevel.parse("") }.hasMessageContaining(ComplexityLevel.accepted)
    }

    @Test
    fun `protocol segments and labels are capped before they are compared`() {
        assertThat(Protocol.fromPathSegment("grpc/stream")).isEqualTo(Protocol.GRPC_STREAM)
        assertThat(Protocol.parse("grpc/unary")).isEqualTo(Protocol.GRPC_UNARY)
        assertThatThrownBy { Protocol.fromPathSegment(long) }.hasMessageContaining("at most 64 characters")
        assertThatThrownBy { Protocol.parse(long) }.hasMessageContaining("at most 64 characters")
    }
}
