package io.protobench.dataserver.members

import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.postMember
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.http.MediaType

/**
 * A data-server started with `protobench.data.members.unique-emails=false`, as seed 003's
 * schema was: the same member posted again is another row over every protocol, which is
 * what seed 003's hey and ghz (one fixed body, posted over and over) need.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["protobench.data.grpc.port=0", "protobench.data.members.unique-emails=false"],
)
@AutoConfigureObservability(tracing = false)
class DuplicateEmailsTest : MemberServerTest() {
    @Test
    fun `one body posted three times over HTTP and twice over gRPC makes five rows with that email`() {
        val member = TestMember()
        repeat(3) { web.postMember(member.json(), MediaType.APPLICATION_JSON).expectStatus().isCreated }
        repeat(2) { grpc.members.createMember(member.proto()) }
        assertThat(repository.findAll().count { it.email == member.email }).isEqualTo(5)
    }
}
