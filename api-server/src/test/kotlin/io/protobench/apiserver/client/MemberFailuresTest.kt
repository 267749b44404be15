package io.protobench.apiserver.client

import io.protobench.apiserver.client.grpc.parameterNamedIn
import io.protobench.contract.InvalidParameter
import io.protobench.contract.members.MemberRules
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

/** How the gateway reads the field a data-server's INVALID_ARGUMENT names (its description is an [InvalidParameter]'s message). */
class MemberFailuresTest {
    @Test
    fun `the parameter of an InvalidParameter message is read back, in a stream with its position`() {
        val single = InvalidParameter("email", "x y@example.com", MemberRules.EMAIL_ACCEPTED)
        val streamed = InvalidParameter("members[3].etcInfo", "", MemberRules.ETC_INFO_ACCEPTED)

        assertThat(parameterNamedIn(single.message!!)).isEqualTo("email")
        assertThat(parameterNamedIn(streamed.message!!)).isEqualTo("members[3].etcInfo")
    }

    @Test
    fun `a description that names no parameter is about the member`() {
        assertThat(parameterNamedIn("something else went wrong")).isEqualTo("member")
        assertThat(parameterNamedIn("")).isEqualTo("member")
    }
}
