package io.protobench.bench.message

import com.fasterxml.jackson.databind.ObjectMapper
import com.fasterxml.jackson.databind.SerializationFeature
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule
import com.google.protobuf.DynamicMessage
import com.google.protobuf.Message
import com.google.protobuf.util.JsonFormat
import io.protobench.bench.testkit.PROCESS
import io.protobench.contract.message.ItemBatch
import io.protobench.contract.message.MessageUnusable
import io.protobench.contract.message.UserMessage
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.net.URLClassLoader
import java.nio.file.Files
import java.nio.file.Path

/**
 * A user's message built into generated code on both sides: the plain model read by Jackson, mapped
 * to protoc's classes and back, must carry exactly what protobuf's own JSON mapping reads from the
 * sample. A process (protoc), so not in the unit tier.
 */
@Tag(PROCESS)
class MessageBuildTest {
    @TempDir
    lateinit var tmp: Path

    private val catalog = """
        syntax = "proto3";
        package shop.v1;
        option java_package = "com.example.shop";
        import "google/protobuf/timestamp.proto";
        import "google/protobuf/wrappers.proto";

        enum Status { STATUS_UNSPECIFIED = 0; PAID = 1; SHIPPED = 2; }
        message Money { string currency = 1; int64 units = 2; int32 nanos = 3; }
        message Order {
          message Line { string sku = 1; int32 quantity = 2; Money price = 3; repeated string notes = 4; }
          string id = 1;
          Status status = 2;
          repeated Line lines = 3;
          map<string, string> tags = 4;
          map<int32, Money> refunds = 5;
          google.protobuf.Timestamp placed_at = 6;
          google.protobuf.StringValue coupon = 7;
          optional double weight_kg = 8;
          bytes signature = 9;
          repeated Status history = 10;
          bool gift = 11;
          string class = 12;
          oneof delivery { string pickup_point = 13; Money courier_fee = 14; }
          float rating = 15;
          uint64 loyalty = 16;
        }
    """.trimIndent()

    private val sample = """
        {
          "id": "o-1001", "status": "PAID",
          "lines": [
            {"sku": "A-1", "quantity": 2, "price": {"currency": "EUR", "units": "12", "nanos": 500000000}, "notes": ["gift wrap", "fragile"]},
            {"sku": "B-7", "quantity": 1, "price": {"currency": "EUR", "units": "3"}}
          ],
          "tags": {"channel": "web", "campaign": "winter"},
          "refunds": {"1": {"currency": "EUR", "units": "5"}},
          "placedAt": "2026-12-01T10:15:30.250Z",
          "coupon": "WINTER10",
          "weightKg": 1.75,
          "signature": "AAECAwQ=",
          "history": ["STATUS_UNSPECIFIED", "PAID"],
          "gift": true,
          "class": "express",
          "courierFee": {"currency": "EUR", "units": "4"},
          "rating": 4.5,
          "loyalty": "123456789012"
        }
    """.trimIndent()

    private val jackson = ObjectMapper().registerModule(JavaTimeModule()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)

