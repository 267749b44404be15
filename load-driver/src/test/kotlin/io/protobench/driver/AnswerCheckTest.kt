package io.protobench.driver

import io.netty.buffer.Unpooled
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class AnswerCheckTest {
    private fun body(text: String) = Unpooled.copiedBuffer(text, Charsets.UTF_8)
    private val gatewayAnswer = """{"requestId":"a","protocol":"gRPC","payloadSize":1024,"latencyMs":0.4}"""

    @Test
    fun `the field's number must equal the value`() {
        val check = AnswerCheck(CallTarget("/x", "payloadSize", 1024))
        assertThat(check.problem(200, body(gatewayAnswer))).isNull()
        assertThat(check.problem(200, body(gatewayAnswer.replace("1024", "1023")))).isEqualTo("\"payloadSize\" was 1023, expected 1024")
        assertThat(check.problem(200, body("""{"payloadSize" : 1024}"""))).isNull()
    }

    @Test
    fun `a wrong status, a missing field or another field's number is not a correct answer`() {
        val check = AnswerCheck(CallTarget("/x", "payloadSize", 1024))
        assertThat(check.problem(500, body(gatewayAnswer))).isEqualTo("status 500, expected 200")
        assertThat(check.problem(200, body("""{"size":1024}"""))).contains("no number")
        assertThat(check.problem(200, body("""{"payloadSize":"1024"}"""))).contains("no number")
        assertThat(check.problem(200, body(""))).contains("no number")
    }

    @Test
    fun `a value of null accepts any number above 0`() {
        val check = AnswerCheck(CallTarget("/x", "serializedSize", null))
        assertThat(check.problem(200, body("""{"serializedSize":17}"""))).isNull()
        assertThat(check.problem(200, body("""{"serializedSize":0}"""))).isEqualTo("\"serializedSize\" was 0, expected above 0")
        assertThat(check.problem(200, body("""{"serializedSize":-3}"""))).isNotNull()
    }

    @Test
    fun `without a field the body's exact size is checked`() {
        val check = AnswerCheck(CallTarget("/x", value = 5))
        assertThat(check.problem(200, body("12345"))).isNull()
        assertThat(check.problem(200, body("1234"))).isEqualTo("body of 4 bytes, expected 5")
    }

    @Test
    fun `a wrong answer's sample is the start of its body as one line of text, cut where it is long`() {
        assertThat(AnswerCheck.sample(body("<html>\n  <h1>502 Bad Gateway</h1>\n</html>")))
            .isEqualTo("<html> <h1>502 Bad Gateway</h1> </html>")
        assertThat(AnswerCheck.sample(body(""))).isEqualTo("(empty body)")
        val long = AnswerCheck.sample(body("x".repeat(5_000)))
        assertThat(long).hasSize(AnswerCheck.SAMPLE_CHARS + 1).endsWith("x…")
        assertThat(AnswerCheck.sample(body("x".repeat(AnswerCheck.SAMPLE_CHARS)))).doesNotContain("…")
        // The reader's place in the buffer is left where it was.
        val buffer = body(gatewayAnswer)
        AnswerCheck.sample(buffer)
        assertThat(buffer.readableBytes()).isEqualTo(gatewayAnswer.length)
    }
}
