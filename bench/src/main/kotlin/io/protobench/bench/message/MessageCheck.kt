package io.protobench.bench.message

import com.fasterxml.jackson.core.JacksonException
import com.fasterxml.jackson.databind.ObjectMapper
import com.google.protobuf.Descriptors.Descriptor
import com.google.protobuf.DynamicMessage
import com.google.protobuf.InvalidProtocolBufferException
import com.google.protobuf.util.JsonFormat
import io.protobench.contract.payload.PayloadSize
import java.io.ByteArrayOutputStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.zip.GZIPOutputStream

/** One item of a user's message on the wire: as compact JSON and as protobuf, each raw and gzipped (bytes). */
data class MessageSizes(val json: Int, val jsonGzip: Int, val protobuf: Int, val protobufGzip: Int) {
    /** protobuf's bytes as a share of JSON's. */
    val protobufShare: Double get() = protobuf.toDouble() / json
}

/** A user's message, checked: its type, the sample read into it, and its sizes. */
class CheckedMessage(val type: Descriptor, val sample: DynamicMessage, val sizes: MessageSizes, val protoFiles: Int)

/**
 * The check before anything starts: the .proto compiles with the project's protoc, the type exists and
 * holds nothing the lab cannot carry, the JSON sample reads strictly into it, and one item fits what the
 * lab's servers accept. The sample is read by protobuf's JSON mapping here, a reflective path used only
 * to check it: what a run measures goes through generated code on every arm.
 */
object MessageCheck {

    /** The largest item, in either form: what the lab's servers and driver accept in one message ([PayloadSize.MAX_BYTES]). */
    const val MAX_BYTES = PayloadSize.MAX_BYTES

    fun check(proto: Path, message: String, sample: Path, includes: List<Path>, protoc: Protoc, work: Path): CheckedMessage {
        if (!Files.isRegularFile(sample)) throw MessageProblem("--sample $sample: no such file; give one $message as JSON")
        val schema = MessageSchema.of(protoc.descriptorSet(proto, includes, work))
        val type = schema.type(message)
        val text = Files.readString(sample)
        val json = compact(text, sample)
        val parsed = read(text, type, sample)
        val sizes = sizes(json, parsed.toByteArray())
        val largest = maxOf(sizes.json, sizes.protobuf)
        if (largest > MAX_BYTES) {
            throw MessageProblem(
                "--sample $sample: one ${type.fullName} is ${sizes.json} bytes as JSON and " +
                    "${sizes.protobuf} as protobuf; " +
                    "accepted: items up to ${MAX_BYTES / PayloadSize.MIB} MiB in either form (the largest message the lab's servers take)",
            )
        }
        return CheckedMessage(type, parsed, sizes, schema.files.size)
    }

    /** [text] read into [type] by protobuf's JSON mapping, unknown fields refused. */
    private fun read(text: String, type: Descriptor, sample: Path): DynamicMessage {
        val builder = DynamicMessage.newBuilder(type)
        try {
            JsonFormat.parser().merge(text, builder)
        } catch (e: InvalidProtocolBufferException) {
            throw MessageProblem(
                "--sample $sample is not a ${type.fullName}: ${e.message}; accepted: one JSON object with " +
                    "${type.fullName}'s fields (protobuf's JSON mapping: lowerCamelCase or the .proto's names), no unknown fields",
            )
        }
        return builder.build()
    }

    /** The sample as it goes on the wire: its JSON without whitespace, keys and values as given. */
    private fun compact(text: String, sample: Path): ByteArray = try {
        MAPPER.writeValueAsBytes(MAPPER.readTree(text))
    } catch (e: JacksonException) {
        throw MessageProblem("--sample $sample is not JSON: ${e.originalMessage}")
    }

    fun sizes(json: ByteArray, protobuf: ByteArray) = MessageSizes(json.size, gzip(json).size, protobuf.size, gzip(protobuf).size)

    private fun gzip(bytes: ByteArray): ByteArray = ByteArrayOutputStream().also { out ->
        GZIPOutputStream(out).use { it.write(bytes) }
    }.toByteArray()

    private val MAPPER = ObjectMapper()
}
