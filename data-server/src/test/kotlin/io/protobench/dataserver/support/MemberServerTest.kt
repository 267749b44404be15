package io.protobench.dataserver.support

import io.protobench.dataserver.grpc.GrpcServer
import io.protobench.dataserver.members.MemberRepository
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.TestInstance
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.web.reactive.server.WebTestClient

/**
 * What the write-path tests reach the server through: HTTP, a gRPC channel (closed after
 * the class) and the members table itself, read with the server's own repository.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MemberServerTest {
    @Autowired
    protected lateinit var web: WebTestClient

    @Autowired
    protected lateinit var grpcServer: GrpcServer

    @Autowired
    protected lateinit var repository: MemberRepository

    protected val grpc by lazy { GrpcTestClient(grpcServer.port) }

    @AfterAll
    fun closeChannel() = grpc.close()
}
