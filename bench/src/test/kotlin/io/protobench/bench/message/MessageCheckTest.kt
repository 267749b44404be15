package io.protobench.bench.message

import com.google.protobuf.DescriptorProtos.FileDescriptorProto
import com.google.protobuf.DescriptorProtos.FileDescriptorSet
import io.protobench.bench.testkit.PROCESS
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path

/** The check of a user's own message, with the build's real protoc (a process: not in the unit tier). */
@Tag(PROCESS)
class MessageCheckTest {
    @TempDir
    lateinit var tmp: Path

    private val shop = """
        syntax = "proto3";
        package shop;
        import "google/protobuf/timestamp.proto";
        import "common/money.proto";

        message Order {
          enum Status { STATUS_UNSPECIFIED = 0; PAID = 1; SHIPPED = 2; }
          message Line { string sku = 1; int32 quantity = 2; common.Money price = 3; }
          string id = 1;
          Status status = 2;
          repeated Line lines = 3;
          map<string, string> tags = 4;
          google.protobuf.Timestamp placed_at = 5;
        }
    """.trimIndent()

    private val money = """
        syntax = "proto3";
        package common;
        message Money { string currency = 1; int64 units = 2; }
    """.trimIndent()

    private val order = """
        {
          "id": "o-1001",
          "status": "PAID",
          "lines": [
            {"sku": "A-1", "quantity": 2, "price": {"currency": "EUR", "units": "1250"}},
            {"sku": "B-7", "quantity": 1, "price": {"currency": "EUR", "units": "399"}}
          ],
          "tags": {"channel": "web"},
          "placedAt": "2026-12-01T10:15:30Z"
        }
    """.trimIndent()

    private fun write(name: String, text: String): Path = tmp.resolve(name).also {
        Files.createDirectories(it.parent)
        Files.writeString(it, text)
    }

    private fun check(
        message: String = "shop.Order",
        sample: String = order,
        proto: String = shop,
        includes: List<Path>? = null,
    ): CheckedMessage {
        val root = tmp.resolve("protos")
        write("protos/common/money.proto", money)
        val file = write("protos/shop.proto", proto)
        val json = write("order.json", sample)
        return MessageCheck.check(
            file,
            message,
            json,
            includes ?: listOf(root),
            Protoc.find(),
            Files.createDirectories(tmp.resolve("work")),
        )
    }

    @Test
    fun `a message with nested types, enums, maps, imports and a timestamp reads its sample and weighs it in both forms`() {
        val checked = check()
        assertThat(checked.type.fullName).isEqualTo("shop.Order")
        assertThat(checked.protoFiles).isEqualTo(3) // money, timestamp, shop
        assertThat(checked.sample.toString()).contains("o-1001", "A-1", "channel")
        val compactJson = com.fasterxml.jackson.databind.ObjectMapper().let { it.writeValueAsBytes(it.readTree(order)) }
        assertThat(checked.sizes.json).isEqualTo(compactJson.size)
        assertThat(checked.sizes.protobuf).isEqualTo(checked.sample.serializedSize).isLessThan(checked.sizes.json)
        assertThat(checked.sizes.jsonGzip).isPositive()
        assertThat(checked.sizes.protobufGzip).isPositive()
        // A simple name finds the type when only one has it.
        assertThat(check(message = "Order").type.fullName).isEqualTo("shop.Order")
    }

    @Test
    fun `an unknown field in the sample is refused with the field and what is accepted`() {
        assertThatThrownBy { check(sample = """{"id": "o-1", "discount": 5}""") }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("is not a shop.Order")
            .hasMessageContaining("discount")
            .hasMessageContaining("no unknown fields")
        assertThatThrownBy { check(sample = """{"id": """) }.hasMessageContaining("is not JSON")
    }

    @Test
    fun `a type the proto does not define is refused with the types it does`() {
        assertThatThrownBy { check(message = "shop.Invoice") }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessage("--message shop.Invoice: no such message type; accepted: one of shop.Order, shop.Order.Line")
    }

