package io.protobench.dataserver.config

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import org.junit.jupiter.params.provider.ValueSource
import org.springframework.boot.context.properties.EnableConfigurationProperties
import org.springframework.boot.test.context.assertj.AssertableApplicationContext
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Configuration
import org.springframework.context.annotation.Import

class SettingsValidationTest {
    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(DataServerSettings::class)
    @Import(SettingValueConverter::class)
    class SettingsOnly

    private val runner = ApplicationContextRunner().withUserConfiguration(SettingsOnly::class.java)

    @Test
    fun `defaults are shared payloads, per-request encoding, 64 KiB chunks, no compression and gRPC on 127_0_0_1 9091`() {
        runner.run { context ->
            assertThat(context.getBean(DataServerSettings::class.java)).isEqualTo(
                DataServerSettings(
                    grpc = DataServerSettings.Grpc("127.0.0.1", 9091, GrpcExecutor.POOL, eventLoopThreads = 0),
                    grpcPayloadMode = GrpcPayloadMode.SHARED,
                    httpBinaryPayloadMode = GrpcPayloadMode.SHARED,
                    complexEncoding = ComplexEncoding.PER_REQUEST,
                    chunkSizeBytes = 65536,
                    compression = Compression.NONE,
                    db = context.getBean(DataServerSettings::class.java).db,
                ),
            )
        }
    }

    @Test
    fun `the default database is a fresh H2 in memory, a pool of 10 and a 5 s connection timeout`() {
        runner.run { context ->
            val db = context.getBean(DataServerSettings::class.java).db
            assertThat(db.url).startsWith("jdbc:h2:mem:members-").endsWith(";DB_CLOSE_DELAY=-1")
            assertThat(db.url).describedAs("a name of its own at every start").isNotEqualTo(DataServerSettings.Db().url)
            assertThat(listOf(db.user, db.password)).containsExactly("sa", "")
            assertThat(db.poolSize).isEqualTo(10)
            assertThat(db.connectionTimeoutMs).isEqualTo(5000)
        }
    }

    @Test
    fun `the database settings bind from protobench_data_db`() {
        runner.withPropertyValues(
            "protobench.data.db.url=jdbc:postgresql://db.example:5432/members",
            "protobench.data.db.user=bench",
            "protobench.data.db.password=s3cret",
            "protobench.data.db.pool-size=32",
            "protobench.data.db.connection-timeout-ms=250",
        ).run { context ->
            val db = context.getBean(DataServerSettings::class.java).db
            assertThat(db).isEqualTo(DataServerSettings.Db("jdbc:postgresql://db.example:5432/members", "bench", "s3cret", 32, 250))
            assertThat(db.toString()).describedAs("settings as logged").doesNotContain("s3cret")
        }
    }

    @ParameterizedTest
    @CsvSource(
        delimiter = '|',
        value = [
            "protobench.data.db.url=jdbc:mysql://db/members    | protobench.data.db.url must be a JDBC URL of a database this server has a driver for (jdbc:h2:… or jdbc:postgresql:…), got 'jdbc:mysql://db/members'",
            "protobench.data.db.url=members.db                 | protobench.data.db.url must be a JDBC URL",
            "protobench.data.db.pool-size=0                    | protobench.data.db.pool-size must be from 1 to 200, got 0",
            "protobench.data.db.pool-size=201                  | protobench.data.db.pool-size must be from 1 to 200, got 201",
            "protobench.data.db.connection-timeout-ms=249      | protobench.data.db.connection-timeout-ms must be from 250 to 600000, got 249",
            "protobench.data.db.schema=Members                 | protobench.data.db.schema must be a plain lower-case name (a letter or _, then letters, digits or _, at most 63), got 'Members'",
            "protobench.data.db.schema=lab;drop                | protobench.data.db.schema must be a plain lower-case name",
        ],
    )
    fun `a database setting out of range fails startup naming the property and what it accepts`(property: String, message: String) {
        runner.withPropertyValues(property).run { assertThat(failureText(it)).contains(message) }
    }