    @Test
    fun `the model read by Jackson maps to protoc's classes and back carrying exactly what protobuf reads from the sample`() {
        val protoFile = tmp.resolve("shop.proto").also { Files.writeString(it, catalog) }
        val sampleFile = tmp.resolve("order.json").also { Files.writeString(it, sample) }
        val work = Files.createDirectories(tmp.resolve("work"))
        val protoc = Protoc.find()
        val checked = MessageCheck.check(protoFile, "shop.v1.Order", sampleFile, emptyList(), protoc, work)
        val jar = MessageBuild.build(protoFile, emptyList(), checked.type, protoc, work)
        assertThat(jar.sha256).hasSize(64)
        // The same inputs build the same jar: its sha256 in run.json names the code two runs carried.
        val again = MessageBuild.build(protoFile, emptyList(), checked.type, protoc, Files.createDirectories(tmp.resolve("again")))
        assertThat(again.sha256).isEqualTo(jar.sha256)

        URLClassLoader(arrayOf(jar.path.toUri().toURL()), javaClass.classLoader).use { loader ->
            val model = loader.loadClass(jar.modelClass)
            assertThat(model.getField("TYPE").get(null)).isEqualTo("shop.v1.Order")
            val root = model.getMethod("root").invoke(null) as Class<*>

            // JSON → model (Jackson) → generated message: the same fields protobuf's JSON mapping reads.
            val item = jackson.readValue(sample, root)
            val message = model.getMethod("toProto", Any::class.java).invoke(null, item) as Message
            assertThat(message.javaClass.name).isEqualTo("com.example.shop.Shop\$Order")
            assertThat(DynamicMessage.parseFrom(checked.type, message.toByteArray())).isEqualTo(checked.sample)

            // Bytes → generated message (its parser) → model → JSON (Jackson): read back by protobuf, the same again.
            val parser = model.getMethod("parser").invoke(null) as com.google.protobuf.Parser<*>
            val decoded = parser.parseFrom(checked.sample.toByteArray()) as Message
            val back = model.getMethod("fromProto", Message::class.java).invoke(null, decoded)
            val json = jackson.writeValueAsString(back)
            assertThat(json).contains("\"class\":\"express\"", "\"placedAt\":\"2026-12-01T10:15:30.250Z\"").doesNotContain("pickupPoint")
            val reread = DynamicMessage.newBuilder(checked.type).also { JsonFormat.parser().merge(json, it) }.build()
            assertThat(reread).isEqualTo(checked.sample)
        }

        // As the servers load it: a class loader of its own, the mapping through TO_PROTO and FROM_PROTO.
        val loaded = UserMessage.load(jar.path)
        assertThat(loaded.type).isEqualTo("shop.v1.Order")
        val item = loaded.parse(checked.sample.toByteArray())
        assertThat(loaded.toProto(loaded.fromProto(item))).isEqualTo(item)
        assertThat(loaded.toProto(jackson.readValue(sample, loaded.modelClass))).isEqualTo(item)
        val batch = ItemBatch.read(ItemBatch.write(List(3) { item }), loaded.parser)
        assertThat(batch).hasSize(3).allSatisfy { assertThat(it).isEqualTo(item) }
    }

    @Test
    fun `a descriptor set in place of the proto builds code that carries the sample as the proto's does`() {
        val protoFile = tmp.resolve("shop.proto").also { Files.writeString(it, catalog) }
        val sampleFile = tmp.resolve("order.json").also { Files.writeString(it, sample) }
        val protoc = Protoc.find()
        // The set protoc --include_imports writes, as a user would bring it: protobuf's own files inside.
        val source = Files.createDirectories(tmp.resolve("source"))
        protoc.descriptorSet(protoFile, emptyList(), source) // written to source/descriptors.pb
        val set = Files.copy(source.resolve("descriptors.pb"), tmp.resolve("shop.binpb"))
        val work = Files.createDirectories(tmp.resolve("work"))
        val checked = MessageCheck.check(set, "shop.v1.Order", sampleFile, emptyList(), protoc, work)
        val jar = MessageBuild.build(set, emptyList(), checked.type, protoc, work)

        val loaded = UserMessage.load(jar.path)
        assertThat(loaded.type).isEqualTo("shop.v1.Order")
        val item = loaded.parse(checked.sample.toByteArray())
        assertThat(item.javaClass.name).isEqualTo("com.example.shop.Shop\$Order")
        assertThat(item.toByteArray()).isEqualTo(checked.sample.toByteArray())
        assertThat(loaded.toProto(jackson.readValue(sample, loaded.modelClass))).isEqualTo(item)
    }

    @Test
    fun `a jar that protobench message did not build is refused with what was wrong`() {
        val empty = tmp.resolve("empty.jar").also { java.util.jar.JarOutputStream(Files.newOutputStream(it)).close() }
        assertThatThrownBy { UserMessage.load(empty) }.isInstanceOf(MessageUnusable::class.java).hasMessageContaining("protobench message")
        assertThatThrownBy { UserMessage.load(tmp.resolve("missing.jar")) }.isInstanceOf(MessageUnusable::class.java)
            .hasMessageContaining("no message jar")
    }

    @Test
    fun `names follow protoc's Java generator`() {
        assertThat(JavaNames.camelCase("placed_at", capitalizeFirst = true)).isEqualTo("PlacedAt")
        assertThat(JavaNames.camelCase("v1_api2x", capitalizeFirst = true)).isEqualTo("V1Api2X")
        assertThat(JavaNames.camelCase("order-service", capitalizeFirst = true)).isEqualTo("OrderService")
    }
}