    @Test
    fun `Any fields, groups and extensions are refused as not supported yet`() {
        val withAny = """
            syntax = "proto3";
            package shop;
            import "google/protobuf/any.proto";
            message Envelope { string id = 1; Inner inner = 2; }
            message Inner { google.protobuf.Any payload = 1; }
        """.trimIndent()
        assertThatThrownBy { check(message = "shop.Envelope", proto = withAny, sample = """{"id": "x"}""") }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("shop.Inner.payload is a google.protobuf.Any")
            .hasMessageContaining("Not supported in this version")
        val proto2 = """
            syntax = "proto2";
            package shop;
            message Legacy { optional string id = 1; optional group Item = 2 { optional int32 n = 3; } extensions 100 to 199; }
        """.trimIndent()
        assertThatThrownBy { check(message = "shop.Legacy", proto = proto2, sample = """{"id": "x"}""") }
            .hasMessageContaining("shop.Legacy declares extension ranges")
            .hasMessageContaining("shop.Legacy.item is a group")
    }

    @Test
    fun `a proto protoc cannot compile is refused with protoc's own words`() {
        assertThatThrownBy { check(proto = "syntax = \"proto3\";\nmessage Order { string id = 1 }\n") }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("could not compile")
            .hasMessageContaining("shop.proto:2")
        // Its import unreachable without the folder it is relative to.
        assertThatThrownBy { check(includes = listOf(tmp.resolve("elsewhere").also { Files.createDirectories(it) })) }
            .hasMessageContaining("could not compile")
    }

    @Test
    fun `a descriptor set with its imports reads as its proto does, in any order, and one that lacks them is refused`() {
        val fromSource = check()
        val written = FileDescriptorSet.parseFrom(Files.readAllBytes(tmp.resolve("work/descriptors.pb")))
        fun setFile(vararg files: FileDescriptorProto, name: String = "shop.binpb"): Path = tmp.resolve(name).also {
            Files.write(it, FileDescriptorSet.newBuilder().addAllFile(files.toList()).build().toByteArray())
        }
        val work = Files.createDirectories(tmp.resolve("set-work"))
        fun checkSet(set: Path, includes: List<Path> = emptyList()) =
            MessageCheck.check(set, "shop.Order", tmp.resolve("order.json"), includes, Protoc.find(), work)

        // Importers first, as a tool other than protoc may write them: read all the same.
        val fromSet = checkSet(setFile(*written.fileList.reversed().toTypedArray()))
        assertThat(fromSet.type.fullName).isEqualTo("shop.Order")
        assertThat(fromSet.protoFiles).isEqualTo(3)
        assertThat(fromSet.sizes).isEqualTo(fromSource.sizes)
        assertThat(fromSet.sample.toByteArray()).isEqualTo(fromSource.sample.toByteArray())

        val withoutImports = setFile(written.fileList.last(), name = "bare.pb")
        assertThatThrownBy { checkSet(withoutImports) }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("shop.proto imports")
            .hasMessageContaining("which the descriptor set does not hold")
            .hasMessageContaining("--include_imports")
        assertThatThrownBy { checkSet(tmp.resolve("order.json")) }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("not a descriptor set")
            .hasMessageContaining("accepted: a .proto file, or a descriptor set")
        assertThatThrownBy { checkSet(tmp.resolve("shop.binpb"), includes = listOf(tmp)) }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("give -I only with a .proto")
        assertThatThrownBy { checkSet(tmp.resolve("none.binpb")) }.hasMessageContaining("no such file")
    }

    @Test
    fun `an item over the servers' limit is refused before anything runs`() {
        val big = """{"id": "${"x".repeat(MessageCheck.MAX_BYTES)}"}"""
        assertThatThrownBy { check(sample = big) }
            .isInstanceOf(MessageProblem::class.java)
            .hasMessageContaining("accepted: items up to 8 MiB")
    }

    @Test
    fun `protoc's classifier follows the machine, and a protoc named by the environment must exist`() {
        assertThat(Protoc.classifier("Linux", "amd64")).isEqualTo("linux-x86_64")
        assertThat(Protoc.classifier("Mac OS X", "aarch64")).isEqualTo("osx-aarch_64")
        assertThat(Protoc.classifier("SunOS", "sparc")).isNull()
        assertThatThrownBy { Protoc.find(mapOf(Protoc.ENV to tmp.resolve("none").toString())) }
            .isInstanceOf(MessageProblem::class.java).hasMessageContaining("no such file")
        assertThatThrownBy { Protoc.find(emptyMap(), tmp) }.hasMessageContaining("protoc ${Protoc.VERSION} not found")
    }
}
