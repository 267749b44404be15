package io.protobench.dataserver.members

import io.protobench.dataserver.support.MemberServerTest
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.memberCounts
import io.protobench.dataserver.support.postMember
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.http.MediaType
import org.springframework.jdbc.core.JdbcTemplate
import javax.sql.DataSource

/**
 * `protobench.data.db.schema`: the members table, its index and Flyway's history are made in
 * a schema of their own, and everything the write path does (creation, count, the runner's
 * TRUNCATE) stays in it. Another table called members in the default schema is not touched:
 * that is what makes emptying the lab's table safe in a database the lab did not make.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["protobench.data.grpc.port=0", "protobench.data.db.schema=lab_members"],
)
@AutoConfigureObservability(tracing = false)
class MemberSchemaTest : MemberServerTest() {
    @Autowired
    private lateinit var dataSource: DataSource

    private val jdbc by lazy { JdbcTemplate(dataSource) }

    private fun tablesIn(schema: String): List<String> = jdbc.queryForList(
        "SELECT LOWER(table_name) FROM information_schema.tables WHERE table_schema = ? ORDER BY 1",
        String::class.java,
        schema,
    )

    @Test
    fun `the table and Flyway's history are in the schema, and creations and the clear stay there`() {
        assertThat(tablesIn("lab_members")).containsExactly("flyway_schema_history", "members")
        jdbc.execute("CREATE TABLE PUBLIC.MEMBERS (ID INT)")
        jdbc.execute("INSERT INTO PUBLIC.MEMBERS VALUES (1)")
        try {
            web.postMember(TestMember().json(), MediaType.APPLICATION_JSON).expectStatus().isCreated
            grpc.members.createMember(TestMember().proto())
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"lab_members\".MEMBERS", Long::class.java)).isEqualTo(2)
            assertThat(web.memberCounts().rows).isEqualTo(2)

            web.delete().uri("/internal/members").exchange().expectStatus().isOk
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"lab_members\".MEMBERS", Long::class.java)).isZero()
            assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM PUBLIC.MEMBERS", Long::class.java))
                .describedAs("a members table outside the schema").isEqualTo(1)
        } finally {
            jdbc.execute("DROP TABLE PUBLIC.MEMBERS")
        }
    }
}
