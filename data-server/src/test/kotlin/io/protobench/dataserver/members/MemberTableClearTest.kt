package io.protobench.dataserver.members

import io.protobench.contract.Json
import io.protobench.contract.members.MemberCounts
import io.protobench.dataserver.support.DataServerTest
import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.memberCounts
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.test.annotation.DirtiesContext

/**
 * What the runner does before each member-creation trial: empty the table. A context of its
 * own (dirtied after), as the other write-path tests count on rows equalling creations.
 */
@DataServerTest
@DirtiesContext
class MemberTableClearTest : MemberServerTest() {
    @Test
    fun `DELETE on the members endpoint empties the table while creations keep counting`() {
        repeat(2) { grpc.members.createMember(TestMember().proto()) }
        val before = web.memberCounts()
        assertThat(before.rows).isGreaterThanOrEqualTo(2)
        val cleared = Json.newMapper().readValue(
            web.delete().uri("/internal/members").exchange().expectStatus().isOk.expectBody().returnResult().responseBody,
            MemberCounts::class.java,
        )
        assertThat(cleared.rows).isZero()
        assertThat(repository.count()).isZero()
        assertThat(cleared.created).isEqualTo(before.created)
        assertThat(cleared.dbTime.count).describedAs("the deletion is not a creation's database time").isZero()
        grpc.members.createMember(TestMember().proto())
        assertThat(web.memberCounts().rows).isEqualTo(1)
    }
}