    @Test
    fun `modes bind by their documented ids and by enum names`() {
        runner.withPropertyValues("protobench.data.grpc-payload-mode=copy", "protobench.data.complex-encoding=prebuilt")
            .run { assertModes(it, GrpcPayloadMode.COPY, ComplexEncoding.PREBUILT) }
        runner.withPropertyValues("protobench.data.grpc-payload-mode=SHARED", "protobench.data.complex-encoding=PER_REQUEST")
            .run { assertModes(it, GrpcPayloadMode.SHARED, ComplexEncoding.PER_REQUEST) }
    }

    @Test
    fun `an unknown grpc-payload-mode fails startup naming the property and the accepted values`() {
        runner.withPropertyValues("protobench.data.grpc-payload-mode=zero-copy").run {
            assertThat(failureText(it)).contains("protobench.data.grpc-payload-mode", "'zero-copy'", "accepted shared, copy")
        }
    }

    @Test
    fun `an unknown complex-encoding fails startup naming the property and the accepted values`() {
        runner.withPropertyValues("protobench.data.complex-encoding=cached").run {
            assertThat(failureText(it)).contains("protobench.data.complex-encoding", "accepted per-request, prebuilt")
        }
    }

    @Test
    fun `a chunk size outside 1 byte to 8 MiB fails startup naming the property`() {
        runner.withPropertyValues("protobench.data.chunk-size-bytes=0").run {
            assertThat(failureText(it)).contains("protobench.data.chunk-size-bytes must be from 1 to 8388608")
        }
    }

    @Test
    fun `the compression, HTTP binary payload and gRPC threading settings bind by their ids`() {
        runner.withPropertyValues(
            "protobench.data.compression=gzip",
            "protobench.data.http-binary-payload-mode=copy",
            "protobench.data.grpc.executor=direct",
            "protobench.data.grpc.event-loop-threads=2",
        ).run { context ->
            val settings = context.getBean(DataServerSettings::class.java)
            assertThat(settings.compression).isEqualTo(Compression.GZIP)
            assertThat(settings.httpBinaryPayloadMode).isEqualTo(GrpcPayloadMode.COPY)
            assertThat(settings.grpc.executor).isEqualTo(GrpcExecutor.DIRECT)
            assertThat(settings.grpc.eventLoopThreads).isEqualTo(2)
        }
    }

    @ParameterizedTest
    @CsvSource(
        "protobench.data.compression,              brotli, 'accepted none, gzip'",
        "protobench.data.http-binary-payload-mode, view,   'accepted shared, copy'",
        "protobench.data.grpc.executor,            virtual, 'accepted pool, direct'",
    )
    fun `an unknown value of a closed set fails startup naming the property and the accepted values`(
        property: String,
        value: String,
        accepted: String,
    ) {
        runner.withPropertyValues("$property=$value").run {
            assertThat(failureText(it)).contains(property, "'$value'", accepted)
        }
    }

    @ParameterizedTest
    @ValueSource(ints = [-1, 65])
    fun `an event-loop thread count outside 0 to 64 fails startup naming the property`(threads: Int) {
        runner.withPropertyValues("protobench.data.grpc.event-loop-threads=$threads").run {
            assertThat(failureText(it))
                .contains("protobench.data.grpc.event-loop-threads must be 0 (grpc-netty's default) or 1 to 64, got $threads")
        }
    }

    private fun assertModes(context: AssertableApplicationContext, payload: GrpcPayloadMode, complex: ComplexEncoding) {
        val settings = context.getBean(DataServerSettings::class.java)
        assertThat(settings.grpcPayloadMode).isEqualTo(payload)
        assertThat(settings.complexEncoding).isEqualTo(complex)
    }

    /** Messages of the startup failure and all its causes, one per line. */
    private fun failureText(context: AssertableApplicationContext): String {
        assertThat(context).hasFailed()
        return generateSequence(context.startupFailure) { it.cause }.joinToString("\n") { it.message.orEmpty() }
    }
}
