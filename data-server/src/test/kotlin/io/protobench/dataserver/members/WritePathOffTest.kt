package io.protobench.dataserver.members

import io.grpc.Status
import io.grpc.StatusRuntimeException
import io.protobench.contract.proto.DataRequest
import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.support.GrpcTestClient
import io.protobench.dataserver.support.TestMember
import io.protobench.dataserver.support.postMember
import io.protobench.dataserver.web.MembersOffController
import jakarta.persistence.EntityManagerFactory
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.catchThrowableOfType
import org.flywaydb.core.Flyway
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.context.ApplicationContext
import org.springframework.http.MediaType
import org.springframework.test.web.reactive.server.WebTestClient
import javax.sql.DataSource

/**
 * A data-server started with `protobench.data.members.enabled=false`, as the lab starts it
 * for runs that only read: no database at all, the read path unchanged, and the write
 * path's addresses saying why they are not there.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["protobench.data.grpc.port=0", "protobench.data.members.enabled=false"],
)
@AutoConfigureObservability(tracing = false)
class WritePathOffTest {
    @Autowired
    lateinit var context: ApplicationContext

    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var grpcServer: GrpcServer

    @Test
    fun `no database layer is built - no pool, no JPA, no Flyway, no store`() {
        assertThat(context.getBeanNamesForType(DataSource::class.java)).isEmpty()
        assertThat(context.getBeanNamesForType(MemberStore::class.java)).isEmpty()
        assertThat(context.getBeanNamesForType(MemberRepository::class.java)).isEmpty()
        assertThat(context.getBeanNamesForType(EntityManagerFactory::class.java)).isEmpty()
        assertThat(context.getBeanNamesForType(Flyway::class.java)).isEmpty()
    }

    @Test
    fun `POST api members and internal members answer 404 naming the setting`() {
        web.postMember(TestMember().json(), MediaType.APPLICATION_JSON).expectStatus().isNotFound
            .expectBody().jsonPath("$.error").isEqualTo(MembersOffController.MESSAGE)
        web.get().uri("/internal/members").exchange().expectStatus().isNotFound
            .expectBody().jsonPath("$.error").value<String> { assertThat(it).contains("protobench.data.members.enabled=true") }
        web.delete().uri("/internal/members").exchange().expectStatus().isNotFound
    }

    @Test
    fun `gRPC MemberService is not served, DataService is`() {
        GrpcTestClient(grpcServer.port).use { grpc ->
            val refused = catchThrowableOfType({ grpc.members.createMember(TestMember().proto()) }, StatusRuntimeException::class.java)
            assertThat(refused.status.code).isEqualTo(Status.Code.UNIMPLEMENTED)
            assertThat(grpc.data.getData(DataRequest.newBuilder().setSize("1kb").build()).payload.size()).isEqualTo(1024)
        }
    }

    @Test
    fun `the settings read back say the write path is off`() {
        web.get().uri("/internal/settings").exchange().expectStatus().isOk
            .expectBody().jsonPath("$.members.enabled").isEqualTo(false)
    }
}
