package io.protobench.apiserver.e2e

import com.google.protobuf.Message
import io.protobench.apiserver.client.DataClients
import io.protobench.apiserver.support.GatewayTest
import io.protobench.apiserver.support.TestDataServer
import io.protobench.apiserver.support.getJson
import io.protobench.contract.Protocol
import io.protobench.contract.complex.SimpleRecord
import io.protobench.contract.message.ItemBatch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import org.springframework.test.web.reactive.server.WebTestClient
import protobench.usermessage.Model
import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream
import io.protobench.contract.proto.SimpleRecord as ProtoSimple

/**
 * A user's message through both servers, loaded from a jar as `protobench run` will hand it to
 * them: every protocol delivers `count` items, each decoded in full and equal to the sample.
 */
@GatewayTest
class UserMessageEndToEndTest {
    @Autowired
    lateinit var web: WebTestClient

    @Autowired
    lateinit var clients: DataClients

    @Test
    fun `every protocol delivers count items equal to the sample`() {
        for (protocol in Protocol.entries) {
            val fetched = runBlocking { clients.of(protocol).fetchItems(COUNT, "r-1") }
            assertThat(fetched.items).`as`(protocol.label).hasSize(COUNT)
            val expected: Any = if (protocol == Protocol.HTTP_JSON) RECORD else SAMPLE
            assertThat(fetched.items).`as`(protocol.label).allSatisfy { assertThat(it).isEqualTo(expected) }
            if (protocol != Protocol.HTTP_JSON) assertThat(fetched.items).allSatisfy { assertThat(it).isInstanceOf(Message::class.java) }
        }
    }

    @Test
    fun `the gateway answers the count and the bytes of each hop, the null hop included`() {
        val batchBytes = ItemBatch.write(List(COUNT) { SAMPLE }).size.toLong()
        for (segment in listOf("http/json", "http/binary", "grpc", "grpc/stream", "none")) {
            val (status, body) = web.getJson("/api/message/$segment?count=$COUNT")
            assertThat(status).`as`(segment).isEqualTo(200)
            assertThat(body["count"].asInt()).`as`(segment).isEqualTo(COUNT)
            when (segment) {
                "http/json" -> assertThat(body["serializedSize"].asLong()).isGreaterThan(batchBytes)
                "grpc/stream" -> assertThat(body["serializedSize"].asLong()).isEqualTo(COUNT * SAMPLE.serializedSize.toLong())
                else -> assertThat(body["serializedSize"].asLong()).`as`(segment).isEqualTo(batchBytes)
            }
        }
    }

    @Test
    fun `a count out of range is refused with what is accepted, before any hop`() {
        for (count in listOf("0", "-3", "many", "100001")) {
            val (status, body) = web.getJson("/api/message/grpc?count=$count")
            assertThat(status).`as`(count).isEqualTo(400)
            assertThat(body["parameter"].asText()).`as`(count).isEqualTo("count")
            assertThat(body["accepted"].asText()).`as`(count).contains("1 to 100000")
        }
    }

    companion object {
        private const val COUNT = 7
        private val RECORD = SimpleRecord(42, "Ada Lovelace", 36, 97.5, true)
        private val SAMPLE: ProtoSimple = Model.TO_PROTO.apply(RECORD) as ProtoSimple

        private val files: Path = Files.createTempDirectory("user-message-e2e")
        private val jar: Path = modelJar(files.resolve("message.jar"))
        private val sample: Path = Files.write(files.resolve("sample.pb"), SAMPLE.toByteArray())

        private val dataServer: TestDataServer by lazy {
            TestDataServer.start("--protobench.data.message.jar=$jar", "--protobench.data.message.sample=$sample")
        }

        @JvmStatic
        @DynamicPropertySource
        fun servers(registry: DynamicPropertyRegistry) {
            dataServer.register(registry)
            registry.add("protobench.gateway.message.jar") { jar.toString() }
            registry.add("protobench.gateway.message.sample") { sample.toString() }
        }

        @JvmStatic
        @AfterAll
        fun stop() {
            dataServer.close()
            files.toFile().deleteRecursively()
        }

        /** A jar holding the stand-in model's class file, as `protobench message` would hold the generated one. */
        private fun modelJar(target: Path): Path {
            val name = Model::class.java.name.replace('.', '/') + ".class"
            JarOutputStream(Files.newOutputStream(target)).use { out ->
                out.putNextEntry(JarEntry(name))
                Model::class.java.classLoader.getResourceAsStream(name)!!.use { it.copyTo(out) }
                out.closeEntry()
            }
            return target
        }
    }
}
